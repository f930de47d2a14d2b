package namespaces

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/queue"
	"github.com/gridbridge/gridbridge/emulator/engine"
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
		dec := json.NewDecoder(bytes.NewReader(body))
		err = dec.Decode(&req)
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
