package testkit_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/testkit"
)

type every struct{ delay time.Duration }

func (p every) AfterFailure(*engine.Batch, engine.Outcome, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Retry, After: p.delay}
}
func (every) BeforeRetry(*engine.Batch, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Proceed}
}

func TestAdvanceDrivesRetriesThroughTheInspectionAPI(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	var calls atomic.Int32
	eng := testkit.ServerOf(emu).Engine()
	eng.PutRoute(&engine.Route{ID: "r1", Labels: map[string]string{"topic": "orders", "subscription": "audit"},
		Retry: every{10 * time.Second},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			if calls.Add(1) <= 2 {
				return engine.Outcome{Name: "Busy", Status: 503}
			}
			return engine.Outcome{OK: true, Status: 200}
		})})
	if err := eng.Enqueue("r1", &engine.Item{ID: "e1", PublishedAt: emu.Now()}); err != nil {
		t.Fatal(err)
	}
	first := emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 1)
	if first[0].Outcome != "Busy" || !first[0].Time.Equal(testkit.DefaultStart()) {
		t.Fatalf("first attempt = %+v", first[0])
	}
	now := emu.Advance(time.Minute)
	if !now.Equal(testkit.DefaultStart().Add(time.Minute)) {
		t.Fatalf("clock after advance = %v", now)
	}
	got := emu.Deliveries(testkit.Filter{Topic: "orders"})
	if len(got) != 3 || got[2].Outcome != "Success" || got[2].Time.Sub(testkit.DefaultStart()) != 20*time.Second {
		t.Fatalf("deliveries = %+v", got)
	}
	if none := emu.Deliveries(testkit.Filter{Subscription: "other"}); len(none) != 0 {
		t.Fatalf("filter matched another subscription: %+v", none)
	}
}

func TestFaultsDeadLettersAndDropsAreVisible(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	eng := testkit.ServerOf(emu).Engine()
	emu.AddFault(testkit.Fault{Match: map[string]string{"rule": "r"}, Status: 500, Outcome: "INVOCATION_DEPENDENCY_INTERNAL"})
	eng.PutRoute(&engine.Route{ID: "r2", Labels: map[string]string{"rule": "r"},
		Retry: giveUp{},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{OK: true}
		}),
		DeadLetter: &engine.DeadLetterPolicy{Sink: testkit.ServerOf(emu).MemoryDeadLetters(),
			Build: func(b *engine.Batch, reason string, _ time.Time) ([]engine.DeadLetter, error) {
				return []engine.DeadLetter{{Destination: "memory/dlq", Body: []byte(`{"reason":"` + reason + `"}`), EventIDs: b.EventIDs()}}, nil
			}}})
	_ = eng.Enqueue("r2", &engine.Item{ID: "e1"})
	dead := emu.WaitForDeadLetters(testkit.Filter{Rule: "r"}, 1)
	if string(dead[0].Body) != `{"reason":"Exhausted"}` || dead[0].Destination != "memory/dlq" {
		t.Fatalf("dead letter = %+v", dead[0])
	}
	eng.RemoveRoute("r2", "")
	emu.Reset()
	if n := len(emu.Journal(testkit.Filter{})); n != 0 {
		t.Fatalf("journal after reset holds %d entries", n)
	}
}

type giveUp struct{}

func (giveUp) AfterFailure(*engine.Batch, engine.Outcome, time.Time) engine.Decision {
	return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: "Exhausted"}
}
func (giveUp) BeforeRetry(*engine.Batch, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Proceed}
}

func TestInspectionAPIRejectsBadInput(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	for _, c := range []struct {
		method, path, body string
		status             int
	}{
		{"POST", "/_emulator/clock/advance", `{"by":"soon"}`, 400},
		{"POST", "/_emulator/clock/advance", `not json`, 400},
		{"POST", "/_emulator/clock/advance", `{}`, 400},
		{"POST", "/_emulator/faults", `{"count":1}`, 400},
		// A fault's status is an HTTP status: 999, 42 or -1 would be recorded as
		// the status of attempts no endpoint could have answered.
		{"POST", "/_emulator/faults", `{"status":999}`, 400},
		{"POST", "/_emulator/faults", `{"status":42}`, 400},
		{"POST", "/_emulator/faults", `{"status":-1,"outcome":"Busy"}`, 400},
		{"POST", "/_emulator/faults", `{"status":503}`, 201},
		{"GET", "/_emulator/deliveries?after=x", ``, 400},
		{"GET", "/_emulator/nothing", ``, 404},
		{"GET", "/_emulator/health", ``, 200},
	} {
		req, _ := http.NewRequest(c.method, emu.URL()+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s %s: %d %s, want %d", c.method, c.path, c.body, resp.StatusCode, body, c.status)
		}
	}
}

func TestCACertificateIsServedAndTrusted(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	pem, err := emu.Inspector().CACertPEM(context.Background())
	if err != nil || !strings.Contains(string(pem), "BEGIN CERTIFICATE") {
		t.Fatalf("ca.pem: %v %q", err, pem)
	}
	resp, err := emu.HTTPClient().Get(emu.TLSURL() + "/_emulator/health")
	if err != nil {
		t.Fatalf("HTTPS with the emulator CA: %v", err)
	}
	resp.Body.Close()
	if _, err := http.Get(emu.TLSURL() + "/_emulator/health"); err == nil {
		t.Fatal("HTTPS without the CA succeeded")
	}
}
