package push

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/emulator/engine/redact"
)

// Content types of webhook deliveries: one CloudEvent per request by
// default, an array when the subscription batches (the charset parameter is
// UNCONFIRMED; the SDKs send it on publish).
const (
	contentTypeSingle = "application/cloudevents+json; charset=utf-8"
	contentTypeBatch  = "application/cloudevents-batch+json; charset=utf-8"
)

// maxResponseDrain bounds how much of an answer is read so the connection
// can be reused; the body itself is never used.
const maxResponseDrain = 64 << 10

// Webhook delivers CloudEvents to one endpoint. It is an engine.Destination.
type Webhook struct {
	Client *http.Client
	URL    string
	// Batched is true when the subscription sets maxEventsPerBatch or
	// preferredBatchSizeInKilobytes: the body is then always an array.
	Batched    bool
	Attributes []Attribute
	// RecordSecrets keeps the URL's query and secret header values
	// readable in the journal (--record-secrets); off, they are redacted.
	RecordSecrets bool
}

var _ engine.Destination = (*Webhook)(nil)

// NewItem wraps an event for the engine: the body is the event's structured
// JSON, and Meta the event itself, for headers and dead-letter records.
func NewItem(ev *cloudevent.Event, publishedAt time.Time) *engine.Item {
	return &engine.Item{ID: ev.ID, Body: ev.JSON, PublishedAt: publishedAt, Meta: ev}
}

// EventOf returns the event an item carries.
func EventOf(it *engine.Item) *cloudevent.Event {
	ev, _ := it.Meta.(*cloudevent.Event)
	return ev
}

// Deliver implements engine.Destination: one HTTP POST of the batch.
func (w *Webhook) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	items := a.Batch.Items
	contentType, body := contentTypeSingle, []byte(nil)
	if w.Batched || len(items) > 1 {
		contentType = contentTypeBatch
		body = append(body, '[')
		for i, it := range items {
			if i > 0 {
				body = append(body, ',')
			}
			body = append(body, it.Body...)
		}
		body = append(body, ']')
	} else {
		body = items[0].Body
	}
	secrets := w.secrets()
	// What the journal and dead letters show: the URL's query and secret
	// header values redacted; the endpoint gets them as they are.
	var rec *engine.RecordedRequest
	recorded := func(o engine.Outcome) engine.Outcome {
		o.Request = secrets.Request(rec)
		o.Destination = secrets.URL(w.URL)
		o.Message = secrets.Text(o.Message, w.URL)
		return o
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return recorded(engine.Outcome{Name: OutcomeBadRequest, Message: err.Error()})
	}
	req.Header.Set("Content-Type", contentType)
	// Dynamic values of a batch come from its first event (which event the
	// service uses is UNCONFIRMED).
	var invalid error
	if ev := EventOf(items[0]); ev != nil {
		for _, attr := range w.Attributes {
			if v, ok := attr.Resolve(ev); ok {
				if !httpguts.ValidHeaderFieldValue(v) {
					invalid = attr.invalidValue()
					break
				}
				req.Header.Set(attr.Name, v)
			}
		}
	}
	rec = &engine.RecordedRequest{Method: req.Method, URL: w.URL, Header: req.Header.Clone(), Body: body}
	if invalid != nil {
		// A value no HTTP request can carry fails this attempt for good:
		// a BadRequest without an answer is never retried (policy.go).
		return recorded(engine.Outcome{Name: OutcomeBadRequest, Message: invalid.Error()})
	}
	resp, err := w.client().Do(req)
	if err != nil {
		return recorded(engine.Outcome{Name: outcomeForError(ctx, err), Message: err.Error()})
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponseDrain))
	resp.Body.Close()
	o := engine.Outcome{
		OK: IsSuccess(resp.StatusCode), Name: OutcomeForStatus(resp.StatusCode), Status: resp.StatusCode,
	}
	if !o.OK {
		o.Message = fmt.Sprintf("the endpoint answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	return recorded(o)
}

// secrets lists what Event Grid keeps secret in a delivery: the endpoint
// URL's query (ARM shows only endpointBaseUrl) and static delivery
// attributes marked isSecret.
func (w *Webhook) secrets() *redact.Secrets {
	s := &redact.Secrets{Keep: w.RecordSecrets}
	s.AllQuery(w.URL)
	for _, a := range w.Attributes {
		if a.Static && a.Secret {
			s.Header(a.Name, a.Value)
		}
	}
	return s
}

func (w *Webhook) client() *http.Client {
	if w.Client != nil {
		return w.Client
	}
	return http.DefaultClient
}
