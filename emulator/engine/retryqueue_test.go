package engine_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Retries due at the same instant fire in the order they were scheduled,
// across routes, although each route serves its retries from one queue and
// one timer: a route's second retry does not jump ahead of another route's
// retry scheduled before it (EG-8, EG-14: each retry is judged and sent when
// it comes due). Retries at different times fire in time order.
//
// The order is the clock's, whatever Clock the engine is given: one made
// outside the engine's package can only embed a Clock, and with it comes
// what the engine needs to keep the order (an engine that asked whether its
// clock was a *VirtualClock lost it on such a wrapper).
func TestRetriesDueTogetherFireInScheduleOrder(t *testing.T) {
	t.Parallel()
	for name, wrap := range map[string]func(*engine.VirtualClock) engine.Clock{
		"virtual clock":         func(c *engine.VirtualClock) engine.Clock { return c },
		"wrapped virtual clock": func(c *engine.VirtualClock) engine.Clock { return wrappedClock{c} },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			clock := engine.NewVirtualClock(t0, 0)
			retriesFireInScheduleOrder(t, engine.New(wrap(clock), engine.NewJournal(0)), clock)
		})
	}
}

// wrappedClock is a Clock made outside the engine's package.
type wrappedClock struct{ engine.Clock }

func retriesFireInScheduleOrder(t *testing.T, e *engine.Engine, clock *engine.VirtualClock) {
	fail := engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
		return engine.Outcome{Name: "Busy", Status: 503}
	})
	for _, id := range []string{"a", "b"} {
		e.PutRoute(&engine.Route{ID: id, Destination: fail, Retry: fixedPolicy{time.Minute, 3}, Concurrency: 1})
	}
	// Each first attempt fails, and schedules its retry, before the next
	// event is queued: the retries' order is a1, b1, a2, then a3 due later.
	for _, q := range []struct{ route, id string }{{"a", "a1"}, {"b", "b1"}, {"a", "a2"}} {
		if err := e.Enqueue(q.route, &engine.Item{ID: q.id, Body: []byte(`{}`), PublishedAt: t0}); err != nil {
			t.Fatal(err)
		}
		clock.Settle()
	}
	clock.Advance(30 * time.Second)
	if err := e.Enqueue("a", &engine.Item{ID: "a3", Body: []byte(`{}`), PublishedAt: clock.Now()}); err != nil {
		t.Fatal(err)
	}
	clock.Settle()
	clock.Advance(time.Minute)
	var order []string
	for _, en := range e.Journal().Query(engine.Filter{Kind: engine.KindAttempt}) {
		if en.Attempt == 2 {
			order = append(order, en.EventIDs[0])
		}
	}
	want := []string{"a1", "b1", "a2", "a3"}
	if len(order) != len(want) {
		t.Fatalf("second attempts in order %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("second attempts in order %v, want %v", order, want)
		}
	}
	// The third attempts keep the order, and a removed route drops what
	// still waits for a retry.
	clock.Advance(time.Minute)
	m, _ := e.RouteMetrics("a")
	if m.Retrying != 0 || m.Attempts != 9 {
		t.Fatalf("route a after three attempts each: %+v", m)
	}
	e.RemoveRoute("b", "")
	if m, ok := e.RouteMetrics("b"); ok {
		t.Fatalf("route b still reported after removal: %+v", m)
	}
}

