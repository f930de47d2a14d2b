package namespaces

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/queue"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// maxSettleBody bounds a lock-token request; tokens are short.
const maxSettleBody = 1 << 20

// releaseDelay reads releaseDelayInSeconds: absent means 0; otherwise one
// of 0, 10, 60, 600 or 3600 [SRC, SPEC].
func releaseDelay(raw string) (time.Duration, bool) {
	switch raw {
	case "", "0":
		return 0, true
	case "10":
		return 10 * time.Second, true
	case "60":
		return time.Minute, true
	case "600":
		return 10 * time.Minute, true
	case "3600":
		return time.Hour, true
	}
	return 0, false
}

func (s *Service) acknowledge(w http.ResponseWriter, r *http.Request, es *subscriptionState, q *queue.Queue) {
	s.settle(w, r, es, engine.KindDelivered, outcomeAcknowledged, q.Acknowledge)
}

func (s *Service) reject(w http.ResponseWriter, r *http.Request, es *subscriptionState, q *queue.Queue) {
	s.settle(w, r, es, engine.KindAttempt, outcomeRejected, q.Reject)
}

func (s *Service) release(w http.ResponseWriter, r *http.Request, es *subscriptionState, q *queue.Queue) {
	raw := r.URL.Query().Get("releaseDelayInSeconds")
	delay, ok := releaseDelay(raw)
	if !ok {
		writeDataError(w, http.StatusBadRequest, codeBadRequest,
			"releaseDelayInSeconds must be one of 0, 10, 60, 600 or 3600, not '"+raw+"'.")
		return
	}
	s.settle(w, r, es, engine.KindAttempt, outcomeReleased, func(tokens []string) []queue.Result { return q.Release(tokens, delay) })
}

// settle applies a settle operation to the request's lock tokens, journals
// the events it applied to as kind with outcome, and answers with the
// per-token result.
func (s *Service) settle(w http.ResponseWriter, r *http.Request, es *subscriptionState, kind, outcome string, apply func(tokens []string) []queue.Result) {
	tokens, ok := lockTokens(w, r)
	if !ok {
		return
	}
	res := apply(tokens)
	s.journalSettled(es, kind, outcome, res)
	writeSettleResult(w, res)
}

func (s *Service) renewLocks(w http.ResponseWriter, r *http.Request, _ *subscriptionState, q *queue.Queue) {
	tokens, ok := lockTokens(w, r)
	if !ok {
		return
	}
	writeSettleResult(w, q.RenewLocks(tokens))
}

// lockTokens reads {"lockTokens":[…]}, answering 400 itself when the body is
// not that or names no token.
func lockTokens(w http.ResponseWriter, r *http.Request) ([]string, bool) {
	body, tooLarge, err := readBody(r, maxSettleBody)
	if tooLarge {
		writeDataError(w, http.StatusRequestEntityTooLarge, codeTooLarge, "The request body is too large.")
		return nil, false
	}
	var req struct {
		LockTokens []string `json:"lockTokens"`
	}
	if err == nil {
		var plain bool
		if req.LockTokens, plain = plainLockTokens(body); !plain {
			dec := json.NewDecoder(bytes.NewReader(body))
			err = dec.Decode(&req)
		}
	}
	if err != nil {
		writeDataError(w, http.StatusBadRequest, codeBadRequest, `The request body must be {"lockTokens":["<token>", …]}.`)
		return nil, false
	}
	if len(req.LockTokens) == 0 {
		writeDataError(w, http.StatusBadRequest, codeBadRequest, "lockTokens must name at least one lock token.")
		return nil, false
	}
	return req.LockTokens, true
}

// plainLockTokens reads a body in the form the SDKs send,
// {"lockTokens":["…",…]} without spaces and with tokens of printable ASCII
// that need no unescaping, as the decoder would; ok is false for any other
// body, which is left to the decoder (and its rules on case, unknown
// members, escapes and trailing data).
func plainLockTokens(body []byte) (tokens []string, ok bool) {
	const head, tail = `{"lockTokens":["`, `"]}`
	b := bytes.TrimSpace(body)
	if len(b) < len(head)+len(tail) || string(b[:len(head)]) != head || string(b[len(b)-len(tail):]) != tail {
		return nil, false
	}
	b = b[len(head)-1 : len(b)-len(tail)+1] // "t1","t2"
	tokens = make([]string, 0, bytes.Count(b, []byte(`","`))+1)
	for len(b) > 0 {
		if b[0] != '"' {
			return nil, false
		}
		end := 1
		for end < len(b) && b[end] != '"' {
			if c := b[end]; c < 0x20 || c >= 0x7f || c == '\\' {
				return nil, false
			}
			end++
		}
		if end == len(b) {
			return nil, false
		}
		tokens = append(tokens, string(b[1:end]))
		b = b[end+1:]
		if len(b) > 0 {
			if b[0] != ',' {
				return nil, false
			}
			b = b[1:]
		}
	}
	return tokens, true
}

type failedLockToken struct {
	LockToken string     `json:"lockToken"`
	Error     tokenError `json:"error"`
}

type tokenError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeSettleResult answers 200 even when every token failed; both arrays
// are always present and keep the request's order.
func writeSettleResult(w http.ResponseWriter, res []queue.Result) {
	if body, ok := plainSettleResult(res); ok {
		httpjson.WriteBody(w, http.StatusOK, body)
		return
	}
	out := struct {
		Succeeded []string          `json:"succeededLockTokens"`
		Failed    []failedLockToken `json:"failedLockTokens"`
	}{Succeeded: []string{}, Failed: []failedLockToken{}}
	for _, r := range res {
		if r.Err == nil {
			out.Succeeded = append(out.Succeeded, r.Token)
		} else {
			out.Failed = append(out.Failed, failedLockToken{LockToken: r.Token, Error: tokenError{r.Err.Code, r.Err.Message}})
		}
	}
	writeData(w, http.StatusOK, out)
}

// plainSettleResult writes the common answer by hand, every token settled
// and each one text JSON writes as it is (the queue's own tokens are
// base64); ok is false otherwise, for writeData to encode.
func plainSettleResult(res []queue.Result) (body []byte, ok bool) {
	const head, tail = `{"succeededLockTokens":[`, `],"failedLockTokens":[]}`
	size := len(head) + len(tail)
	for _, r := range res {
		if r.Err != nil || !plainJSON(r.Token) {
			return nil, false
		}
		size += len(r.Token) + 3
	}
	body = make([]byte, 0, size)
	body = append(body, head...)
	for i, r := range res {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, '"')
		body = append(body, r.Token...)
		body = append(body, '"')
	}
	return append(body, tail...), true
}

// plainJSON reports whether s is written into a JSON string unchanged by
// writeData's encoder (which escapes HTML's <, > and & too).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// journalSettled records the events a settle operation applied to.
func (s *Service) journalSettled(es *subscriptionState, kind, outcome string, res []queue.Result) {
	var ids []string
	for _, r := range res {
		if r.Err == nil {
			ids = append(ids, r.Event.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	s.journal.Append(engine.Entry{
		Time: s.clock.Now(), Kind: kind, Route: es.route, Labels: es.labels, EventIDs: ids, Outcome: outcome,
	})
}
