package engine_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// oneEvery lets one attempt start per interval of the clock.
func oneEvery(interval time.Duration) func(time.Time) time.Duration {
	var mu sync.Mutex
	var next time.Time
	return func(now time.Time) time.Duration {
		mu.Lock()
		defer mu.Unlock()
		if now.Before(next) {
			return next.Sub(now)
		}
		next = now.Add(interval)
		return 0
	}
}

func TestPaceSpacesFirstAttemptsAndRetries(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var mu sync.Mutex
	failed := map[string]bool{}
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Second, 2}, Pace: oneEvery(10 * time.Second),
		Destination: engine.DestinationFunc(func(_ context.Context, a *engine.Attempt) engine.Outcome {
			mu.Lock()
			defer mu.Unlock()
			id := a.Batch.Items[0].ID
			if id == "e1" && !failed[id] { // e1 fails once; its retry waits its turn too
				failed[id] = true
				return engine.Outcome{Name: "Busy"}
			}
			return engine.Outcome{OK: true}
		})})
	for _, id := range []string{"e1", "e2", "e3"} {
		if err := e.Enqueue("r", &engine.Item{ID: id, Body: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	clock.Settle()
	for range 4 {
		clock.Advance(10 * time.Second)
	}
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	want := []struct {
		id string
		at time.Duration
	}{{"e1", 0}, {"e2", 10 * time.Second}, {"e3", 20 * time.Second}, {"e1", 30 * time.Second}}
	if len(attempts) != len(want) {
		t.Fatalf("%d attempts, want %d: %+v", len(attempts), len(want), attempts)
	}
	for i, w := range want {
		if attempts[i].EventIDs[0] != w.id || !attempts[i].Time.Equal(t0.Add(w.at)) {
			t.Errorf("attempt %d: %s at %s, want %s at +%s", i+1, attempts[i].EventIDs[0], attempts[i].Time, w.id, w.at)
		}
	}
}
