package facetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TargetRequest is one request a Target received.
type TargetRequest struct {
	Header http.Header
	Body   []byte
	At     time.Time // emulator time, from the clock the Target was given
}

// Answer decides a Target's status and body for one request.
type Answer func(r TargetRequest) (status int, body string)

// Always answers every request with status and body.
func Always(status int, body string) Answer {
	return func(TargetRequest) (int, string) { return status, body }
}

// Target is a plain-HTTP endpoint whose answer a test decides per request
// and may change mid-test; it records what it received. (fakes.Webhook is
// the scripted Event Grid webhook; a Target knows no cloud.)
type Target struct {
	URL string

	mu       sync.Mutex
	requests []TargetRequest
	answer   Answer
}

// NewTarget starts a Target, closed when the test ends; now stamps each
// request's At (pass the virtual clock's Now).
func NewTarget(t testing.TB, now func() time.Time, answer Answer) *Target {
	tg := &Target{answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := TargetRequest{Header: r.Header.Clone(), Body: body, At: now()}
		tg.mu.Lock()
		tg.requests = append(tg.requests, req)
		answer := tg.answer
		tg.mu.Unlock()
		status, text := answer(req)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, text)
	}))
	t.Cleanup(srv.Close)
	tg.URL = srv.URL
	return tg
}

// SetAnswer replaces the answer for the requests still to come.
func (tg *Target) SetAnswer(answer Answer) {
	tg.mu.Lock()
	tg.answer = answer
	tg.mu.Unlock()
}

// Received returns a copy of the requests so far, in arrival order.
func (tg *Target) Received() []TargetRequest {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	return append([]TargetRequest(nil), tg.requests...)
}