// A route's retries wait for their time, however many wait: advancing the
// clock to just before the soonest fires none; each fires once, at its time.
func TestRetryQueueFiresEachRetryAtItsTime(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var attempts []time.Time
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{10 * time.Second, 2}, Concurrency: 1,
		Destination: engine.DestinationFunc(func(_ context.Context, a *engine.Attempt) engine.Outcome {
			if a.Number == 2 {
				attempts = append(attempts, a.At)
			}
			return engine.Outcome{Name: "Busy", Status: 503}
		})})
	for i := range 3 {
		if err := e.Enqueue("r", &engine.Item{ID: string(rune('a' + i)), Body: []byte(`{}`), PublishedAt: clock.Now()}); err != nil {
			t.Fatal(err)
		}
		clock.Settle()
		clock.Advance(time.Second)
	}
	// Retries due at t0+10s, +11s, +12s; the clock stands at t0+3s.
	clock.Advance(6 * time.Second)
	if len(attempts) != 0 {
		t.Fatalf("retries fired early: %v", attempts)
	}
	clock.Advance(10 * time.Second)
	want := []time.Time{t0.Add(10 * time.Second), t0.Add(11 * time.Second), t0.Add(12 * time.Second)}
	if len(attempts) != len(want) {
		t.Fatalf("retries at %v, want %v", attempts, want)
	}
	for i := range want {
		if !attempts[i].Equal(want[i]) {
			t.Fatalf("retries at %v, want %v", attempts, want)
		}
	}
}

// On scaled time, where timers due together have no order to keep, a
// route's retries still wait their delay on the clock and every event is
// accounted for: the retry queue serves any clock the same way.
func TestRetriesOnAScaledClock(t *testing.T) {
	t.Parallel()
	clock, err := engine.NewScaledClock(60_000) // a minute in a millisecond
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(clock, engine.NewJournal(0))
	var mu sync.Mutex
	failed := map[string]bool{}
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Minute, 2}, Concurrency: 1,
		Destination: engine.DestinationFunc(func(_ context.Context, a *engine.Attempt) engine.Outcome {
			mu.Lock()
			defer mu.Unlock()
			if id := a.Batch.Items[0].ID; !failed[id] {
				failed[id] = true
				return engine.Outcome{Name: "Busy", Status: 503}
			}
			return engine.Outcome{OK: true}
		})})
	const n = 5
	for i := range n {
		if err := e.Enqueue("r", &engine.Item{ID: string(rune('a' + i)), Body: []byte(`{}`), PublishedAt: clock.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	waitKind(t, e, engine.KindDelivered, n)
	first := map[string]time.Time{}
	for _, a := range e.Journal().Query(engine.Filter{Kind: engine.KindAttempt}) {
		switch a.Attempt {
		case 1:
			first[a.EventIDs[0]] = a.Time
		case 2:
			if at, ok := first[a.EventIDs[0]]; !ok || a.Time.Sub(at) < time.Minute {
				t.Errorf("retry of %s at %v, first attempt at %v: want a minute later", a.EventIDs[0], a.Time, at)
			}
		}
	}
	// Counted before each attempt is journalled (a delivery's own counters
	// follow its entry, and nothing on real time waits for them).
	if m, _ := e.RouteMetrics("r"); m.Attempts != 2*n || m.Retries != n || m.Retrying != 0 {
		t.Fatalf("metrics %+v: want %d events retried once each", m, n)
	}
}

func TestRetriesLandAtScheduledCloudTimes(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{10 * time.Second, 5},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			if calls.Add(1) < 3 {
				return engine.Outcome{Name: "Busy", Status: 503}
			}
			return engine.Outcome{OK: true}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	clock.Advance(time.Minute)
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	want := []time.Duration{0, 10 * time.Second, 20 * time.Second}
	if len(attempts) != len(want) {
		t.Fatalf("got %d attempts, want %d: %+v", len(attempts), len(want), attempts)
	}
	for i, a := range attempts {
		if got := a.Time.Sub(t0); got != want[i] {
			t.Errorf("attempt %d at +%v, want +%v", i+1, got, want[i])
		}
		if a.Attempt != i+1 {
			t.Errorf("attempt number %d, want %d", a.Attempt, i+1)
		}
	}
	if n := len(e.Journal().Query(engine.Filter{Kind: engine.KindDelivered})); n != 1 {
		t.Fatalf("delivered %d times, want 1", n)
	}
}
