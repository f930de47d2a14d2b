package retry_test

import (
	"testing"

	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// The seed: TTL 30 minutes and 10 attempts → only 6 attempts fit in 30
// minutes, so the event is dead-lettered "after 30 minutes". With EG-14 the
// give-up is at the 7th attempt's slot, 46m40s, with deliveryAttempts 6; the
// blob is written 5 minutes later (EG-21).
func TestEG13_TTL30Min10Attempts_DeadLetteredAfter6Attempts(t *testing.T) {
	t.Parallel()
	six := []string{"0", "10s", "40s", "1m40s", "6m40s", "16m40s"}
	tests := []struct {
		name     string
		cfg      retry.Config
		attempts []string // nil: only count them
		count    int
		written  string // "": any time
		reason   string
	}{
		{
			name: "TTL 30 min, 10 attempts: TTL first", cfg: retry.Config{MaxDeliveryAttempts: 10, EventTimeToLive: at("30m")},
			attempts: six, count: 6, written: "51m40s", reason: retry.ReasonTimeToLiveExceeded,
		},
		{
			name: "TTL 30 min, 5 attempts: attempts first", cfg: retry.Config{MaxDeliveryAttempts: 5, EventTimeToLive: at("30m")},
			attempts: six[:5], count: 5, written: "11m40s", reason: retry.ReasonMaxDeliveryAttemptsExceeded,
		},
		// Jitter never moves an attempt across the 30-minute line, so the
		// seed's count holds in the cloud-like mode too.
		{name: "jitter seed 1", cfg: retry.Config{MaxDeliveryAttempts: 10, EventTimeToLive: at("30m"), Jitter: true, Seed: 1}, count: 6, reason: retry.ReasonTimeToLiveExceeded},
		{name: "jitter seed 2", cfg: retry.Config{MaxDeliveryAttempts: 10, EventTimeToLive: at("30m"), Jitter: true, Seed: 2}, count: 6, reason: retry.ReasonTimeToLiveExceeded},
		{name: "jitter seed 3", cfg: retry.Config{MaxDeliveryAttempts: 10, EventTimeToLive: at("30m"), Jitter: true, Seed: 3}, count: 6, reason: retry.ReasonTimeToLiveExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, setup{cfg: tt.cfg, dest: routetest.Status(500)})
			h.publish("e1")
			h.advanceTo(at("2h"))
			if tt.attempts != nil {
				wantAttempts(t, h, "e1", tt.attempts...)
			}
			if n := len(h.attempts("e1")); n != tt.count {
				t.Fatalf("%d attempts, want %d", n, tt.count)
			}
			dl := h.one(engine.KindDeadLetter, "e1")
			if tt.written != "" && dl.Time.Sub(t0) != at(tt.written) {
				t.Fatalf("dead letter written at %v, want %s", dl.Time.Sub(t0), tt.written)
			}
			if dl.Time.Sub(t0) <= at("30m") && tt.reason == retry.ReasonTimeToLiveExceeded {
				t.Fatalf("dead-lettered at %v, want after 30 minutes", dl.Time.Sub(t0))
			}
			rec := h.record(dl)
			if rec["deadLetterReason"] != tt.reason || rec["deliveryAttempts"] != float64(tt.count) {
				t.Fatalf("record %v, want reason %s and %d attempts", rec, tt.reason, tt.count)
			}
		})
	}
}

func TestEG14_TTLCheckedOnlyAtNextScheduledAttempt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		cfg      retry.Config
		status   int
		attempts []string
		ttl      string // the TTL runs out here…
		givenUp  string // …but the event is given up here, at the next slot
	}{
		{"standard schedule", retry.Config{MaxDeliveryAttempts: 10, EventTimeToLive: at("30m")}, 500,
			[]string{"0", "10s", "40s", "1m40s", "6m40s", "16m40s"}, "30m", "46m40s"},
		{"azure 404 floor", retry.Config{EventTimeToLive: at("12m"), Destination: retry.AzureResource}, 404,
			[]string{"0", "5m", "10m"}, "12m", "15m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, setup{cfg: tt.cfg, dest: routetest.Status(tt.status), noDeadLetter: true})
			h.publish("e1")
			h.advanceTo(at(tt.ttl) + 1)
			h.none(engine.KindDrop, "e1")
			h.advanceTo(at(tt.givenUp) - 1)
			h.none(engine.KindDrop, "e1")
			h.advanceTo(at(tt.givenUp))
			drop := h.one(engine.KindDrop, "e1")
			if drop.Time.Sub(t0) != at(tt.givenUp) || drop.Outcome != retry.ReasonTimeToLiveExceeded {
				t.Fatalf("given up at %v with %q, want %s TimeToLiveExceeded", drop.Time.Sub(t0), drop.Outcome, tt.givenUp)
			}
			// No attempt is made in the slot where the TTL is found expired.
			h.advanceTo(at("3h"))
			wantAttempts(t, h, "e1", tt.attempts...)
		})
	}
}
