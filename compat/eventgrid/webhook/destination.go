package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/net/http/httpguts"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deliveryattr"
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/emulator/engine/redact"
)

// Attribute is a custom delivery property sent as a header (EG-26): a
// static Value, or the value found at SourceField (a dotted path) in the
// delivered event.
type Attribute struct {
	Name        string
	Value       string
	SourceField string
	// Secret marks a static value isSecret: the journal shows it as
	// redact.Marker unless RecordSecrets.
	Secret bool
}

// Destination is one event subscription's webhook, an engine.Destination.
// Items carry one event each, already in the delivery schema.
type Destination struct {
	Client *http.Client // must not follow redirects: see NoRedirects
	URL    string
	// SubscriptionName is sent upper-cased in aeg-subscription-name.
	SubscriptionName string
	Schema           egevent.Schema
	// Batched is true when maxEventsPerBatch > 1: CloudEvents deliveries
	// are then an array (application/cloudevents-batch+json).
	Batched    bool
	Attributes []Attribute
	// RecordSecrets keeps the URL's query and secret header values
	// readable in the journal (--record-secrets); off, they are redacted.
	RecordSecrets bool

	once sync.Once
	prep prepared
}

// Deliver posts the batch and names the outcome (EG-4, EG-24). It honours
// ctx, which the engine cancels with engine.ErrResponseTimeout after 30 s
// (EG-5).
func (d *Destination) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	p := d.prepare()
	body, contentType := d.body(a.Batch.Items)
	rec := &engine.RecordedRequest{Method: http.MethodPost, URL: d.URL, Body: body, ItemsBody: true}
	// What the journal, dead letters and messages show: the URL's query and
	// secret header values redacted; the endpoint gets them as they are.
	recorded := func(o engine.Outcome) engine.Outcome {
		o.Request = p.secrets.Request(rec)
		o.Destination = p.recordedURL
		o.Message = p.secrets.Text(o.Message, d.URL)
		return o
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(body))
	if err != nil {
		return recorded(engine.Outcome{Name: OutcomeResolutionError, Message: "the endpoint URL is not usable: " + err.Error()})
	}
	req.Header = make(http.Header, deliveryHeaders+len(d.Attributes))
	if err := d.setHeaders(req.Header, a, contentType, p); err != nil {
		// A value no HTTP request can carry fails this attempt for good
		// (BadRequest is never retried, EG-6): dead-lettered or dropped.
		rec.Header = req.Header.Clone()
		return recorded(engine.Outcome{Name: OutcomeBadRequest, Message: err.Error()})
	}
	// The request's own headers: nothing changes them once it is sent
	// (the client sets no cookies or credentials), and the journal keeps
	// its own copy of each distinct set.
	rec.Header = req.Header
	resp, err := d.do(req)
	if err != nil {
		name := outcomeForError(ctx, err)
		msg := err.Error()
		if name == OutcomeTimedOut {
			msg = "the endpoint did not answer within the response timeout"
		}
		return recorded(engine.Outcome{Name: name, Message: msg})
	}
	answer := readLimited(resp)
	resp.Body.Close()
	return recorded(engine.Outcome{
		OK: Succeeded(resp.StatusCode), Name: OutcomeForStatus(resp.StatusCode), Status: resp.StatusCode,
		Message: strings.TrimSpace("HTTP " + resp.Status + " " + snippet(answer)),
	})
}

// prepared is what every attempt of a destination shares, worked out on
// its first: the secrets and the URL as recorded.
type prepared struct {
	secrets     *redact.Secrets
	recordedURL string
	// upperName is the aeg-subscription-name value.
	upperName string
}

// prepare works out d's prepared values once; d's fields must not change
// after its first delivery.
func (d *Destination) prepare() *prepared {
	d.once.Do(func() {
		d.prep.secrets = d.secrets()
		d.prep.secrets.KnowURL(d.URL)
		d.prep.recordedURL = d.prep.secrets.URL(d.URL)
		d.prep.upperName = strings.ToUpper(d.SubscriptionName)
	})
	return &d.prep
}

// do sends req through d's client. A client with no timeout, cookie jar or
// credentials in the URL does nothing but call its transport for a request
// that is not redirected (and NoRedirects follows none); its Do would
// still copy every header for a redirect, so the transport is called
// directly here, and a failure is worded as Do words it.
func (d *Destination) do(req *http.Request) (*http.Response, error) {
	c := d.Client
	if c.Transport == nil || c.Jar != nil || c.Timeout != 0 || req.URL.User != nil {
		return c.Do(req)
	}
	resp, err := c.Transport.RoundTrip(req)
	if err == nil && resp == nil {
		err = fmt.Errorf("http: RoundTripper implementation (%T) returned a nil *Response with a nil error", c.Transport)
	}
	if err != nil {
		return nil, &url.Error{Op: "Post", URL: req.URL.String(), Err: err}
	}
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	return resp, nil
}

