package engine_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

var t0 = time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)

// fixedPolicy retries every failure after a fixed delay, up to max attempts.
type fixedPolicy struct {
	delay time.Duration
	max   int
}

func (p fixedPolicy) AfterFailure(b *engine.Batch, o engine.Outcome, now time.Time) engine.Decision {
	if b.Attempts >= p.max {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: "MaxDeliveryAttemptsExceeded"}
	}
	return engine.Decision{Action: engine.Retry, After: p.delay}
}

func (p fixedPolicy) BeforeRetry(*engine.Batch, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Proceed}
}

func newEngine(t *testing.T) (*engine.Engine, *engine.VirtualClock) {
	t.Helper()
	clock := engine.NewVirtualClock(t0, 0)
	return engine.New(clock, engine.NewJournal(0)), clock
}

func waitKind(t *testing.T, e *engine.Engine, kind string, n int) []engine.Entry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got, err := e.Journal().Wait(ctx, engine.Filter{Kind: kind}, func(es []engine.Entry) bool { return len(es) >= n })
	if err != nil {
		t.Fatalf("waiting for %d %q entries: got %d: %+v", n, kind, len(got), got)
	}
	return got
}

func giveUpAtOnce() engine.RetryPolicy { return fixedPolicy{time.Second, 1} }

func TestTwoEnginesAreIndependent(t *testing.T) {
	t.Parallel()
	a, ca := newEngine(t)
	b, _ := newEngine(t)
	ca.Advance(time.Hour)
	if !b.Clock().Now().Equal(t0) || !a.Clock().Now().Equal(t0.Add(time.Hour)) {
		t.Fatal("clocks are shared")
	}
}

// Reset leaves nothing scheduled that could hold memory:
// retries, holds and dead-letter writes are all cancelled.
func TestResetCancelsEverythingScheduled(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Destination: failingCounted(&calls),
		Retry: heldTTLPolicy{retry: 10 * time.Second, hold: time.Hour, ttl: time.Minute},
		DeadLetter: &engine.DeadLetterPolicy{Sink: engine.NewMemorySink(), Delay: 5 * time.Minute,
			Build: func(b *engine.Batch, _ string, _ time.Time) ([]engine.DeadLetter, error) {
				return []engine.DeadLetter{{Destination: "x", EventIDs: b.EventIDs()}}, nil
			}}})
	_ = e.Enqueue("r", items("a", 3, t0)...)
	clock.Advance(30 * time.Second)
	_ = e.Enqueue("r", items("b", 3, t0)...)
	clock.Advance(time.Hour + time.Minute) // the hold ends: dead letters are due 5 minutes later
	m := balanced(t, e, "before reset")
	if m.AwaitingDeadLetter == 0 || clock.Pending() == 0 {
		t.Fatalf("want dead letters waiting before the reset: %+v, %d timers", m, clock.Pending())
	}
	e.Reset()
	if n := clock.Pending(); n != 0 {
		t.Fatalf("%d timers still scheduled after reset", n)
	}
	if st := e.Journal().Stats(); st.Held != 0 || st.Appended != 0 || len(e.Metrics()) != 0 {
		t.Fatalf("after reset: journal %+v, %d routes", st, len(e.Metrics()))
	}
}
