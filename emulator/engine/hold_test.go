package engine_test

import (
	"context"
	"slices"
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

// balanced checks on route r the invariant RouteMetrics states: every
// event queued is in exactly one place.
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

// When a hold ends, the whole backlog goes at the route's
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

// An event whose TTL runs out behind a hold — queued and
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

// holdOnFailure puts the route on probation for a minute after a failure.
type holdOnFailure struct{}

func (holdOnFailure) AfterFailure(*engine.Batch, engine.Outcome, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Retry, After: 10 * time.Second, Hold: time.Minute, HoldState: "Probation"}
}

func (holdOnFailure) BeforeRetry(*engine.Batch, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Proceed}
}

func TestHeldRouteJournalsWhatItDefers(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Retry: holdOnFailure{},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			if calls.Add(1) == 1 {
				return engine.Outcome{Name: "NotFound", Status: 404}
			}
			return engine.Outcome{OK: true}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	_ = e.Enqueue("r", &engine.Item{ID: "e2"}) // arrives during probation
	clock.Advance(10 * time.Second)
	// One hold, one entry: e2 queued and e1's retry due at 10 s wait for it.
	deferred := e.Journal().Query(engine.Filter{Kind: engine.KindDeferred})
	if len(deferred) != 1 || deferred[0].Outcome != "Probation" || !deferred[0].NextAttemptAt.Equal(t0.Add(time.Minute)) ||
		deferred[0].Count != 2 || !slices.Equal(deferred[0].EventIDs, []string{"e1", "e2"}) {
		t.Fatalf("deferred = %+v", deferred)
	}
	if m, _ := e.RouteMetrics("r"); m.State != "Probation" {
		t.Fatalf("state = %q, want Probation", m.State)
	}
	clock.Advance(time.Minute)
	if n := len(e.Journal().Query(engine.Filter{Kind: engine.KindDelivered})); n != 2 {
		t.Fatalf("delivered %d after the hold, want 2", n)
	}
}