// secrets lists what Event Grid keeps secret in a delivery: the endpoint
// URL's query (ARM shows only endpointBaseUrl) and static delivery
// properties marked isSecret.
func (d *Destination) secrets() *redact.Secrets {
	s := &redact.Secrets{Keep: d.RecordSecrets}
	s.AllQuery(d.URL)
	for _, attr := range d.Attributes {
		if attr.Secret && attr.SourceField == "" {
			s.Header(attr.Name, attr.Value)
		}
	}
	return s
}

// body builds the request body. Event Grid and custom schemas always send
// an array (EG-2); CloudEvents sends one object, or an array when batching.
func (d *Destination) body(items []*engine.Item) ([]byte, string) {
	if d.Schema == egevent.CloudEventSchemaV10 && !d.Batched && len(items) == 1 {
		return items[0].Bytes(), "application/cloudevents+json; charset=utf-8"
	}
	n := 1 + len(items)
	for _, it := range items {
		n += it.Len()
	}
	buf := make([]byte, 0, n)
	buf = append(buf, '[')
	for i, it := range items {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = it.AppendBody(buf)
	}
	buf = append(buf, ']')
	if d.Schema == egevent.CloudEventSchemaV10 {
		return buf, "application/cloudevents-batch+json; charset=utf-8"
	}
	return buf, "application/json; charset=utf-8"
}

// deliveryHeaders is how many headers setHeaders sets besides the
// delivery attributes.
const deliveryHeaders = 6

// setHeaders writes the service's delivery headers (W-EG-3.1).
// Names go out in Go's canonical form (Aeg-Event-Type); header names are
// case-insensitive, and the journal then shows exactly what was sent. The
// service's own are set by their canonical names, their values in one
// slice: h.Set would canonicalize each name anew and allocate each value's.
func (d *Destination) setHeaders(h http.Header, a *engine.Attempt, contentType string, p *prepared) error {
	for _, attr := range d.Attributes {
		if v, ok := d.attributeValue(attr, a.Batch.Items); ok {
			if !httpguts.ValidHeaderFieldValue(v) {
				return invalidHeaderValue(attr)
			}
			h.Set(attr.Name, v)
		}
	}
	values := make([]string, 0, deliveryHeaders)
	set := func(name, value string) {
		values = append(values, value)
		h[name] = values[len(values)-1 : len(values) : len(values)]
	}
	set("Content-Type", contentType)
	set("Aeg-Event-Type", "Notification")
	set("Aeg-Subscription-Name", p.upperName)
	set("Aeg-Delivery-Count", strconv.Itoa(a.Number-1))
	set("Aeg-Metadata-Version", "1")
	if ev := firstEvent(a.Batch.Items); ev != nil && ev.Schema != egevent.CloudEventSchemaV10 {
		set("Aeg-Data-Version", ev.DataVersion)
	}
	return nil
}

// invalidHeaderValue names the mapping whose value cannot be sent.
func invalidHeaderValue(attr Attribute) error {
	if attr.SourceField != "" {
		return fmt.Errorf("delivery attribute mapping %q (Dynamic, sourceField %q): the event's value cannot be sent as an HTTP header (it holds CR, LF, NUL or another control character)", attr.Name, attr.SourceField)
	}
	return fmt.Errorf("delivery attribute mapping %q (Static): the value cannot be sent as an HTTP header (it holds CR, LF, NUL or another control character)", attr.Name)
}

func firstEvent(items []*engine.Item) *egevent.Event {
	if len(items) == 0 {
		return nil
	}
	ev, _ := items[0].Meta.(*egevent.Event)
	return ev
}

// attributeValue resolves a header value; a dynamic one is looked up in the
// first delivered event (UNCONFIRMED which form the service reads) and
// sent only when it is a string, number or boolean.
func (d *Destination) attributeValue(attr Attribute, items []*engine.Item) (string, bool) {
	if attr.SourceField == "" {
		return attr.Value, true
	}
	if len(items) == 0 {
		return "", false
	}
	var v any
	if json.Unmarshal(items[0].Bytes(), &v) != nil {
		return "", false
	}
	for _, part := range strings.Split(attr.SourceField, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		if v, ok = m[part]; !ok {
			return "", false
		}
	}
	return deliveryattr.HeaderValue(v)
}

// snippet is the start of a webhook's answer, for the journal.
func snippet(b []byte) string {
	const max = 256
	s := strings.TrimSpace(string(b))
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
