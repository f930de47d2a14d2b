package targets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/compat/eventbridge/transform"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/emulator/engine/redact"
)

// ErrAPIDestinationNotFound is what a Resolve function returns when the API
// destination or its connection no longer exists.
var ErrAPIDestinationNotFound = errors.New("API destination does not exist")

// Endpoint is what an API destination and its connection say about each
// request, read afresh for every attempt so updates apply at once.
type Endpoint struct {
	Method string
	// URL is the InvocationEndpoint; each * in it takes the next of the
	// target's PathParameterValues.
	URL string
	// Header, Query and Body hold the connection's auth and invocation
	// parameters. Body keys are added to JSON-object bodies.
	Header http.Header
	Query  url.Values
	Body   map[string]string
	// Token, for OAuth connections, returns the bearer token; refresh asks
	// for a new one after the endpoint refused the old one.
	Token func(ctx context.Context, refresh bool) (string, error)
	// Secrets marks the connection's credentials and IsValueSecret
	// parameters, redacted in what the attempt records; nil: none.
	Secrets *redact.Secrets
}

// HTTPParameters is a target's HttpParameters. Header and query values that
// start with "$." are JSONPaths into the event.
type HTTPParameters struct {
	PathParameterValues []string
	HeaderParameters    map[string]string
	QueryParameters     map[string]string
}

// Invoke calls an API destination over HTTP.
type Invoke struct {
	Arn     string
	Client  *http.Client
	Resolve func(apiDestinationArn string) (Endpoint, error)
	Params  HTTPParameters
	// Envelope returns an item's original event, for JSONPath parameters.
	Envelope func(*engine.Item) []byte
	Hints    *Hints
	// RecordSecrets keeps secret values readable in the journal and DLQ
	// messages (--record-secrets); off, they are redacted.
	RecordSecrets bool
	// Answer, when set, receives the body of a successful (2xx) answer:
	// what an EventBridge pipe's enrichment returns. An answer longer than
	// AnswerLimit bytes fails the attempt. Nil: the body is read and
	// dropped, as EventBridge looks only at the status.
	Answer      func(body []byte)
	AnswerLimit int64
}

// responseLimit caps how much of a response body is read: EventBridge only
// looks at the status.
const responseLimit = 1 << 20

// Deliver implements engine.Destination. What the attempt records (the
// request, its message, and so the DLQ message's ERROR_MESSAGE) shows the
// connection's secrets and the OAuth token as redact.Marker.
func (d Invoke) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	ep, err := d.Resolve(d.Arn)
	if err != nil {
		return d.fail(a.Batch, retry.CodeNoResource, err.Error(), false, nil)
	}
	secrets := ep.Secrets
	if secrets == nil {
		secrets = &redact.Secrets{}
	}
	secrets.Keep = d.RecordSecrets
	o := d.deliver(ctx, a, ep, secrets)
	sent := ""
	if o.Request != nil {
		sent = o.Request.URL
	}
	o.Request = secrets.Request(o.Request)
	o.Message = secrets.Text(o.Message, sent)
	return o
}

func (d Invoke) deliver(ctx context.Context, a *engine.Attempt, ep Endpoint, secrets *redact.Secrets) engine.Outcome {
	it := a.Batch.Items[0]
	req, rec, err := d.request(ctx, ep, it)
	if err != nil {
		return d.fail(a.Batch, retry.CodeInvalidParameter, err.Error(), false, rec)
	}
	if ep.Token != nil {
		token, err := ep.Token(ctx, false)
		if err != nil {
			return d.fail(a.Batch, retry.CodeConnectionFailure, "Failed to obtain an OAuth token: "+err.Error(), true, rec)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		secrets.Header("Authorization", "Bearer "+token)
		rec.Header = req.Header.Clone()
	}
	client := d.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return d.transportFailure(ctx, a.Batch, err, rec)
	}
	ok := resp.StatusCode >= 200 && resp.StatusCode < 300
	if ok && d.Answer != nil {
		body, err := io.ReadAll(io.LimitReader(resp.Body, d.AnswerLimit+1))
		_ = resp.Body.Close()
		switch {
		case err != nil:
			return d.transportFailure(ctx, a.Batch, err, rec)
		case int64(len(body)) > d.AnswerLimit:
			o := d.fail(a.Batch, retry.CodeInvalidParameter, fmt.Sprintf("The endpoint's answer is larger than the %d bytes an enrichment may return.", d.AnswerLimit), false, rec)
			o.Status = resp.StatusCode
			return o
		}
		d.Answer(body)
	} else {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, responseLimit))
		_ = resp.Body.Close()
	}
	o := engine.Outcome{Status: resp.StatusCode, Destination: d.Arn, Request: rec}
	if ok {
		o.OK = true
		return o
	}
	o.Name = retry.CodeForStatus(resp.StatusCode)
	// URL.Redacted hides only a password: the secret query values are
	// redacted with the rest of the message by Deliver.
	o.Message = fmt.Sprintf("Unable to invoke ApiDestination endpoint: The endpoint %s responded with HTTP status %d.", req.URL.Redacted(), resp.StatusCode)
	// EventBridge retries only 429 and 5xx from an API destination; an OAuth
	// endpoint's 401 or 407 is retried with a fresh token.
	retryable := resp.StatusCode == 429 || resp.StatusCode >= 500
	if ep.Token != nil && (resp.StatusCode == 401 || resp.StatusCode == 407) {
		_, _ = ep.Token(ctx, true)
		retryable = true
	}
	hint := retry.Hint{Retryable: retryable}
	if after, ok := retryAfter(resp.Header.Get("Retry-After")); ok {
		hint.After, hint.HasAfter = after, true
	}
	d.hint(a.Batch, hint)
	return o
}

