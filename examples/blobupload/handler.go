// Package blobupload is a small Event Grid webhook: it answers the
// subscription validation handshake and hands each
// Microsoft.Storage.BlobCreated event to a callback, the way a thumbnailer
// or an indexer listens for uploads. Its test uploads a blob to Azurite
// with the unmodified azblob SDK and sees the handler called.
package blobupload

import (
	"encoding/json"
	"net/http"
	"sync"
)

// Created is what the handler reads from a BlobCreated event.
type Created struct {
	Subject       string
	URL           string
	ContentType   string
	ContentLength int64
	ETag          string
}

// Handler is the webhook.
type Handler struct {
	mu      sync.Mutex
	created []Created
}

type event struct {
	EventType string          `json:"eventType"`
	Subject   string          `json:"subject"`
	Data      json.RawMessage `json:"data"`
}

// ServeHTTP answers Event Grid deliveries (a JSON array of events).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var events []event
	if err := json.NewDecoder(r.Body).Decode(&events); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for _, ev := range events {
		switch ev.EventType {
		case "Microsoft.EventGrid.SubscriptionValidationEvent":
			var d struct {
				ValidationCode string `json:"validationCode"`
			}
			_ = json.Unmarshal(ev.Data, &d)
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]string{"validationResponse": d.ValidationCode})
			return
		case "Microsoft.Storage.BlobCreated":
			var d struct {
				URL           string `json:"url"`
				ContentType   string `json:"contentType"`
				ContentLength int64  `json:"contentLength"`
				ETag          string `json:"eTag"`
			}
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			h.mu.Lock()
			h.created = append(h.created, Created{Subject: ev.Subject, URL: d.URL, ContentType: d.ContentType, ContentLength: d.ContentLength, ETag: d.ETag})
			h.mu.Unlock()
		}
	}
	w.WriteHeader(http.StatusOK)
}

// Created lists the uploads seen so far.
func (h *Handler) Created() []Created {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Created(nil), h.created...)
}
