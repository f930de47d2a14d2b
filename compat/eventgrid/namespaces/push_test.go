package namespaces_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/deadletter"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// webhook is a local endpoint answering with scripted statuses, then 200.
type webhook struct {
	srv      *httptest.Server
	mu       sync.Mutex
	statuses []int
	requests []capturedRequest
}

type capturedRequest struct {
	header http.Header
	body   string
}

func newWebhook(t *testing.T, statuses ...int) *webhook {
	w := &webhook{statuses: statuses}
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions { // the validation handshake: agree
			rw.Header().Set("WebHook-Allowed-Origin", r.Header.Get("WebHook-Request-Origin"))
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.mu.Lock()
		w.requests = append(w.requests, capturedRequest{header: r.Header.Clone(), body: string(body)})
		status := http.StatusOK
		if len(w.statuses) > 0 {
			status, w.statuses = w.statuses[0], w.statuses[1:]
		}
		w.mu.Unlock()
		rw.WriteHeader(status)
	}))
	t.Cleanup(w.srv.Close)
	return w
}

func (w *webhook) captured() []capturedRequest {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]capturedRequest(nil), w.requests...)
}

func staticHeader(name, value string, secret bool) *armeventgrid.StaticDeliveryAttributeMapping {
	return &armeventgrid.StaticDeliveryAttributeMapping{Name: to.Ptr(name), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
		Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr(value), IsSecret: to.Ptr(secret)}}
}

// pushSetup creates a namespace, a topic and the push subscription props
// describes.
func (h *harness) pushSetup(t *testing.T, props armeventgrid.SubscriptionProperties) pullSetup {
	t.Helper()
	return h.subscribed(t, "webhook", props)
}

func attemptTimes(h *harness, eventID string) []time.Duration {
	var out []time.Duration
	for _, e := range h.journal.Query(engine.Filter{Kind: engine.KindAttempt, EventID: eventID}) {
		out = append(out, e.Time.Sub(start))
	}
	return out
}

func TestPushDeliversCloudEventsWithRetries(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	hook := newWebhook(t, http.StatusServiceUnavailable, http.StatusInternalServerError)
	p := h.pushSetup(t, pushProps(hook.srv.URL+"/api/events", 10, "PT1H",
		[]armeventgrid.DeliveryAttributeMappingClassification{staticHeader("Custom-Header-1", "value1", false)}, nil))
	ev := newEvent(t, "order.created", map[string]int{"n": 1})
	if _, err := p.sender.SendEvent(context.Background(), &ev, nil); err != nil {
		t.Fatal(err)
	}
	h.clock.Settle()
	h.clock.Advance(10 * time.Second)
	h.clock.Advance(20 * time.Second)
	delivered := h.waitJournal(t, engine.Filter{Kind: engine.KindDelivered, EventID: ev.ID}, 1)
	if got := attemptTimes(h, ev.ID); len(got) != 3 || got[0] != 0 || got[1] != 10*time.Second || got[2] != 30*time.Second {
		t.Fatalf("attempts at %v, want 0, 10s, 30s", got)
	}
	if delivered[0].Labels["subscription"] != "webhook" || delivered[0].Attempt != 3 {
		t.Fatalf("delivered %+v", delivered[0])
	}
	reqs := hook.captured()
	last := reqs[len(reqs)-1]
	if last.header.Get("Content-Type") != "application/cloudevents+json; charset=utf-8" || last.header.Get("Custom-Header-1") != "value1" {
		t.Fatalf("headers %v", last.header)
	}
	var sent map[string]any
	if err := jsonUnmarshal(last.body, &sent); err != nil || sent["id"] != ev.ID || sent["type"] != "order.created" || sent["specversion"] != "1.0" {
		t.Fatalf("body %s", last.body)
	}
}

func TestPushClientErrorDeadLettersAtOnceWithDeliveryProperties(t *testing.T) {
	t.Parallel() // NS-2 poison event, NS-4 customDeliveryProperties
	h := newHarness(t)
	sink := h.sink
	hook := newWebhook(t, http.StatusUnauthorized)
	p := h.pushSetup(t, pushProps(hook.srv.URL, 10, "PT1H",
		[]armeventgrid.DeliveryAttributeMappingClassification{
			staticHeader("Custom-Header-1", "value1", false),
			staticHeader("X-Api-Key", "hidden", true),
			&armeventgrid.DynamicDeliveryAttributeMapping{Name: to.Ptr("X-Order"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeDynamic),
				Properties: &armeventgrid.DynamicDeliveryAttributeMappingProperties{SourceField: to.Ptr("data.order")}},
		}, blobDeadLetter("acct", "dead")))
	ev := newEvent(t, "t", map[string]int{"order": 42})
	if _, err := p.sender.SendEvent(context.Background(), &ev, nil); err != nil {
		t.Fatal(err)
	}
	h.clock.Settle()
	entry := h.waitJournal(t, engine.Filter{Kind: engine.KindDeadLetter, EventID: ev.ID}, 1)[0]
	if !entry.Time.Equal(start) || len(hook.captured()) != 1 || hook.captured()[0].header.Get("X-Api-Key") != "hidden" {
		t.Fatalf("dead-lettered at %v after %d attempts", entry.Time, len(hook.captured()))
	}
	blobs, err := namespaces.DeadLettersFromMemory(sink.List(), "acct", "dead", p.ns.name, p.topic, p.sub)
	if err != nil || len(blobs) != 1 {
		t.Fatalf("blobs: %v %d", err, len(blobs))
	}
	rec := blobs[0].Records[0]
	if rec.Reason != deadletter.ReasonClientError || rec.DeliveryResult != "Unauthorized" || rec.DeliveryAttempts != 1 {
		t.Fatalf("record %+v", rec)
	}
	if len(rec.CustomDeliveryProperties) != 2 || rec.CustomDeliveryProperties["Custom-Header-1"] != "value1" || rec.CustomDeliveryProperties["X-Order"] != "42" {
		t.Fatalf("custom delivery properties %v (secret ones must be left out)", rec.CustomDeliveryProperties)
	}
}

