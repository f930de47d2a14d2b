package engine_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// heldTTLPolicy retries every failure after retry, holds the route for hold
// after it (as probation and delayed delivery do, EG-17, EG-18), and gives
// up an event that has lived ttl when its next attempt is due (EG-14).
type heldTTLPolicy struct{ retry, hold, ttl time.Duration }

func (p heldTTLPolicy) AfterFailure(*engine.Batch, engine.Outcome, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Retry, After: p.retry, Hold: p.hold, HoldState: "DelayedDelivery"}
}

func (p heldTTLPolicy) BeforeRetry(b *engine.Batch, now time.Time) engine.Decision {
	if !now.Before(b.OldestPublish().Add(p.ttl)) {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: "TimeToLiveExceeded"}
	}
	return engine.Decision{Action: engine.Proceed}
}

func failingCounted(n *atomic.Int32) engine.Destination {
	return engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
		n.Add(1)
		return engine.Outcome{Name: "Busy", Status: 503}
	})
}

// balanced checks issue 10's invariant on route r.
func balanced(t *testing.T, e *engine.Engine, when string) engine.RouteMetrics {
	t.Helper()
	m, _ := e.RouteMetrics("r")
	sum := m.Delivered + m.DeadLettered + m.Dropped + uint64(m.Pending+m.Retrying+m.InFlight+m.AwaitingDeadLetter)
	if sum != m.Queued {
		t.Fatalf("%s: queued %d ≠ %d accounted: %+v", when, m.Queued, sum, m)
	}
	return m
}

func items(prefix string, n int, at time.Time) []*engine.Item {
	out := make([]*engine.Item, n)
	for i := range out {
		out[i] = &engine.Item{ID: prefix + string(rune('a'+i%26)) + string(rune('a'+i/26)), Body: []byte(`{}`), PublishedAt: at}
	}
	return out
}

// Issue 10 item 2: when a hold ends, the whole backlog goes at the route's
// pace, even though its own failures start a new hold — not only the
// attempts the concurrency allows at the instant the hold ends.
func TestBacklogDrainsWhenTheHoldEnds(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Concurrency: 2, Destination: failingCounted(&calls),
		Retry: heldTTLPolicy{retry: time.Hour, hold: time.Minute, ttl: 24 * time.Hour}})
	_ = e.Enqueue("r", items("a", 1, t0)...)
	waitKind(t, e, engine.KindAttempt, 1) // fails: the route is held for a minute
	_ = e.Enqueue("r", items("b", 300, t0)...)
	clock.Settle()
	if m := balanced(t, e, "during the hold"); m.Pending != 300 || calls.Load() != 1 {
		t.Fatalf("during the hold: %d pending, %d attempts; want 300 and 1", m.Pending, calls.Load())
	}
	if n := len(e.Journal().Query(engine.Filter{Kind: engine.KindDeferred})); n != 1 {
		t.Fatalf("%d deferred entries, want one for the hold", n)
	}
	clock.Advance(time.Minute)
	if m := balanced(t, e, "after the hold"); calls.Load() != 301 || m.Retrying != 301 || m.Pending != 0 {
		t.Fatalf("after the hold: %d attempts, %+v; want all 301 events tried once", calls.Load(), m)
	}
}

// Issue 10 item 1: an event whose TTL runs out behind a hold — queued and
// never attempted, or with a retry due during the hold — is given up without
// another attempt, at the latest when the hold ends (EG-14).
func TestHoldsDoNotOutliveTheTTL(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Destination: failingCounted(&calls),
		Retry: heldTTLPolicy{retry: 10 * time.Second, hold: 2 * time.Hour, ttl: 30 * time.Minute}})
	_ = e.Enqueue("r", items("first", 1, t0)...)
	waitKind(t, e, engine.KindAttempt, 1)
	clock.Advance(time.Minute)
	_ = e.Enqueue("r", items("queued", 5, t0.Add(time.Minute))...)
	for range 12 {
		clock.Advance(10 * time.Minute)
		balanced(t, e, clock.Now().Sub(t0).String())
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d attempts: only the first should be made, the hold outlasts every TTL", n)
	}
	drops := e.Journal().Query(engine.Filter{Kind: engine.KindDrop})
	dropped := 0
	for _, d := range drops {
		if d.Outcome != "TimeToLiveExceeded" || d.Time.After(t0.Add(2*time.Hour)) {
			t.Fatalf("drop %+v: want TimeToLiveExceeded by the end of the hold", d)
		}
		dropped += len(d.EventIDs)
	}
	if m := balanced(t, e, "end"); dropped != 6 || m.Dropped != 6 {
		t.Fatalf("%d events dropped, metrics %+v; want all 6", dropped, m)
	}
}

// Issue 10 item 6: reset leaves nothing scheduled that could hold memory:
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
