package engine_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Call makes one attempt, journalled with the retry time the face gives,
// and a fault rule naming events fails only the attempts that carry them,
// naming those it failed.
func TestCallJournalsOneAttemptAndFaultsNameTheirEvents(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	delivered := 0
	route := &engine.Route{ID: "pipe", Labels: map[string]string{"pipe": "p"},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			delivered++
			return engine.Outcome{OK: true}
		})}
	e.Faults().Add(engine.Fault{Labels: map[string]string{"pipe": "p"}, Status: 500, Outcome: "Boom", Events: []string{"b", "z"}, Count: 1})
	retryAt := clock.Now().Add(30 * time.Second)

	o := e.Call(route, &engine.Batch{Items: []*engine.Item{{ID: "a"}, {ID: "c"}}}, &retryAt)
	if !o.OK || o.Name != "Success" || delivered != 1 {
		t.Fatalf("a batch without the rule's events: %+v (delivered %d)", o, delivered)
	}
	b := &engine.Batch{Items: []*engine.Item{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Attempts: 2}
	o = e.Call(route, b, &retryAt)
	if o.OK || o.Name != "Boom" || !slices.Equal(o.FailedItems, []string{"b"}) || delivered != 1 || b.Attempts != 3 {
		t.Fatalf("a batch with one of them: %+v (delivered %d, attempts %d)", o, delivered, b.Attempts)
	}
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	if len(attempts) != 2 || attempts[0].NextAttemptAt != nil || attempts[1].NextAttemptAt == nil ||
		!attempts[1].NextAttemptAt.Equal(retryAt) || attempts[1].Attempt != 3 || !slices.Equal(attempts[1].EventIDs, []string{"a", "b", "c"}) {
		t.Fatalf("journalled %+v", attempts)
	}
	if len(e.Metrics()) != 0 {
		t.Fatalf("a call counted in the routes' metrics: %+v", e.Metrics())
	}
}
