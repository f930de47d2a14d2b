package retry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// t0 is when every test's virtual clock starts.
var t0 = routetest.Start()

const (
	routeID = "sub1"
	topicID = routetest.TopicID
)

// setup describes one subscription under test. Zero values give a webhook
// subscription with a dead-letter container and the engine's defaults.
type setup struct {
	cfg             retry.Config
	dest            engine.Destination
	noDeadLetter    bool // give-ups are dropped (journal: KindDrop with the reason)
	concurrency     int
	responseTimeout time.Duration
	settle          time.Duration // virtual clock's wait for blocked work; 0: 10 s
}

// harness is one engine on a virtual clock with one Event Grid route whose
// retry policy is the one under test.
type harness struct {
	t      *testing.T
	env    *facetest.Env
	clock  *engine.VirtualClock
	eng    *engine.Engine
	sink   *engine.MemorySink
	policy *retry.Policy
}

func newHarness(t *testing.T, s setup) *harness {
	t.Helper()
	env := routetest.NewEnv(t, s.settle)
	h := &harness{t: t, env: env, clock: env.Clock, eng: env.Engine, sink: engine.NewMemorySink(), policy: retry.NewPolicy(s.cfg)}
	route := &engine.Route{
		ID:              routeID,
		Labels:          map[string]string{"subscription": routeID},
		Destination:     h.policy.Observe(s.dest),
		Retry:           h.policy,
		Concurrency:     s.concurrency,
		ResponseTimeout: s.responseTimeout,
	}
	if !s.noDeadLetter {
		b := routetest.Builder(routeID, deadletter.Destination{Account: "devstoreaccount1", Container: "deadletters"})
		route.DeadLetter = b.Policy(h.sink)
	}
	h.eng.PutRoute(route)
	return h
}

// publish queues Event Grid-schema events with these ids, now, and waits
// for their first attempts to finish (or to be held).
func (h *harness) publish(ids ...string) {
	h.t.Helper()
	now := h.clock.Now()
	items := make([]*engine.Item, len(ids))
	for i, id := range ids {
		items[i] = newItem(id, now)
	}
	routetest.Enqueue(h.t, h.env, routeID, items...)
}

func newItem(id string, now time.Time) *engine.Item {
	raw := fmt.Sprintf(`{"id":%q,"eventType":"Contoso.Order","subject":"orders/1","eventTime":"2026-03-10T08:00:00Z","data":{"n":1},"dataVersion":"1.0"}`, id)
	ev := &egevent.Event{
		ID: id, Type: "Contoso.Order", Subject: "orders/1", Time: now, DataVersion: "1.0",
		Schema: egevent.EventGridSchema, Raw: json.RawMessage(raw), Topic: topicID, TopicName: "orders",
		PublishedAt: now,
	}
	return &engine.Item{ID: id, Body: []byte(raw), PublishedAt: now, Meta: ev}
}

// advanceTo moves the clock to t0+offset, firing everything due on the way.
func (h *harness) advanceTo(offset time.Duration) { h.env.AdvanceTo(offset) }

// entries returns the journal entries of kind for event id ("" for all).
func (h *harness) entries(kind, id string) []engine.Entry {
	return h.eng.Journal().Query(engine.Filter{Kind: kind, EventID: id})
}

// attempts returns when event id was attempted, as offsets from t0.
func (h *harness) attempts(id string) []time.Duration {
	var out []time.Duration
	for _, e := range h.entries(engine.KindAttempt, id) {
		out = append(out, e.Time.Sub(t0))
	}
	return out
}

// one returns the only journal entry of kind for id, failing otherwise.
func (h *harness) one(kind, id string) engine.Entry {
	h.t.Helper()
	got := h.entries(kind, id)
	if len(got) != 1 {
		h.t.Fatalf("want exactly one %s entry for %s, got %d: %+v", kind, id, len(got), got)
	}
	return got[0]
}

// none fails if event id has a journal entry of kind.
func (h *harness) none(kind, id string) {
	h.t.Helper()
	if got := h.entries(kind, id); len(got) != 0 {
		h.t.Fatalf("want no %s entry for %s yet, got %+v", kind, id, got)
	}
}

// record decodes the only record of a dead letter's body.
func (h *harness) record(e engine.Entry) map[string]any {
	h.t.Helper()
	var recs []map[string]any
	if err := json.Unmarshal(e.Body, &recs); err != nil {
		h.t.Fatalf("dead letter body is not a JSON array: %v\n%s", err, e.Body)
	}
	if len(recs) != 1 {
		h.t.Fatalf("want one record, got %d: %s", len(recs), e.Body)
	}
	return recs[0]
}

func (h *harness) state() engine.RouteMetrics {
	h.t.Helper()
	m, ok := h.eng.RouteMetrics(routeID)
	if !ok {
		h.t.Fatal("route is gone")
	}
	return m
}

// wantActive fails unless the route is Active (not on probation); when
// says at which point of the test.
func (h *harness) wantActive(when string) {
	h.t.Helper()
	if s := h.state(); s.State != "Active" {
		h.t.Fatalf("%s, the route is %q, want Active", when, s.State)
	}
}

// wantAttempts compares attempt times with offsets written like "1m40s".
func wantAttempts(t *testing.T, h *harness, id string, want ...string) {
	t.Helper()
	if got, w := h.attempts(id), offsets(want...); !slices.Equal(got, w) {
		t.Fatalf("attempts of %s at %v, want %v", id, got, w)
	}
}

func offsets(s ...string) []time.Duration {
	out := make([]time.Duration, len(s))
	for i, v := range s {
		out[i] = at(v)
	}
	return out
}

// at parses an offset from t0 ("0", "10s", "46m40s", "34h46m40s").
func at(s string) time.Duration {
	if s == "0" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return d
}

// failingWith reports a failure by name only, as a non-HTTP destination
// (a captured Service Bus queue, an Azure Function) does.
func failingWith(name string) engine.Destination {
	return engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
		return engine.Outcome{Name: name}
	})
}

// switchable answers with whatever status it is set to, for tests where the
// endpoint recovers or breaks mid-way.
type switchable struct{ status atomic.Int64 }

func newSwitchable(status int) *switchable {
	s := &switchable{}
	s.status.Store(int64(status))
	return s
}

func (s *switchable) set(status int) { s.status.Store(int64(status)) }

func (s *switchable) Deliver(context.Context, *engine.Attempt) engine.Outcome {
	return routetest.Answer(int(s.status.Load()))
}
