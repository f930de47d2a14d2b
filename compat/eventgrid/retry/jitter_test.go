package retry_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// jitterRun fails 20 concurrent events six times each and returns every
// event's attempt times.
func jitterRun(t *testing.T, cfg retry.Config, dest engine.Destination) map[string][]time.Duration {
	t.Helper()
	cfg.MaxDeliveryAttempts = 6
	h := newHarness(t, setup{cfg: cfg, dest: dest, noDeadLetter: true})
	ids := make([]string, 20)
	for i := range ids {
		ids[i] = fmt.Sprintf("e%02d", i)
	}
	h.publish(ids...)
	h.advanceTo(at("2h"))
	out := make(map[string][]time.Duration, len(ids))
	for _, id := range ids {
		out[id] = h.attempts(id)
		if len(out[id]) != 6 {
			t.Fatalf("%s: %d attempts, want 6", id, len(out[id]))
		}
	}
	return out
}

func TestEG9_Jitter(t *testing.T) {
	t.Parallel()
	nominal500 := offsets("0", "10s", "40s", "1m40s", "6m40s", "16m40s")
	t.Run("off: the exact schedule", func(t *testing.T) {
		t.Parallel()
		for id, got := range jitterRun(t, retry.Config{}, routetest.Status(500)) {
			if !slices.Equal(got, nominal500) {
				t.Fatalf("%s attempted at %v, want %v", id, got, nominal500)
			}
		}
	})
	t.Run("seeded: the same times on every run", func(t *testing.T) {
		t.Parallel()
		cfg := retry.Config{Jitter: true, Seed: 42}
		first, second := jitterRun(t, cfg, routetest.Status(500)), jitterRun(t, cfg, routetest.Status(500))
		if !maps.EqualFunc(first, second, slices.Equal) {
			t.Fatalf("two runs with seed 42 differ:\n%v\n%v", first, second)
		}
		other := jitterRun(t, retry.Config{Jitter: true, Seed: 43}, routetest.Status(500))
		if maps.EqualFunc(first, other, slices.Equal) {
			t.Fatal("seeds 42 and 43 gave the same retry times")
		}
		jittered := 0
		for _, got := range first {
			if !slices.Equal(got, nominal500) {
				jittered++
			}
		}
		if jittered == 0 {
			t.Fatal("jitter on, but every event kept the exact schedule")
		}
	})
	t.Run("on: within [wait, wait+5%]", func(t *testing.T) {
		t.Parallel()
		tests := []struct {
			status int
			waits  []time.Duration // EG-7/EG-8 waits between the six attempts
		}{
			{500, offsets("10s", "30s", "1m", "5m", "10m")},
			{503, offsets("30s", "30s", "1m", "5m", "10m")},
			{408, offsets("2m", "2m", "2m", "5m", "10m")},
		}
		for _, tt := range tests {
			for id, got := range jitterRun(t, retry.Config{Jitter: true, Seed: 7}, routetest.Status(tt.status)) {
				for i, w := range tt.waits {
					gap := got[i+1] - got[i]
					if gap < w || gap > w+w/20 {
						t.Fatalf("status %d, %s: wait %d is %v, want within [%v, %v]", tt.status, id, i+1, gap, w, w+w/20)
					}
				}
			}
		}
	})
}

func TestEG10_UnhealthyEndpoint_RetriesInsideHoldAreSkipped(t *testing.T) {
	t.Parallel()
	// A webhook answering 404 retries on the standard schedule, but each
	// failure puts the subscription on 5 minutes' probation (EG-18): the
	// retry slots that fall inside it are skipped to its end.
	tests := []struct {
		name      string
		probation bool
		want      []string
	}{
		{"probation off: every slot", false, []string{"0", "10s", "40s", "1m40s", "6m40s", "16m40s"}},
		{"probation on: slots inside it skipped", true, []string{"0", "5m", "10m", "15m", "20m", "30m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, setup{cfg: retry.Config{MaxDeliveryAttempts: 6, Probation: tt.probation}, dest: routetest.Status(404)})
			h.publish("e1")
			h.advanceTo(at("1h"))
			wantAttempts(t, h, "e1", tt.want...)
		})
	}
}
