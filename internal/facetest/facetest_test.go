package facetest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

func TestEnvServesRouterOnBothServers(t *testing.T) {
	t.Parallel()
	env := facetest.New(t, facetest.Options{})
	if got := env.Clock.Now(); !got.Equal(facetest.DefaultStart) {
		t.Fatalf("clock starts at %v, want %v", got, facetest.DefaultStart)
	}
	env.Router.HandleFunc("/ping", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("pong")) })
	for name, srv := range map[string]*httptest.Server{"tls": env.ServeTLS(t), "http": env.ServeHTTP(t)} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/ping", nil)
		resp := facetest.Do(t, srv.Client(), req)
		if resp.Status != http.StatusOK || string(resp.Body) != "pong" {
			t.Fatalf("%s: got %d %q", name, resp.Status, resp.Body)
		}
	}
}

func TestWaitReturnsOnceTheJournalHasTheEntries(t *testing.T) {
	t.Parallel()
	env := facetest.New(t, facetest.Options{})
	f := engine.Filter{Kind: engine.KindAttempt, EventID: "e1"}
	go func() {
		for range 2 {
			env.Journal.Append(engine.Entry{Kind: engine.KindAttempt, EventIDs: []string{"e1"}})
		}
	}()
	if got := env.WaitCount(t, f, 2); len(got) < 2 {
		t.Fatalf("WaitCount returned %d entries, want 2", len(got))
	}
}

func TestTargetRecordsRequestsAndChangesItsAnswer(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tg := facetest.NewTarget(t, func() time.Time { return at }, facetest.Always(500, "down"))
	post := func() facetest.Response {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, tg.URL, http.NoBody)
		return facetest.Do(t, http.DefaultClient, req)
	}
	if r := post(); r.Status != 500 || string(r.Body) != "down" {
		t.Fatalf("first answer %d %q", r.Status, r.Body)
	}
	tg.SetAnswer(facetest.Always(200, "ok"))
	if r := post(); r.Status != 200 {
		t.Fatalf("second answer %d", r.Status)
	}
	got := tg.Received()
	if len(got) != 2 || !got[0].At.Equal(at) {
		t.Fatalf("received %+v", got)
	}
}

func TestAWSJSONErrorNeedsHeaderAndBodyToAgree(t *testing.T) {
	t.Parallel()
	body := []byte(`{"__type":"ValidationException","message":"bad"}`)
	err := facetest.DecodeAWSJSON(facetest.Response{Status: 400, Header: http.Header{"X-Amzn-Errortype": {"ValidationException"}}, Body: body}, nil)
	if ae, ok := err.(*facetest.AWSError); !ok || ae.Code != "ValidationException" || ae.Message != "bad" || ae.Status != 400 {
		t.Fatalf("got %v", err)
	}
	err = facetest.DecodeAWSJSON(facetest.Response{Status: 400, Header: http.Header{}, Body: body}, nil)
	if _, ok := err.(*facetest.AWSError); ok || err == nil {
		t.Fatalf("a missing X-Amzn-ErrorType was accepted: %v", err)
	}
}

func TestGoldenDropsTheFinalNewline(t *testing.T) {
	t.Parallel()
	if got := string(facetest.Golden(t, "sample.json")); got != `{"golden": true}` {
		t.Fatalf("got %q", got)
	}
}

func TestAdvanceToNeverMovesTheClockBack(t *testing.T) {
	t.Parallel()
	env := facetest.New(t, facetest.Options{Start: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)})
	env.AdvanceTo(time.Minute)
	env.AdvanceTo(30 * time.Second)
	if got := env.Clock.Now().Sub(env.Start); got != time.Minute {
		t.Fatalf("clock at start+%v, want start+1m", got)
	}
}

func TestWantAWSErrorAcceptsAMatching4xx(t *testing.T) {
	t.Parallel()
	err := &facetest.AWSError{Status: 400, Code: "ValidationException", Message: "Name is too long"}
	if got := facetest.WantAWSError(t, "CreateEventBus", err, "ValidationException", "Name", "too long"); got != err {
		t.Fatalf("got %v", got)
	}
}
