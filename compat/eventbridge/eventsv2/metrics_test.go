package eventsv2

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestEB_D4_MetricsPerSubscriber checks the counters of two subscribers
// side by side: one recovers after retries, one drops without a queue.
func TestEB_D4_MetricsPerSubscriber(t *testing.T) {
	h := startTest(t)
	var failures atomic.Int32
	failures.Store(2)
	flaky := newHTTPTarget(t, h.clock, func(targetRequest) (int, string) {
		if failures.Add(-1) >= 0 {
			return 503, ""
		}
		return 200, ""
	})
	down := newHTTPTarget(t, h.clock, always(500, ""))
	bus := h.createBus("orders")
	recovers := h.createSubscriber(m{"Name": "recovers", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": flaky.url}})
	drops := h.createSubscriber(m{"Name": "drops", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": down.url},
		"RetryPolicy": m{"MaxRetryAttempts": 1}})
	h.put(bus, m{}, m{})
	h.settle()
	h.advance(time.Minute)

	r := h.metrics(recovers.SubscriberArn)
	if r.LiveEvents != 2 || r.Deliveries != 2 || r.Attempts != 4 || r.Retries != 2 || r.EventsDropped != 0 || r.Pending != 0 || r.Retrying != 0 {
		t.Errorf("recovers = %+v", r)
	}
	d := h.metrics(drops.SubscriberArn)
	if d.LiveEvents != 2 || d.Deliveries != 0 || d.Attempts != 4 || d.Retries != 2 || d.EventsDropped != 2 || d.OnFailureDestinationFailed != 0 {
		t.Errorf("drops = %+v", d)
	}
	if r.Subscriber != "recovers" || r.EventBusArn != bus || r.Route == "" {
		t.Errorf("identity = %+v", r)
	}
}
