package fakes

import (
	"net/http"
	"time"
)

// Reply is one scripted answer to a delivery. Used directly as an Option,
// it answers every delivery the script does not (see Always).
type Reply struct {
	status int
	header http.Header
	body   []byte
	hold   bool
}

// Status answers with an HTTP status and an empty body.
func Status(code int) Reply { return Reply{status: code} }

// Always answers every delivery after the script (if any) with code:
// NewWebhook(t, Always(400)) refuses everything.
func Always(code int) Reply { return Status(code) }

// NoAnswer holds the request open without answering until the client gives
// up (GridBridge's 30 s response timeout on its clock) or the test ends.
func NoAnswer() Reply { return Reply{hold: true} }

// WithHeader adds a response header.
func (r Reply) WithHeader(name, value string) Reply {
	h := r.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Add(name, value)
	r.header = h
	return r
}

// WithBody sets the response body.
func (r Reply) WithBody(body string) Reply {
	r.body = []byte(body)
	return r
}

func (r Reply) apply(c *config) { c.then = r }

// Option configures a Webhook.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	script []Reply
	then   Reply
	tls    bool
	now    func() time.Time
	// validation answers the Event Grid handshake: "echo" (the default),
	// "manual" (200 without the code) or "reject".
	validation       string
	validationStatus int
	// abuseProtection is false when the OPTIONS handshake is refused.
	abuseProtection bool
}

// Script answers deliveries with replies in order; later deliveries get
// the Always reply (200 by default). Handshakes do not consume the script.
func Script(replies ...Reply) Option {
	return optionFunc(func(c *config) { c.script = append(c.script, replies...) })
}

// TLS serves HTTPS with httptest's certificate (see Webhook.Certificate)
// instead of plain HTTP.
func TLS() Option { return optionFunc(func(c *config) { c.tls = true }) }

// WithClock stamps recorded requests with now, e.g. the emulator's virtual
// clock, instead of wall time.
func WithClock(now func() time.Time) Option { return optionFunc(func(c *config) { c.now = now }) }

// ManualValidation answers the Event Grid validation handshake with 200
// but without the code, as an endpoint that validates by opening the
// validationUrl does (see Webhook.ValidationURLs).
func ManualValidation() Option { return optionFunc(func(c *config) { c.validation = "manual" }) }

// RejectValidation answers both validation handshakes with status, so the
// event subscription fails to provision.
func RejectValidation(status int) Option {
	return optionFunc(func(c *config) {
		c.validation, c.validationStatus, c.abuseProtection = "reject", status, false
	})
}
