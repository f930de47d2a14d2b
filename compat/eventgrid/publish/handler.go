package publish

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// MaxBytes is the size limit of a request and of one event: 1 MB
// (W-EG-2.5).
const MaxBytes = 1 << 20

// Handler serves publish requests.
type Handler struct {
	Store *resource.Store
	// Now is the emulator clock.
	Now func() time.Time
	// Endpoint is a topic's advertised publish URL (for SAS resources).
	Endpoint func(t *resource.Topic) string
	// Accept receives the events of every accepted request, in order.
	Accept func(t *resource.Topic, events []*egevent.Event)
	// NewID makes request ids and ids of unmapped custom events.
	NewID func() string
}

// Serve handles a request sent to topic's endpoint.
func (h *Handler) Serve(w http.ResponseWriter, r *http.Request, topic string) {
	h.serve(w, r, topic, resource.TypeTopic)
}

// ServeDomain handles a request sent to a domain's endpoint: each event
// names its domain topic, and the events of one request may name several.
func (h *Handler) ServeDomain(w http.ResponseWriter, r *http.Request, domain string) {
	h.serve(w, r, domain, resource.TypeDomain)
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request, topic string, typ resource.ResourceType) {
	now := h.Now()
	requestID := h.NewID()
	fail := func(status int, code, detail, msg string) {
		writeError(w, requestID, now, status, code, detail, msg)
	}
	t := h.Store.TopicByName(topic)
	if t == nil || t.Type != typ {
		msg := fmt.Sprintf("No HTTP resource was found that matches the request URI '%s'.", requestURI(r))
		fail(http.StatusNotFound, "NotFound", "ResourceNotFound", msg)
		return
	}
	if r.Method != http.MethodPost {
		fail(http.StatusMethodNotAllowed, "MethodNotAllowed", "", fmt.Sprintf("The requested resource does not support http method '%s'.", r.Method))
		return
	}
	if refusal := authorize(r, t, h.Endpoint(t), now); refusal != "" {
		fail(http.StatusUnauthorized, "Unauthorized", "Unauthorized", refusal)
		return
	}
	body, err := readBody(r, MaxBytes)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			fail(http.StatusRequestEntityTooLarge, "RequestEntityTooLarge", "", fmt.Sprintf("The request is over the limit of %d bytes.", MaxBytes))
		} else {
			fail(http.StatusBadRequest, "BadRequest", "InputJsonInvalid", "The request body could not be read: "+err.Error())
		}
		return
	}
	if status, code, msg, ok := injected(r); ok {
		fail(status, code, "", msg)
		return
	}
	events, derr := schema.Decode(schema.Topic{ID: t.ID, Name: t.Name, Input: t.EventSchema(), Mapping: t.InputSchemaMapping, Domain: typ == resource.TypeDomain},
		schema.Request{Header: r.Header, Body: body, MaxEventBytes: MaxBytes, Now: now, NewID: h.NewID})
	if derr != nil {
		fail(derr.Status, derr.Code, derr.Detail, derr.Message)
		return
	}
	if typ == resource.TypeDomain && !t.AutoCreateTopics {
		// UNCONFIRMED: with domain topics managed by hand, an event naming
		// one that does not exist refuses the request (all events are
		// accepted or none, as for topics), rather than vanishing.
		for i, ev := range events {
			if h.Store.Topic(ev.Topic) == nil {
				fail(http.StatusBadRequest, "BadRequest", "DomainTopicNotFound", fmt.Sprintf(
					"The domain topic '%s' named by the event at index %d does not exist in domain '%s', whose autoCreateTopicWithFirstSubscription is false.", ev.TopicName, i, t.Name))
				return
			}
		}
	}
	h.Accept(t, events)
	w.Header().Set("x-ms-request-id", requestID)
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}

var errTooLarge = errors.New("request too large")

// readBody reads at most limit bytes; more is errTooLarge (413).
func readBody(r *http.Request, limit int) ([]byte, error) {
	if r.ContentLength > int64(limit) {
		return nil, errTooLarge
	}
	if n := r.ContentLength; n > 0 {
		// The body's events are kept for as long as they wait (each
		// event's Raw is a piece of it): read it into a buffer of its
		// exact size, not one grown by doubling with up to a quarter to
		// spare (memory per pending event).
		b := make([]byte, n)
		if _, err := io.ReadFull(r.Body, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > limit {
		return nil, errTooLarge
	}
	return b, nil
}

func requestURI(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + r.URL.RequestURI()
}

// injected is the answer an API fault in force gives this publish request:
// service "eventgrid", operation "publish" (topics and domains alike),
// with Event Grid's error body. It is asked once the request is one the
// topic would take (found, authorized, read).
func injected(r *http.Request) (status int, code, msg string, ok bool) {
	faults := engine.APIFaultsFrom(r.Context())
	if faults.None() {
		return 0, "", "", false
	}
	hit, ok := faults.Take("eventgrid", "publish")
	if !ok {
		return 0, "", "", false
	}
	status, code, msg = hit.Status, hit.Error, hit.Message
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if code == "" {
		code = engine.ARMCode(status)
	}
	if msg == "" {
		msg = "Failure injected by a GridBridge API fault (" + hit.ID + ")."
	}
	faults.Journal(hit, "publish", status, code, msg)
	return status, code, msg, true
}
