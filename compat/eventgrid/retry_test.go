package eventgrid_test

import (
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/fakes"
)

// publishOne publishes one Event Grid event and waits for its first attempt.
func (h *harness) publishOne(topic string) {
	h.t.Helper()
	if _, err := h.publisher(topic).PublishEvents(ctx(h.t), oneEvent(), nil); err != nil {
		h.t.Fatal(err)
	}
	h.settle()
}

func offsets(entries []engine.Entry) []time.Duration {
	out := make([]time.Duration, len(entries))
	for i, e := range entries {
		out[i] = e.Time.Sub(start)
	}
	return out
}

// EG-8, EG-4: a webhook answering 503, 503, 200 gets attempts at +0, +10 s
// and +40 s of cloud time, aeg-delivery-count 0, 1, 2; jitter is off
// (EG-9), and the test takes milliseconds.
func TestRetryFollowsStandardSchedule_EG8(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.Script(fakes.Status(503), fakes.Status(503), fakes.Status(200)))
	h.subscribe("orders", "retrying", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())})

	h.publishOne("orders")
	h.clock.Advance(10 * time.Second)
	h.clock.Advance(30 * time.Second)

	attempts := h.attempts("retrying")
	if got, want := offsets(attempts), []time.Duration{0, 10 * time.Second, 40 * time.Second}; !slices.Equal(got, want) {
		t.Fatalf("attempts at %v, want %v", got, want)
	}
	for i, want := range []string{"Busy", "Busy", "Success"} {
		if attempts[i].Outcome != want {
			t.Errorf("attempt %d outcome %s, want %s", i+1, attempts[i].Outcome, want)
		}
	}
	deliveries := hook.Deliveries()
	for i, d := range deliveries {
		if got, want := d.Header.Get("aeg-delivery-count"), string(rune('0'+i)); got != want {
			t.Errorf("delivery %d aeg-delivery-count %s, want %s", i, got, want)
		}
		if d.Time.Sub(start) != offsets(attempts)[i] {
			t.Errorf("delivery %d arrived at %v of cloud time", i, d.Time.Sub(start))
		}
	}
	if len(h.entries("delivered", "retrying")) != 1 {
		t.Fatal("the event was not recorded as delivered")
	}
}

// retryOneForAnHour subscribes hook to "orders" as name with the retry
// policy, publishes one event and lets an hour of cloud time pass: time
// for every attempt the tests' policies allow.
func (h *harness) retryOneForAnHour(name string, hook *fakes.Webhook, policy *armeventgrid.RetryPolicy) {
	h.t.Helper()
	h.subscribe("orders", name, armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL()), RetryPolicy: policy})
	h.publishOne("orders")
	h.clock.Advance(time.Hour)
}

// EG-11, EG-13: with maxDeliveryAttempts 2 the event is given up after the
// second failure and the drop is journalled with its reason (no
// dead-letter destination: D-DROP).
func TestMaxDeliveryAttempts_EG11(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.Always(http.StatusInternalServerError))
	h.retryOneForAnHour("limited", hook, &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](2)})
	if n := len(h.attempts("limited")); n != 2 {
		t.Fatalf("%d attempts, want 2", n)
	}
	drops := h.entries("drop", "limited")
	if len(drops) != 1 || drops[0].Outcome != eventgrid.ReasonMaxDeliveryAttempts {
		t.Fatalf("drops %+v", drops)
	}
}

// EG-12, EG-14: with a 1-minute TTL, attempts run at 0, 10 s and 40 s; the
// next is due at 1 min 40 s, past the TTL, and the event is given up then,
// not before.
func TestTimeToLiveCheckedAtNextAttempt_EG14(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.Always(http.StatusServiceUnavailable))
	h.retryOneForAnHour("short-lived", hook, &armeventgrid.RetryPolicy{EventTimeToLiveInMinutes: to.Ptr[int32](1)})
	if got, want := offsets(h.attempts("short-lived")), []time.Duration{0, 10 * time.Second, 40 * time.Second}; !slices.Equal(got, want) {
		t.Fatalf("attempts at %v, want %v", got, want)
	}
	drops := h.entries("drop", "short-lived")
	if len(drops) != 1 || drops[0].Outcome != eventgrid.ReasonTimeToLive || drops[0].Time.Sub(start) != 100*time.Second {
		t.Fatalf("drops %+v, want TimeToLiveExceeded at +1m40s", drops)
	}
}

// EG-5: an endpoint that never answers times out after 30 s of cloud time
// (outcome TimedOut) and is retried 10 s later.
func TestResponseTimeout_EG5(t *testing.T) {
	t.Parallel()
	h := newHarnessSettling(t, 200*time.Millisecond)
	hook := newHook(t, h, fakes.Script(fakes.NoAnswer()))
	h.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	h.subscribe("orders", "slow", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())})
	if _, err := h.publisher("orders").PublishEvents(ctx(t), oneEvent(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := hook.WaitForDeliveries(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(30 * time.Second)
	h.clock.Advance(10 * time.Second)
	attempts := h.waitAttempts("slow", 2)
	if len(attempts) != 2 || attempts[0].Outcome != "TimedOut" || attempts[0].Time != start ||
		attempts[1].Outcome != "Success" || attempts[1].Time.Sub(start) != 40*time.Second {
		t.Fatalf("attempts %+v", attempts)
	}
}

// EG-24: statuses and transport failures get the service's outcome names.
func TestOutcomeNames_EG24(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	want := map[int]string{400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound",
		413: "PayloadTooLarge", 429: "Busy", 503: "Busy", 500: "Busy", 302: "Aborted", 204: "Success"}
	names := map[int]string{}
	for status := range want {
		hook := newHook(t, h, fakes.Always(status))
		name := "status-" + strconv.Itoa(status)
		names[status] = name
		h.subscribe("orders", name, armeventgrid.EventSubscriptionProperties{
			Destination: webhook(hook.URL()), RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](1)}})
	}
	closed := newHook(t, h)
	h.subscribe("orders", "refused", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(closed.URL()), RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](1)}})
	closed.Close()

	h.publishOne("orders")
	for status, name := range names {
		a := h.attempts(name)
		if len(a) != 1 || a[0].Outcome != want[status] || a[0].Status != status {
			t.Errorf("status %d: attempts %+v, want outcome %s", status, a, want[status])
		}
	}
	if a := h.attempts("refused"); len(a) != 1 || a[0].Outcome != "SocketError" {
		t.Errorf("connection refused: attempts %+v, want SocketError", a)
	}
}
