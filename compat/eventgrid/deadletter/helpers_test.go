package deadletter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

var t0 = routetest.Start()

const topicID = routetest.TopicID

var dest = deadletter.Destination{Account: "devstoreaccount1", Container: "deadletters"}

// builder is a cloud-like builder with predictable blob names.
func builder() deadletter.Builder { return routetest.Builder("orders-sub", dest) }

// route is one engine on a virtual clock with one Event Grid route.
type route struct {
	t     *testing.T
	env   *facetest.Env
	clock *engine.VirtualClock
	eng   *engine.Engine
}

// newRoute builds a route that fails with dest's outcomes, gives up per cfg
// and dead-letters through b into sink.
func newRoute(t *testing.T, d engine.Destination, cfg retry.Config, b deadletter.Builder, sink engine.Sink, maxBatch int) *route {
	t.Helper()
	env := routetest.NewEnv(t, 0)
	env.Engine.PutRoute(&engine.Route{
		ID: "orders-sub", Destination: d, Retry: retry.NewPolicy(cfg),
		DeadLetter: b.Policy(sink), MaxBatchEvents: maxBatch,
	})
	return &route{t: t, env: env, clock: env.Clock, eng: env.Engine}
}

func (r *route) publish(events ...*egevent.Event) {
	r.t.Helper()
	items := make([]*engine.Item, len(events))
	for i, ev := range events {
		ev.PublishedAt = r.clock.Now()
		items[i] = &engine.Item{ID: ev.ID, Body: ev.Raw, PublishedAt: ev.PublishedAt, Meta: ev}
	}
	routetest.Enqueue(r.t, r.env, "orders-sub", items...)
}

func (r *route) advanceTo(offset time.Duration) { r.env.AdvanceTo(offset) }

func (r *route) entries(kind string) []engine.Entry {
	return r.eng.Journal().Query(engine.Filter{Kind: kind})
}

// egEvent is an Event Grid-schema event as the Go SDK publishes it: no
// topic, no metadataVersion.
func egEvent(id string) *egevent.Event {
	raw := `{"data":{"n":1},"dataVersion":"1.0","eventTime":"2026-03-10T08:00:00Z","eventType":"Contoso.Order","id":"` + id + `","subject":"orders/1"}`
	return &egevent.Event{
		ID: id, Type: "Contoso.Order", Subject: "orders/1", DataVersion: "1.0",
		Schema: egevent.EventGridSchema, Raw: json.RawMessage(raw), Topic: topicID, TopicName: "orders",
	}
}

func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("bad expected JSON: %v\n%s", err, s)
	}
	return b.String()
}

// sinkFunc adapts a function to engine.Sink.
type sinkFunc func(ctx context.Context, dl engine.DeadLetter) error

func (f sinkFunc) Write(ctx context.Context, dl engine.DeadLetter) error { return f(ctx, dl) }
