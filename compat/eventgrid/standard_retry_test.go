package eventgrid

import (
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// EG-8: the standard steps, then every 12 hours.
func TestStandardDelay_EG8(t *testing.T) {
	t.Parallel()
	want := []time.Duration{10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute,
		30 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 12 * time.Hour}
	for i, w := range want {
		if got := retry.StandardDelay(i + 1); got != w {
			t.Errorf("after attempt %d: %v, want %v", i+1, got, w)
		}
	}
}

// EG-9: jitter only ever delays, by at most a tenth of the step, and a
// seed makes it reproducible; off, the schedule is exact.
func TestJitter_EG9(t *testing.T) {
	t.Parallel()
	batch := func(attempts int) *engine.Batch { return &engine.Batch{Attempts: attempts} }
	a := &standardRetry{maxAttempts: 30, jitter: standardJitter(true, 42)}
	b := &standardRetry{maxAttempts: 30, jitter: standardJitter(true, 42)}
	varied := false
	for n := 1; n <= 12; n++ {
		da := a.AfterFailure(batch(n), engine.Outcome{}, time.Time{}).After
		db := b.AfterFailure(batch(n), engine.Outcome{}, time.Time{}).After
		step := retry.StandardDelay(n)
		if da < step || da > step+step/10 {
			t.Errorf("attempt %d: %v outside [%v, %v]", n, da, step, step+step/10)
		}
		if da != db {
			t.Errorf("attempt %d: same seed gave %v and %v", n, da, db)
		}
		varied = varied || da != step
	}
	if !varied {
		t.Error("jitter never changed a step")
	}
	off := &standardRetry{maxAttempts: 30, jitter: standardJitter(false, 42)}
	if d := off.AfterFailure(batch(1), engine.Outcome{}, time.Time{}).After; d != 10*time.Second {
		t.Errorf("jitter off: %v", d)
	}
}