func TestPushRetriesExhaustedDeadLetter(t *testing.T) {
	t.Parallel() // NS-2: maximum delivery count reached (push)
	h := newHarness(t)
	sink := h.sink
	hook := newWebhook(t, 500, 500, 500, 500)
	p := h.pushSetup(t, pushProps(hook.srv.URL, 3, "PT1H", nil, blobDeadLetter("acct", "dead")))
	ev := newEvent(t, "t", "x")
	if _, err := p.sender.SendEvent(context.Background(), &ev, nil); err != nil {
		t.Fatal(err)
	}
	h.clock.Settle()
	h.clock.Advance(time.Minute)
	entry := h.waitJournal(t, engine.Filter{Kind: engine.KindDeadLetter, EventID: ev.ID}, 1)[0]
	if entry.Time.Sub(start) != 30*time.Second || entry.Outcome != deadletter.ReasonMaxDeliveryAttempts {
		t.Fatalf("dead letter %+v", entry)
	}
	blobs, _ := namespaces.DeadLettersFromMemory(sink.List(), "acct", "dead", p.ns.name, p.topic, p.sub)
	if rec := blobs[0].Records[0]; rec.DeliveryAttempts != 3 || rec.DeliveryResult != "Busy" || !rec.LastDeliveryAttemptAt.Equal(start.Add(30*time.Second)) {
		t.Fatalf("record %+v", rec)
	}
	// The face's own dead-letter writer reports back to the engine, so the
	// route's books balance.
	m, ok := h.engine.RouteMetrics(entry.Route)
	if !ok || m.Queued != 1 || m.DeadLettered != 1 || m.AwaitingDeadLetter != 0 || m.Dropped != 0 || m.Retrying+m.Pending+m.InFlight != 0 {
		t.Fatalf("route metrics %+v", m)
	}
}

func TestPushBatchesWhenMaxEventsPerBatchIsSet(t *testing.T) {
	t.Parallel() // EG-15/16 as the namespace push docs describe them
	h := newHarness(t)
	hook := newWebhook(t)
	props := pushProps(hook.srv.URL, 10, "PT1H", nil, nil)
	props.DeliveryConfiguration.Push.Destination.(*armeventgrid.WebHookEventSubscriptionDestination).Properties.MaxEventsPerBatch = to.Ptr[int32](10)
	p := h.pushSetup(t, props)
	var batch []*messaging.CloudEvent
	for i := 0; i < 3; i++ {
		ev := newEvent(t, "t", i)
		batch = append(batch, &ev)
	}
	if _, err := p.sender.SendEvents(context.Background(), batch, nil); err != nil {
		t.Fatal(err)
	}
	h.clock.Settle()
	h.waitJournal(t, engine.Filter{Kind: engine.KindDelivered, EventID: batch[2].ID}, 1)
	reqs := hook.captured()
	var sent []map[string]any
	if len(reqs) != 1 || reqs[0].header.Get("Content-Type") != "application/cloudevents-batch+json; charset=utf-8" ||
		jsonUnmarshal(reqs[0].body, &sent) != nil || len(sent) != 3 || sent[1]["id"] != batch[1].ID {
		t.Fatalf("requests %+v", reqs)
	}
}

// Namespace webhooks must pass the CloudEvents abuse-protection handshake:
// an endpoint that does not agree keeps the subscription from being created.
func TestPushSubscriptionNeedsTheValidationHandshake(t *testing.T) {
	t.Parallel()
	h, ns := newNamespaceHarness(t)
	h.createTopic(t, ns.name, "orders")
	refuses := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.WriteHeader(http.StatusOK) // answers, but never allows the origin
	}))
	t.Cleanup(refuses.Close)
	_, err := h.trySubscription(ns.name, "orders", "hook", pushProps(refuses.URL, 10, "PT1H", nil, nil))
	requireStatus(t, err, http.StatusBadRequest, "Url validation")

	agrees := newWebhook(t)
	h.createSubscription(t, ns.name, "orders", "hook", pushProps(agrees.srv.URL, 10, "PT1H", nil, nil))
	if n := len(agrees.captured()); n != 0 {
		t.Fatalf("the handshake was recorded as %d deliveries", n)
	}
}
