package sqs

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// RegisterInspection mounts SQS's part of the inspection API on r, the
// emulator's /_emulator subrouter: the queues of GridBridge's own SQS and
// their messages. With an endpoint both answer 409: those queues are read
// with the SQS SDK there. Every endpoint is documented in the README's
// inspection API table.
func (s *Service) RegisterInspection(r *mux.Router) {
	r.HandleFunc("/sqs", s.handleQueues).Methods(http.MethodGet)
	r.HandleFunc("/sqs/messages", s.handleMessages).Methods(http.MethodGet)
}

// Metrics returns the books of GridBridge's own queues, none with an
// endpoint (that server keeps its own).
func (s *Service) Metrics() []QueueMetrics { return s.store.Metrics() }

// MessageView is one message of GridBridge's own SQS, as
// GET /_emulator/sqs/messages shows it.
type MessageView struct {
	Body            json.RawMessage    `json:"body"`
	Attributes      []engine.Attribute `json:"attributes,omitempty"`
	MessageGroupID  string             `json:"messageGroupId,omitempty"`
	DeduplicationID string             `json:"deduplicationId,omitempty"`
}

// storeOrConflict answers 409 when SQS is a real server.
func (s *Service) storeOrConflict(w http.ResponseWriter) bool {
	if s.store == nil {
		httpjson.Error(w, http.StatusConflict, "SQS targets and dead-letter queues go to %s; read them with the SQS SDK", s.endpoint)
		return false
	}
	return true
}

func (s *Service) handleQueues(w http.ResponseWriter, _ *http.Request) {
	if !s.storeOrConflict(w) {
		return
	}
	// messages counts every message held, as /sqs/messages lists them;
	// visible, inFlight and delayed are its parts that matter to a receive.
	type queue struct {
		ARN      string `json:"arn"`
		Messages int    `json:"messages"`
		Visible  int    `json:"visible"`
		InFlight int    `json:"inFlight"`
		Delayed  int    `json:"delayed"`
	}
	out := []queue{}
	for _, m := range s.store.Metrics() {
		out = append(out, queue{ARN: m.ARN, Messages: len(s.store.Messages(m.ARN)), Visible: m.Visible, InFlight: m.InFlight, Delayed: m.Delayed})
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"queues": out})
}

// handleMessages lists ?queue=<arn>'s messages, oldest first, without
// removing them.
func (s *Service) handleMessages(w http.ResponseWriter, r *http.Request) {
	if !s.storeOrConflict(w) {
		return
	}
	arn := r.URL.Query().Get("queue")
	if arn == "" {
		httpjson.Error(w, http.StatusBadRequest, "give the queue ARN: ?queue=arn:aws:sqs:<region>:<account>:<name>")
		return
	}
	out := []MessageView{}
	for _, m := range s.store.Messages(arn) {
		out = append(out, MessageView{Body: engine.InlineBody(m.Body), Attributes: m.Attributes,
			MessageGroupID: m.MessageGroupID, DeduplicationID: m.DeduplicationID})
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"messages": out})
}
