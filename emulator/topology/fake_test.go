package topology_test

import (
	"io"
	"net/http"
	"strings"
	"sync"
)

// recorded is one request the fake emulator received.
type recorded struct {
	Method, URL string
	// Headers holds the headers Apply must send: content type, AWS target
	// and credential, and GridBridge's own.
	Headers map[string]string
	Body    string
}

// fakeEmulator records requests and answers like the emulator would when
// everything succeeds; answer overrides the answer to chosen requests.
type fakeEmulator struct {
	mu       sync.Mutex
	requests []recorded
	// keys are the keys the fake's listKeys reports, by resource path; a
	// fake that honours the key headers stores them here.
	keys          map[string][2]string
	ignoreHeaders bool
	answer        func(r recorded) (status int, body string, ok bool)
}

func newFakeEmulator() *fakeEmulator { return &fakeEmulator{keys: map[string][2]string{}} }

func (f *fakeEmulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec := recorded{Method: r.Method, URL: r.URL.RequestURI(), Headers: map[string]string{}, Body: string(body)}
	for _, h := range []string{"Content-Type", "X-Amz-Target", "Authorization", "X-Gridbridge-Key1", "X-Gridbridge-Key2", "X-Gridbridge-Skip-Validation"} {
		if v := r.Header.Get(h); v != "" {
			rec.Headers[h] = v
		}
	}
	f.mu.Lock()
	f.requests = append(f.requests, rec)
	answer := f.answer
	f.mu.Unlock()
	if answer != nil {
		if status, body, ok := answer(rec); ok {
			w.WriteHeader(status)
			_, _ = io.WriteString(w, body)
			return
		}
	}
	status, out := f.succeed(r)
	w.WriteHeader(status)
	_, _ = io.WriteString(w, out)
}

// succeed is the emulator's answer to a request it accepts.
func (f *fakeEmulator) succeed(r *http.Request) (int, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPut:
		k := f.keys[path]
		if !f.ignoreHeaders {
			if v := r.Header.Get("X-GridBridge-Key1"); v != "" {
				k[0] = v
			}
			if v := r.Header.Get("X-GridBridge-Key2"); v != "" {
				k[1] = v
			}
		}
		f.keys[path] = k
		return http.StatusCreated, `{}`
	case strings.HasSuffix(path, "/listKeys"):
		k := f.keys[strings.TrimSuffix(path, "/listKeys")]
		return http.StatusOK, `{"key1":"` + k[0] + `","key2":"` + k[1] + `"}`
	}
	switch r.Header.Get("X-Amz-Target") {
	case "AWSEvents.CreateEventBus":
		return http.StatusOK, `{"EventBusArn":"arn:aws:events:eu-west-1:123456789012:event-bus/shop"}`
	case "AWSEvents.PutTargets":
		return http.StatusOK, `{"FailedEntryCount":0,"FailedEntries":[]}`
	case "AWSEventsV2.CreateEventBus":
		return http.StatusOK, `{"EventBusArn":"arn:aws:events:eu-west-1:123456789012:event-busv2/orders/ID1"}`
	}
	return http.StatusOK, `{}`
}

func (f *fakeEmulator) received() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.requests...)
}
