// Package redact hides secret values in what the emulator records about an
// outgoing request: the journal's recorded request, an attempt's message and
// destination, and so dead letters and DLQ messages built from them. What
// is secret is what the cloud marks so: connection auth parameters and
// values marked IsValueSecret (EventBridge), static delivery properties
// marked isSecret and a webhook URL's query (Event Grid). The endpoint
// itself still receives the real values; only the record is changed.
package redact

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Marker replaces every secret value, so a test still sees that a header or
// parameter was sent.
const Marker = "<redacted>"

// minScrubbed is the shortest secret value searched for in free text: a
// shorter one would mark ordinary words. Structured places (headers, query,
// body keys) are redacted whatever the length.
const minScrubbed = 4

// Secrets lists what is secret in one outgoing request. The zero value
// redacts nothing. Keep records everything as sent (--record-secrets).
type Secrets struct {
	Keep bool

	headers  map[string]bool // canonical header names
	query    map[string]bool
	allQuery bool
	body     map[string]bool // top-level keys of a JSON object body
	values   []string        // scrubbed from free text
	// knownURL, redacted as knownRedacted, is a URL every request of a
	// destination goes to (see KnowURL).
	knownURL, knownRedacted string
}

// KnowURL redacts rawURL once, for URL to answer from then on without
// parsing it again: a destination's every attempt goes to the same URL.
// Call it after the secrets are all marked and before s is shared.
func (s *Secrets) KnowURL(rawURL string) {
	s.knownURL, s.knownRedacted = "", ""
	s.knownRedacted, s.knownURL = s.URL(rawURL), rawURL
}

// Header marks a header's value secret.
func (s *Secrets) Header(name, value string) {
	if s.headers == nil {
		s.headers = map[string]bool{}
	}
	s.headers[http.CanonicalHeaderKey(name)] = true
	s.value(value)
}

// Query marks a query parameter's value secret.
func (s *Secrets) Query(name, value string) {
	if s.query == nil {
		s.query = map[string]bool{}
	}
	s.query[name] = true
	s.value(value)
}

// AllQuery marks every query value of the request's URL secret, as Event
// Grid treats a webhook URL's query (ARM shows only endpointBaseUrl).
func (s *Secrets) AllQuery(rawURL string) {
	u, err := url.Parse(rawURL)
	if err != nil {
		// Not a URL: the whole text is the secret.
		s.value(rawURL)
		return
	}
	if u.RawQuery == "" {
		return
	}
	s.allQuery = true
	for _, vs := range u.Query() {
		for _, v := range vs {
			s.value(v)
		}
	}
	s.value(u.RawQuery)
}

// Body marks a top-level key of a JSON object body secret.
func (s *Secrets) Body(key, value string) {
	if s.body == nil {
		s.body = map[string]bool{}
	}
	s.body[key] = true
	s.value(value)
}

func (s *Secrets) value(v string) {
	if len(v) >= minScrubbed {
		s.values = append(s.values, v)
	}
}

func (s *Secrets) none() bool {
	return s.Keep || (len(s.headers) == 0 && len(s.query) == 0 && !s.allQuery && len(s.body) == 0 && len(s.values) == 0)
}

// Request returns rec with its secrets replaced by Marker; rec itself is
// not changed (its header map may be the one sent).
func (s *Secrets) Request(rec *engine.RecordedRequest) *engine.RecordedRequest {
	if rec == nil || s.none() {
		return rec
	}
	out := *rec
	out.URL = s.URL(rec.URL)
	if len(rec.Header) > 0 && len(s.headers) > 0 {
		// Without secret headers the record shares rec's map, as it does
		// when nothing at all is secret.
		out.Header = make(http.Header, len(rec.Header))
		for k, vs := range rec.Header {
			if s.headers[http.CanonicalHeaderKey(k)] {
				red := make([]string, len(vs))
				for i := range red {
					red[i] = Marker
				}
				out.Header[k] = red
				continue
			}
			out.Header[k] = append([]string(nil), vs...)
		}
	}
	out.Body = s.jsonBody(rec.Body)
	if len(out.Body) != len(rec.Body) || len(out.Body) > 0 && &out.Body[0] != &rec.Body[0] {
		out.ItemsBody = false // a redacted body is no longer the items'
	}
	return &out
}

// URL returns rawURL with its secret query values replaced by Marker.
func (s *Secrets) URL(rawURL string) string {
	if s.none() || (!s.allQuery && len(s.query) == 0) {
		return rawURL
	}
	if rawURL == s.knownURL {
		return s.knownRedacted
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return s.Text(rawURL)
	}
	if u.RawQuery == "" {
		return rawURL
	}
	// Rebuilt by hand: url.Values.Encode would escape the marker's < >.
	parts := strings.Split(u.RawQuery, "&")
	for i, p := range parts {
		name, _, _ := strings.Cut(p, "=")
		key, err := url.QueryUnescape(name)
		if err != nil {
			key = name
		}
		if s.allQuery || s.query[key] {
			parts[i] = name + "=" + Marker
		}
	}
	u.RawQuery = ""
	u.ForceQuery = false
	return u.String() + "?" + strings.Join(parts, "&")
}

// Text returns msg with every secret value, raw or URL-escaped, replaced by
// Marker. urls are the request's URLs as sent, replaced first by their
// redacted form (a net/http error quotes the whole URL).
func (s *Secrets) Text(msg string, urls ...string) string {
	if s.none() || msg == "" {
		return msg
	}
	for _, u := range urls {
		if u != "" {
			msg = strings.ReplaceAll(msg, u, s.URL(u))
		}
	}
	for _, v := range s.values {
		for _, form := range []string{v, url.QueryEscape(v), url.PathEscape(v)} {
			msg = strings.ReplaceAll(msg, form, Marker)
		}
	}
	return msg
}

func (s *Secrets) jsonBody(body []byte) []byte {
	if len(s.body) == 0 || len(body) == 0 {
		return body
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil || obj == nil {
		return body
	}
	changed := false
	for k := range obj {
		if s.body[k] {
			obj[k] = json.RawMessage(`"` + Marker + `"`)
			changed = true
		}
	}
	if !changed {
		return body
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the marker reads as <redacted>, not \u003c…
	if enc.Encode(obj) != nil {
		return body
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
