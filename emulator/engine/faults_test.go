package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestFaultRuleFailsAttemptsThenExpires(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	e.Faults().Add(engine.Fault{Labels: map[string]string{"target": "lambda"}, Status: 500, Count: 2})
	e.PutRoute(&engine.Route{ID: "r", Labels: map[string]string{"target": "lambda"}, Retry: fixedPolicy{time.Second, 5},
		NameFault: func(status int) string { return "INVOCATION_DEPENDENCY_INTERNAL" },
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{OK: true}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	clock.Advance(5 * time.Second)
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	if len(attempts) != 3 || attempts[0].Outcome != "INVOCATION_DEPENDENCY_INTERNAL" || attempts[2].Outcome != "Success" {
		t.Fatalf("attempts = %+v", attempts)
	}
	if len(e.Faults().List()) != 0 {
		t.Fatalf("fault rule should have expired")
	}
}
