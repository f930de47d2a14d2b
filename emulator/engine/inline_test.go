package engine_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// An inline route's first attempts are made one after another, in the
// order the events were queued, as clock work: the clock settles only once
// they are made, an event queued during one is dispatched too, and a
// failure is retried as on any route.
func TestInlineRouteAttemptsInOrderAsClockWork(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var mu sync.Mutex
	var order []string
	busy, overlapped := 0, false
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Second, 3}, MaxBatchEvents: 1, Concurrency: 64, Inline: true,
		Destination: engine.DestinationFunc(func(_ context.Context, a *engine.Attempt) engine.Outcome {
			id := a.Batch.Items[0].ID
			mu.Lock()
			busy++
			overlapped = overlapped || busy > 1
			order = append(order, fmt.Sprint(id, "#", a.Number))
			mu.Unlock()
			if id == "e5" {
				// Queued while the route dispatches: the same dispatch takes it.
				if err := e.Enqueue("r", &engine.Item{ID: "late", Body: []byte(`{}`)}); err != nil {
					t.Error(err)
				}
			}
			mu.Lock()
			busy--
			mu.Unlock()
			return engine.Outcome{OK: id != "e2" || a.Number > 1}
		})})
	items := make([]*engine.Item, 20)
	for i := range items {
		items[i] = &engine.Item{ID: fmt.Sprint("e", i), Body: []byte(`{}`)}
	}
	if err := e.Enqueue("r", items...); err != nil {
		t.Fatal(err)
	}
	clock.Settle()
	if got := len(e.Journal().Query(engine.Filter{Kind: engine.KindDelivered})); got != 20 {
		t.Fatalf("%d events delivered once the clock settled, want 20 (19 queued and the late one)", got)
	}
	mu.Lock()
	first := append([]string(nil), order...)
	mu.Unlock()
	want := []string{}
	for i := range 20 {
		want = append(want, fmt.Sprint("e", i, "#1"))
	}
	want = append(want, "late#1")
	if fmt.Sprint(first) != fmt.Sprint(want) || overlapped {
		t.Fatalf("attempts %v (overlapping: %v), want one at a time in queue order %v", first, overlapped, want)
	}
	clock.Advance(time.Second)
	if got := len(e.Journal().Query(engine.Filter{Kind: engine.KindDelivered})); got != 21 {
		t.Fatalf("%d events delivered after the retry, want 21", got)
	}
	m, _ := e.RouteMetrics("r")
	if m.Delivered != 21 || m.Attempts != 22 || m.Retries != 1 {
		t.Fatalf("metrics %+v, want 21 delivered in 22 attempts, 1 retry", m)
	}
}