func (d Invoke) request(ctx context.Context, ep Endpoint, it *engine.Item) (*http.Request, *engine.RecordedRequest, error) {
	envelope := it.Body
	if d.Envelope != nil {
		envelope = d.Envelope(it)
	}
	target := fillPath(ep.URL, d.Params.PathParameterValues)
	u, err := url.Parse(target)
	if err != nil {
		return nil, &engine.RecordedRequest{Method: ep.Method, URL: target}, fmt.Errorf("invocation endpoint %q is not a URL: %v", target, err)
	}
	q := u.Query()
	for k, vs := range ep.Query {
		for _, v := range vs {
			q.Add(k, v)
		}
	}
	for k, v := range d.Params.QueryParameters {
		q.Set(k, resolveParam(v, envelope))
	}
	u.RawQuery = q.Encode()

	body := mergeBody(it.Body, ep.Body)
	req, err := http.NewRequestWithContext(ctx, ep.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, &engine.RecordedRequest{Method: ep.Method, URL: u.String(), Body: body}, err
	}
	// The headers EventBridge documents for API destination requests.
	req.Header.Set("User-Agent", "Amazon/EventBridge/ApiDestinations")
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Range", "bytes=0-1048575")
	req.Header.Set("Accept-Encoding", "gzip,deflate")
	req.Close = true
	for k, vs := range ep.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	rec := &engine.RecordedRequest{Method: req.Method, URL: u.String(), Body: body}
	for k, v := range d.Params.HeaderParameters {
		value := resolveParam(v, envelope)
		if !httpguts.ValidHeaderFieldValue(value) {
			// No HTTP request can carry it: a permanent failure of this
			// event (InvalidParameter is not retried), not a day of retries.
			rec.Header = req.Header.Clone()
			return nil, rec, fmt.Errorf("HttpParameters.HeaderParameters %q (%s): the value cannot be sent as an HTTP header (it holds CR, LF, NUL or another control character)", k, v)
		}
		req.Header.Set(k, value)
	}
	rec.Header = req.Header.Clone()
	return req, rec, nil
}

// fillPath replaces each * of the endpoint with the next path parameter.
func fillPath(endpoint string, values []string) string {
	var b strings.Builder
	next := 0
	for _, r := range endpoint {
		if r == '*' && next < len(values) {
			b.WriteString(url.PathEscape(values[next]))
			next++
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// resolveParam reads a JSONPath parameter from the event; strings go in bare.
func resolveParam(v string, envelope []byte) string {
	if !strings.HasPrefix(v, "$.") {
		return v
	}
	raw, ok := transform.Lookup(envelope, v)
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// mergeBody adds the connection's body parameters to a JSON-object body;
// other bodies are sent as they are.
func mergeBody(body []byte, extra map[string]string) []byte {
	if len(extra) == 0 {
		return body
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil || obj == nil {
		return body
	}
	for k, v := range extra {
		if _, taken := obj[k]; !taken {
			obj[k], _ = json.Marshal(v)
		}
	}
	merged, err := json.Marshal(obj)
	if err != nil {
		return body
	}
	return merged
}

// retryAfter reads a Retry-After header given in seconds.
func retryAfter(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, false
	}
	return time.Duration(n) * time.Second, true
}

func (d Invoke) transportFailure(ctx context.Context, b *engine.Batch, err error, rec *engine.RecordedRequest) engine.Outcome {
	var dnsErr *net.DNSError
	switch {
	case errors.Is(context.Cause(ctx), engine.ErrResponseTimeout):
		return d.fail(b, retry.CodeTimeout, "Unable to invoke ApiDestination endpoint: the endpoint did not answer within 5 seconds.", true, rec)
	case errors.As(err, &dnsErr):
		// EventBridge does not retry an address it cannot resolve.
		return d.fail(b, retry.CodeConnectionFailure, "Unable to invoke ApiDestination endpoint: "+err.Error(), false, rec)
	default:
		return d.fail(b, retry.CodeConnectionFailure, "Unable to invoke ApiDestination endpoint: "+err.Error(), true, rec)
	}
}

func (d Invoke) fail(b *engine.Batch, code, msg string, retryable bool, rec *engine.RecordedRequest) engine.Outcome {
	d.hint(b, retry.Hint{Retryable: retryable})
	return engine.Outcome{Name: code, Message: msg, Destination: d.Arn, Request: rec}
}

func (d Invoke) hint(b *engine.Batch, h retry.Hint) {
	if d.Hints != nil {
		d.Hints.set(b, h)
	}
}
