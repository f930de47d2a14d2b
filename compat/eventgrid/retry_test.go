package eventgrid_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
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

// EG-8, EG-7, EG-4: a webhook that fails twice, then answers 200, gets its
// attempts on the standard schedule, 10 s then 30 s after each failure, or
// after the status's floor when that is longer: a 503 waits at least 30 s.
// aeg-delivery-count is 0, 1, 2; jitter is off (EG-9), and the test takes
// milliseconds.
func TestRetryFollowsStandardSchedule_EG8(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status int
		want   []time.Duration
	}{
		{http.StatusInternalServerError, []time.Duration{0, 10 * time.Second, 40 * time.Second}},
		{http.StatusServiceUnavailable, []time.Duration{0, 30 * time.Second, 60 * time.Second}}, // EG-7
	} {
		t.Run(strconv.Itoa(c.status), func(t *testing.T) {
			t.Parallel()
			h, hook := newOrdersHarness(t, fakes.Script(fakes.Status(c.status), fakes.Status(c.status), fakes.Status(200)))
			h.subscribe("orders", "retrying", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())})

			h.publishOne("orders")
			for i := 1; i < len(c.want); i++ {
				h.clock.Advance(c.want[i] - c.want[i-1])
			}

			attempts := h.attempts("retrying")
			if got := offsets(attempts); !slices.Equal(got, c.want) {
				t.Fatalf("attempts at %v, want %v", got, c.want)
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
		})
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
	if len(drops) != 1 || drops[0].Outcome != retry.ReasonMaxDeliveryAttemptsExceeded {
		t.Fatalf("drops %+v", drops)
	}
}

// EG-12, EG-14, EG-7: with a 3-minute TTL, a webhook answering 503 gets
// attempts at 0, 30 s, 1 min and 2 min (the 30 s floor, then the schedule's
// 1 min); the next is due at 7 min, long past the TTL, and the event is
// given up then, not when the TTL ran out.
func TestTimeToLiveCheckedAtNextAttempt_EG14(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.Always(http.StatusServiceUnavailable))
	h.retryOneForAnHour("short-lived", hook, &armeventgrid.RetryPolicy{EventTimeToLiveInMinutes: to.Ptr[int32](3)})
	if got, want := offsets(h.attempts("short-lived")), []time.Duration{0, 30 * time.Second, time.Minute, 2 * time.Minute}; !slices.Equal(got, want) {
		t.Fatalf("attempts at %v, want %v", got, want)
	}
	drops := h.entries("drop", "short-lived")
	if len(drops) != 1 || drops[0].Outcome != retry.ReasonTimeToLiveExceeded || drops[0].Time.Sub(start) != 7*time.Minute {
		t.Fatalf("drops %+v, want TimeToLiveExceeded at +7m", drops)
	}
}

// EG-6, EG-20, EG-21, EG-23: a 400 from a webhook is never retried, and the
// event is dead-lettered 5 minutes later into the subscription's container
// (the in-memory default here) as an EG-23 record.
func TestNeverRetriedStatusIsDeadLettered_EG6(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.Always(http.StatusBadRequest))
	h.subscribe("orders", "dl-sub", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(hook.URL()),
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				ResourceID:        to.Ptr("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct"),
				BlobContainerName: to.Ptr("dead"),
			},
		},
	})
	h.publishOne("orders")
	h.clock.Advance(5 * time.Minute)
	if n := len(h.attempts("dl-sub")); n != 1 {
		t.Fatalf("%d attempts: a 400 is never retried", n)
	}
	letters := h.sink.List()
	if len(letters) != 1 || !strings.HasPrefix(letters[0].Destination, "acct/dead/DL-SUB/") {
		t.Fatalf("dead letters %+v", letters)
	}
	var records []map[string]any
	if err := json.Unmarshal(letters[0].Body, &records); err != nil || len(records) != 1 {
		t.Fatalf("record %s: %v", letters[0].Body, err)
	}
	if r := records[0]; r["id"] != "e1" || r["lastDeliveryOutcome"] != "BadRequest" ||
		r["deadLetterReason"] != retry.ReasonUndeliverableDueToClientError || r["topic"] != topicID("orders") {
		t.Fatalf("record %v", r)
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
