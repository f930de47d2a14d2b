package fakes

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request kinds a Webhook tells apart.
const (
	KindDelivery        = "Notification"           // an event delivery
	KindValidation      = "SubscriptionValidation" // Event Grid schema handshake
	KindAbuseProtection = "AbuseProtection"        // CloudEvents OPTIONS handshake
)

// Request is one request the Webhook received.
type Request struct {
	Kind     string
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte
	// Time is when it arrived, by the WithClock clock or wall time.
	Time time.Time
	// Status is what the Webhook answered; 0 for NoAnswer.
	Status int
}

// Webhook is a fake webhook subscriber backed by an httptest server.
type Webhook struct {
	srv *httptest.Server
	cfg config

	mu             sync.Mutex
	requests       []Request
	deliveries     int
	validationURLs []string
	changed        chan struct{} // closed and replaced on every request
	stop           chan struct{} // closed by Close: held requests end
	closeOnce      sync.Once
}

// NewWebhook starts a fake webhook that answers as opts say; it is closed
// when the test ends.
func NewWebhook(t testing.TB, opts ...Option) *Webhook {
	t.Helper()
	w := &Webhook{
		cfg:     config{then: Status(http.StatusOK), now: time.Now, validation: "echo", abuseProtection: true},
		changed: make(chan struct{}),
		stop:    make(chan struct{}),
	}
	for _, o := range opts {
		o.apply(&w.cfg)
	}
	w.srv = httptest.NewUnstartedServer(http.HandlerFunc(w.serve))
	if w.cfg.tls {
		w.srv.StartTLS()
	} else {
		w.srv.Start()
	}
	t.Cleanup(w.Close)
	return w
}

// URL is the endpoint to subscribe: the server's base URL plus /webhook.
func (w *Webhook) URL() string { return w.srv.URL + "/webhook" }

// Certificate is the TLS server's certificate (nil without TLS), for a
// client that must trust it.
func (w *Webhook) Certificate() *x509.Certificate { return w.srv.Certificate() }

// Close releases held requests and shuts the server down; later
// deliveries fail to connect.
func (w *Webhook) Close() {
	w.closeOnce.Do(func() {
		close(w.stop)
		w.srv.Close()
	})
}

func (w *Webhook) serve(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	switch kind := classify(r, body); kind {
	case KindValidation:
		w.answerValidation(rw, r, body)
	case KindAbuseProtection:
		w.answerAbuseProtection(rw, r)
	default:
		w.answerDelivery(rw, r, body)
	}
}

func classify(r *http.Request, body []byte) string {
	if r.Method == http.MethodOptions && r.Header.Get("WebHook-Request-Origin") != "" {
		return KindAbuseProtection
	}
	if strings.EqualFold(r.Header.Get("aeg-event-type"), KindValidation) {
		return KindValidation
	}
	return KindDelivery
}

