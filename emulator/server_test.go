package emulator

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func startVirtual(t *testing.T) *Server {
	t.Helper()
	s, err := Start(Options{Clock: engine.ModeVirtual, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// No package-level state: two servers in one process are independent.
func TestTwoServersAreIndependent(t *testing.T) {
	t.Parallel()
	a, b := startVirtual(t), startVirtual(t)
	a.VirtualClock().Advance(time.Hour)
	if got := b.Clock().Now().Sub(a.Clock().Now()); got != -time.Hour {
		t.Fatalf("clocks moved together: b - a = %v", got)
	}
	topic := "/subscriptions/s/resourceGroups/rg/providers/Microsoft.EventGrid/topics/orders?api-version=2025-02-15"
	put(t, a.URL()+topic, `{"location":"westus"}`, http.StatusCreated)
	get(t, b.URL()+topic, http.StatusNotFound)
	if string(a.CACertPEM()) == string(b.CACertPEM()) {
		t.Fatal("two servers share a CA")
	}
}

func TestResetForgetsResources(t *testing.T) {
	t.Parallel()
	s := startVirtual(t)
	topic := "/subscriptions/s/resourceGroups/rg/providers/Microsoft.EventGrid/topics/orders?api-version=2025-02-15"
	put(t, s.URL()+topic, `{"location":"westus"}`, http.StatusCreated)
	resp, err := http.Post(s.URL()+"/_emulator/reset", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	get(t, s.URL()+topic, http.StatusNotFound)
	if st := s.Journal().Stats(); st.Held != 0 {
		t.Fatalf("journal holds %d entries after reset", st.Held)
	}
}

func TestBadOptionsFailStart(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{
		{Clock: "sundial"},
		{TimeScale: -1},
		{AzureStorage: []string{"AccountName=x"}},
		{Addr: "256.0.0.1:0"},
	} {
		if s, err := Start(o); err == nil {
			s.Close()
			t.Errorf("Start(%+v) succeeded", o)
		}
	}
}

func put(t *testing.T, url, body string, want int) {
	t.Helper()
	send(t, http.MethodPut, url, body, want)
}

func get(t *testing.T, url string, want int) {
	t.Helper()
	send(t, http.MethodGet, url, "", want)
}

// send makes an ARM request (any bearer token will do) with a JSON body
// when there is one, and fails unless it is answered with status want.
func send(t *testing.T, method, url, body string, want int) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer x")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %s, want %d", method, url, resp.Status, want)
	}
}
