// Package routetest holds the fixtures the retry and dead-letter tests
// share for one Event Grid subscription's route: when the virtual clock
// starts, the topic the events come from, a dead-letter builder with
// predictable blob names, and destinations that answer with an HTTP status
// (judged and named by the retry package, as a webhook's answer is). Only
// tests import it.
package routetest

import (
	"cmp"
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// TopicID is the ARM id of the topic the tests' events are published to.
const TopicID = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.EventGrid/topics/orders"

// Start is when every test's virtual clock starts.
func Start() time.Time { return time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC) }

// Builder is a cloud-like dead-letter builder for routeID whose blob names
// are predictable: blob-1, blob-2, ...
func Builder(routeID string, dest deadletter.Destination) deadletter.Builder {
	b := deadletter.NewBuilder(routeID, dest)
	var n atomic.Int64
	b.NewID = func() string { return "blob-" + strconv.FormatInt(n.Add(1), 10) }
	return b
}

// Answer is how an HTTP destination reports status.
func Answer(status int) engine.Outcome {
	return engine.Outcome{OK: retry.IsSuccess(status), Status: status, Name: retry.OutcomeName(status, nil)}
}

// Status answers every attempt with status.
func Status(status int) engine.Destination {
	return engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome { return Answer(status) })
}

// NewEnv is one engine on a virtual clock started at Start(); settle is how
// long the clock waits, in real time, for blocked work (0: 10 s).
func NewEnv(t testing.TB, settle time.Duration) *facetest.Env {
	t.Helper()
	return facetest.New(t, facetest.Options{Start: Start(), Settle: cmp.Or(settle, 10*time.Second)})
}

// Enqueue queues items on routeID and waits for their first attempts to
// finish (or to be held).
func Enqueue(t testing.TB, env *facetest.Env, routeID string, items ...*engine.Item) {
	t.Helper()
	if err := env.Engine.Enqueue(routeID, items...); err != nil {
		t.Fatal(err)
	}
	env.Settle()
}
