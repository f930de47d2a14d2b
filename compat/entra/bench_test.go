package entra

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gorilla/mux"
)

// BenchmarkGuard measures what the token check adds to a request carrying
// one of the authority's tokens (a token seen before, and one whose RSA
// signature is checked for the first time), beside the same request through
// the guard with a key instead of a token (the guard only looks at the
// header).
func BenchmarkGuard(b *testing.B) {
	a := New(Config{Now: time.Now})
	tok, _, err := a.Issue("https://127.0.0.1/adfs", "adfs", "app", AudienceEventGrid)
	if err != nil {
		b.Fatal(err)
	}
	r := mux.NewRouter()
	r.Use(a.Middleware(false))
	r.Handle("/topics/t/api/events", OnPlane(EventGridPlane(), http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })))
	h := r
	run := func(b *testing.B, header, value string, forget bool) {
		req := httptest.NewRequest(http.MethodPost, "/topics/t/api/events", nil)
		req.Header.Set(header, value)
		b.ReportAllocs()
		for b.Loop() {
			if forget {
				a.mu.Lock()
				a.verified = nil
				a.mu.Unlock()
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("HTTP %d", w.Code)
			}
		}
	}
	b.Run("baseline-key", func(b *testing.B) { run(b, "aeg-sas-key", "k", false) })
	// An SDK sends one token for its lifetime: its signature is checked once.
	b.Run("issued-token", func(b *testing.B) { run(b, "Authorization", "Bearer "+tok, false) })
	b.Run("issued-token-first-use", func(b *testing.B) { run(b, "Authorization", "Bearer "+tok, true) })
}