func (w *Webhook) answerValidation(rw http.ResponseWriter, r *http.Request, body []byte) {
	var events []struct {
		Data struct {
			ValidationCode string `json:"validationCode"`
			ValidationURL  string `json:"validationUrl"`
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &events)
	status, answer := http.StatusOK, []byte("{}")
	switch {
	case w.cfg.validation == "reject":
		status, answer = w.cfg.validationStatus, nil
	case len(events) == 0:
		status, answer = http.StatusBadRequest, nil
	case w.cfg.validation == "manual":
		w.mu.Lock()
		w.validationURLs = append(w.validationURLs, events[0].Data.ValidationURL)
		w.mu.Unlock()
	default:
		answer, _ = json.Marshal(map[string]string{"validationResponse": events[0].Data.ValidationCode})
	}
	w.record(r, body, KindValidation, status)
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	_, _ = rw.Write(answer)
}

func (w *Webhook) answerAbuseProtection(rw http.ResponseWriter, r *http.Request) {
	status := http.StatusOK
	if !w.cfg.abuseProtection {
		status = w.cfg.validationStatus
	} else {
		rw.Header().Set("WebHook-Allowed-Origin", r.Header.Get("WebHook-Request-Origin"))
		rw.Header().Set("WebHook-Allowed-Rate", "*")
		rw.Header().Set("Allow", "POST, OPTIONS")
	}
	w.record(r, nil, KindAbuseProtection, status)
	rw.WriteHeader(status)
}

func (w *Webhook) answerDelivery(rw http.ResponseWriter, r *http.Request, body []byte) {
	w.mu.Lock()
	reply := w.cfg.then
	if w.deliveries < len(w.cfg.script) {
		reply = w.cfg.script[w.deliveries]
	}
	w.deliveries++
	w.mu.Unlock()
	if reply.hold {
		w.record(r, body, KindDelivery, 0)
		select {
		case <-r.Context().Done():
		case <-w.stop:
		}
		return
	}
	w.record(r, body, KindDelivery, reply.status)
	for k, vs := range reply.header {
		rw.Header()[k] = vs
	}
	rw.WriteHeader(reply.status)
	_, _ = rw.Write(reply.body)
}

func (w *Webhook) record(r *http.Request, body []byte, kind string, status int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.requests = append(w.requests, Request{
		Kind: kind, Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: body, Time: w.cfg.now(), Status: status,
	})
	close(w.changed)
	w.changed = make(chan struct{})
}

// Requests returns every request received so far, handshakes included,
// oldest first.
func (w *Webhook) Requests() []Request {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Request(nil), w.requests...)
}

// Deliveries returns the event deliveries received so far (no handshakes).
func (w *Webhook) Deliveries() []Request {
	var out []Request
	for _, r := range w.Requests() {
		if r.Kind == KindDelivery {
			out = append(out, r)
		}
	}
	return out
}

// ValidationURLs lists the validationUrl of every Event Grid handshake
// answered under ManualValidation; opening one validates the subscription.
func (w *Webhook) ValidationURLs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.validationURLs...)
}

// WaitForRequests waits until at least n requests (handshakes included)
// have arrived, or ctx ends.
func (w *Webhook) WaitForRequests(ctx context.Context, n int) ([]Request, error) {
	return w.wait(ctx, func() []Request { return w.Requests() }, n)
}

// WaitForDeliveries waits until at least n deliveries have arrived, or ctx
// ends.
func (w *Webhook) WaitForDeliveries(ctx context.Context, n int) ([]Request, error) {
	return w.wait(ctx, w.Deliveries, n)
}

func (w *Webhook) wait(ctx context.Context, list func() []Request, n int) ([]Request, error) {
	for {
		w.mu.Lock()
		changed := w.changed
		w.mu.Unlock()
		if got := list(); len(got) >= n {
			return got, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return list(), ctx.Err()
		}
	}
}

// Event is one delivered event, in either schema.
type Event struct {
	ID string
	// Type is eventType (Event Grid schema) or type (CloudEvents).
	Type    string
	Subject string
	// Topic (Event Grid schema) or Source (CloudEvents).
	Topic  string
	Source string
	Data   json.RawMessage
	// Raw is the event as delivered.
	Raw json.RawMessage
	// Delivery is the index in Deliveries() of the request that carried it.
	Delivery int
}

// Events decodes every delivery: an array body yields each element, an
// object body one event. Custom-schema events keep only Raw.
func (w *Webhook) Events() []Event {
	var out []Event
	for i, d := range w.Deliveries() {
		var raws []json.RawMessage
		if b := bytes.TrimSpace(d.Body); len(b) > 0 && b[0] == '{' {
			raws = []json.RawMessage{b}
		} else if json.Unmarshal(d.Body, &raws) != nil {
			continue
		}
		for _, raw := range raws {
			var f struct {
				ID, EventType, Type, Subject, Topic, Source string
				Data                                        json.RawMessage
			}
			_ = json.Unmarshal(raw, &f)
			typ := f.EventType
			if typ == "" {
				typ = f.Type
			}
			out = append(out, Event{ID: f.ID, Type: typ, Subject: f.Subject, Topic: f.Topic,
				Source: f.Source, Data: f.Data, Raw: raw, Delivery: i})
		}
	}
	return out
}
