package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Retries due at the same instant fire in the order they were scheduled,
// across routes, although each route serves its retries from one queue and
// one timer: a route's second retry does not jump ahead of another route's
// retry scheduled before it (EG-8, EG-14: each retry is judged and sent when
// it comes due). Retries at different times fire in time order.
func TestRetriesDueTogetherFireInScheduleOrder(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
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
