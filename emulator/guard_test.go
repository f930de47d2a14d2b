package emulator

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestHostAllowList(t *testing.T) {
	t.Parallel()
	l := newHostAllowList(Options{
		TLSHosts:        []string{"Emu.Internal"},
		AdvertiseTLSURL: "https://advertised.example:9443/",
		AllowedHosts:    []string{"gridbridge", "*.wild.test", ".dot.test"},
	})
	for host, want := range map[string]bool{
		"":                        true,
		"127.0.0.1":               true,
		"127.0.0.1:4080":          true,
		"[::1]:4080":              true,
		"::1":                     true,
		"10.1.2.3:80":             true,
		"localhost":               true,
		"localhost.:4080":         true,
		"a.b.localhost:1":         true,
		"emu.internal:4443":       true,
		"advertised.example":      true,
		"gridbridge:4080":         true,
		"GRIDBRIDGE":              true,
		"x.wild.test":             true,
		"wild.test":               true,
		"dot.test":                true,
		"a.dot.test":              true,
		"rebind.attacker.test":    false,
		"localhost.attacker":      false,
		"gridbridge.attacker":     false,
		"xwild.test":              false,
		"advertised.example.evil": false,
	} {
		if got := l.allows(host); got != want {
			t.Errorf("allows(%q) = %v, want %v", host, got, want)
		}
	}
	if !newHostAllowList(Options{AllowedHosts: []string{"*"}}).allows("anything.example") {
		t.Error(`"*" does not allow every host`)
	}
}

// A handler that answers long after the body's read timeout (a long poll)
// keeps its request context and its connection.
func TestReadTimeoutDoesNotCutALongPoll(t *testing.T) {
	t.Parallel()
	s, err := Start(Options{ReadTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.router.HandleFunc("/_test/long-poll", func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		select {
		case <-time.After(300 * time.Millisecond): // the poll's own wait, past the read timeout
			w.WriteHeader(http.StatusOK)
		case <-r.Context().Done():
			// The client sees no answer: the connection was cut.
		}
	})
	resp, err := http.Post(s.URL()+"/_test/long-poll", "application/json", strings.NewReader(`{"maxWaitTime":1}`))
	if err != nil {
		t.Fatalf("long poll with a body: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("long poll = %d", resp.StatusCode)
	}
}

// BenchmarkGuard measures the Host and content-type checks against the same
// request served without them (the baseline).
func BenchmarkGuard(b *testing.B) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	hosts := newHostAllowList(Options{AllowedHosts: []string{"gridbridge", ".dev.test"}})
	req, _ := http.NewRequest(http.MethodPost, "http://gridbridge:4080/_emulator/clock/advance", nil)
	req.Header.Set("Content-Type", "application/json")
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"baseline", ok}, {"guarded", guard(hosts, ok)}} {
		b.Run(c.name, func(b *testing.B) {
			w := &discardWriter{h: http.Header{}}
			for b.Loop() {
				c.h.ServeHTTP(w, req)
			}
		})
	}
}

type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(int)             {}

func TestOriginsThatMayChangeState(t *testing.T) {
	t.Parallel()
	l := newHostAllowList(Options{AllowedHosts: []string{"app.test", ".dev.test"}})
	for _, c := range []struct {
		origin, host string
		want         bool
	}{
		{"http://127.0.0.1:4080", "127.0.0.1:4080", true}, // the dashboard, same origin
		{"https://LOCALHOST:4443", "localhost:4443", true},
		{"http://app.test:5173", "127.0.0.1:4080", true},
		{"http://a.dev.test", "127.0.0.1:4080", true},
		{"http://127.0.0.1:3000", "127.0.0.1:4080", false}, // another local server's page
		{"http://localhost:4081", "localhost:4080", false},
		{"http://evil.example", "127.0.0.1:4080", false},
		{"null", "127.0.0.1:4080", false},
		{"::", "127.0.0.1:4080", false},
	} {
		if got := l.allowsOrigin(c.origin, c.host); got != c.want {
			t.Errorf("allowsOrigin(%q, Host %q) = %v, want %v", c.origin, c.host, got, c.want)
		}
	}
}
