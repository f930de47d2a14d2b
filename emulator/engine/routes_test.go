package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestRemoveRouteDropsWhatItHeld(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t)
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Hour, 5},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{Status: 503}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	e.RemoveRoute("r", "")
	drops := waitKind(t, e, engine.KindDrop, 1)
	if drops[0].Outcome != engine.ReasonRouteDeleted || drops[0].EventIDs[0] != "e1" {
		t.Fatalf("drop = %+v", drops[0])
	}
}
