package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// EG-6: a webhook answering 400, 401, 403 or 413 is never retried: the
// event is dead-lettered at once when a destination is configured (written
// 5 minutes later, EG-21), dropped otherwise.
func TestEG6_WebhookNeverRetriedCodes(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	codes := map[int]string{400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 413: "PayloadTooLarge"}
	for code := range codes {
		hook := fakes.NewWebhook(t, fakes.Always(code))
		egSubscribe(t, emu, "orders", fmt.Sprintf("dl-%d", code), hook.URL(), armeventgrid.EventSubscriptionProperties{
			DeadLetterDestination: egDeadLetterTo("devstoreaccount1", "dead")})
		egSubscribe(t, emu, "orders", fmt.Sprintf("drop-%d", code), hook.URL(), armeventgrid.EventSubscriptionProperties{})
	}
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()
	emu.Advance(24 * time.Hour)

	for code, outcome := range codes {
		for _, sub := range []string{fmt.Sprintf("dl-%d", code), fmt.Sprintf("drop-%d", code)} {
			attempts := emu.Deliveries(testkit.Filter{Subscription: sub})
			if len(attempts) != 1 || attempts[0].Status != code || attempts[0].Outcome != outcome || attempts[0].NextAttemptAt != nil {
				t.Errorf("%s: attempts %+v, want one %s and no retry", sub, attempts, outcome)
			}
		}
		dead := emu.EventGridDeadLetters(testkit.Filter{Subscription: fmt.Sprintf("dl-%d", code)})
		if len(dead) != 1 || dead[0].DeadLetterReason != "UndeliverableDueToClientError" || dead[0].LastHTTPStatusCode != code ||
			dead[0].LastDeliveryOutcome != outcome || dead[0].DeliveryAttempts != 1 {
			t.Errorf("dl-%d: dead letters %+v", code, dead)
		}
		drops := emu.Drops(testkit.Filter{Subscription: fmt.Sprintf("drop-%d", code)})
		if len(drops) != 1 || drops[0].Outcome != "UndeliverableDueToClientError" || drops[0].Time != testkit.DefaultStart() {
			t.Errorf("drop-%d: drops %+v, want one at once", code, drops)
		}
	}
}

// EG-6, EG-7: an Azure-resource destination (here a captured Service Bus
// queue, failed through a fault rule) is never retried on 400, 403 and 413,
// but a 401 is retried, no sooner than 5 minutes.
func TestEG6_AzureResourceNeverRetriedCodesAnd401Retried(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	codes := []int{400, 401, 403, 413}
	for _, code := range codes {
		name := fmt.Sprintf("bus-%d", code)
		emu.CreateEventSubscription("orders", name, armeventgrid.EventSubscriptionProperties{Destination: serviceBusQueue("orders")})
		emu.FailDeliveries(testkit.Filter{Subscription: name}, code, 1)
	}
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()
	emu.Advance(5 * time.Minute)

	for _, code := range codes {
		attempts := emu.Deliveries(testkit.Filter{Subscription: fmt.Sprintf("bus-%d", code)})
		if code == http.StatusUnauthorized {
			if len(attempts) != 2 || attempts[0].Outcome != "Unauthorized" || attempts[1].Time.Sub(start) != 5*time.Minute || attempts[1].Outcome != "Success" {
				t.Errorf("401: attempts %+v, want Unauthorized then Success 5 minutes later", attempts)
			}
			continue
		}
		drops := emu.Drops(testkit.Filter{Subscription: fmt.Sprintf("bus-%d", code)})
		if len(attempts) != 1 || len(drops) != 1 || drops[0].Outcome != "UndeliverableDueToClientError" {
			t.Errorf("%d: attempts %+v drops %+v, want one attempt and a drop", code, attempts, drops)
		}
	}
}

// EG-7: the first retry waits for the status code's floor: 408 two
// minutes, 503 thirty seconds, a webhook's 404 and any other code the 10 s
// of the schedule; an Azure resource's 404 five minutes.
func TestEG7_RetryFloorsByStatus(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	want := map[string]time.Duration{
		"hook-408": 2 * time.Minute, "hook-503": 30 * time.Second, "hook-404": 10 * time.Second,
		"hook-500": 10 * time.Second, "hook-429": 10 * time.Second, "bus-404": 5 * time.Minute,
	}
	for _, code := range []int{408, 503, 404, 500, 429} {
		hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(code)))
		egSubscribe(t, emu, "orders", fmt.Sprintf("hook-%d", code), hook.URL(), armeventgrid.EventSubscriptionProperties{})
	}
	emu.CreateEventSubscription("orders", "bus-404", armeventgrid.EventSubscriptionProperties{Destination: serviceBusQueue("orders")})
	emu.FailDeliveries(testkit.Filter{Subscription: "bus-404"}, 404, 1)
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()

	for sub, floor := range want {
		first := emu.Deliveries(testkit.Filter{Subscription: sub})
		if len(first) != 1 || first[0].NextAttemptAt == nil || first[0].NextAttemptAt.Sub(start) != floor {
			t.Errorf("%s: first attempt %+v, want the retry at +%v", sub, first, floor)
		}
	}
	emu.Advance(5 * time.Minute)
	for sub, floor := range want {
		got := emu.Deliveries(testkit.Filter{Subscription: sub})
		if len(got) != 2 || got[1].Time.Sub(start) != floor || got[1].Outcome != "Success" {
			t.Errorf("%s: attempts %v, want the second, successful, at +%v", sub, egOffsets(got, start), floor)
		}
	}
}

// EG-8: retries follow 10 s, 30 s, 1 min, 5 min, 10 min, 30 min, 1 h, 3 h,
// 6 h, then every 12 h, each measured from the failed attempt, until the
// default 24-hour time to live ends them (at the next due attempt, EG-14).
func TestEG8_StandardSchedule(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t, fakes.Always(500))
	egSubscribe(t, emu, "orders", "audit", hook.URL(), armeventgrid.EventSubscriptionProperties{})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()
	emu.Advance(36 * time.Hour)

	steps := []time.Duration{10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute,
		30 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour}
	want := []time.Duration{0}
	for _, s := range steps {
		want = append(want, want[len(want)-1]+s)
	}
	got := egOffsets(emu.Deliveries(testkit.Filter{Subscription: "audit"}), start)
	if !slices.Equal(got, want) {
		t.Fatalf("attempts at %v,\nwant %v", got, want)
	}
	drops := emu.Drops(testkit.Filter{Subscription: "audit"})
	if len(drops) != 1 || drops[0].Outcome != "TimeToLiveExceeded" || drops[0].Time.Sub(start) != want[len(want)-1]+12*time.Hour {
		t.Fatalf("drops %+v, want TimeToLiveExceeded when the 12th attempt came due (+%v)", drops, want[len(want)-1]+12*time.Hour)
	}
}

// EG-9: with jitter on, every retry comes a little later than the schedule
// (never earlier, at most 5 % later), and the same seed gives the same
// times on every run.
func TestEG9_JitterIsBoundedAndRepeatableWithASeed(t *testing.T) {
	t.Parallel()
	run := func(seed int64) map[string][]time.Duration {
		emu := egOrdersTopic(t, testkit.WithJitter(seed))
		hook := fakes.NewWebhook(t, fakes.Always(500))
		egSubscribe(t, emu, "orders", "audit", hook.URL(), armeventgrid.EventSubscriptionProperties{RetryPolicy: egRetry(6, 1440)})
		start := emu.Now()
		egPublish(t, emu, "orders", egEvents("a", "b", "c")...)
		emu.Settle()
		emu.Advance(time.Hour)
		out := map[string][]time.Duration{}
		for _, id := range []string{"a", "b", "c"} {
			out[id] = egOffsets(emu.Deliveries(testkit.Filter{Subscription: "audit", EventID: id}), start)
		}
		return out
	}
	first, again, other := run(42), run(42), run(7)

	steps := []time.Duration{10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute}
	jittered, differs := false, false
	for id, at := range first {
		if len(at) != 6 {
			t.Fatalf("%s: %d attempts, want 6", id, len(at))
		}
		for i, step := range steps {
			wait := at[i+1] - at[i]
			if wait < step || wait > step+step/20 {
				t.Errorf("%s: wait %d is %v, want %v plus at most 5 %%", id, i+1, wait, step)
			}
			jittered = jittered || wait != step
		}
		if !slices.Equal(at, again[id]) {
			t.Errorf("%s: seed 42 gave %v, then %v", id, at, again[id])
		}
		differs = differs || !slices.Equal(at, other[id])
	}
	if !jittered || !differs {
		t.Errorf("jitter changed nothing (jittered %v, seeds differ %v)", jittered, differs)
	}
}

// serviceBusQueue is a Service Bus queue destination: GridBridge accepts it
// through ARM and captures its deliveries (journal and inspection API).
func serviceBusQueue(name string) *armeventgrid.ServiceBusQueueEventSubscriptionDestination {
	return &armeventgrid.ServiceBusQueueEventSubscriptionDestination{
		EndpointType: to.Ptr(armeventgrid.EndpointTypeServiceBusQueue),
		Properties: &armeventgrid.ServiceBusQueueEventSubscriptionDestinationProperties{
			ResourceID: to.Ptr("/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/" + testkit.ResourceGroup +
				"/providers/Microsoft.ServiceBus/namespaces/bus/queues/" + name),
		},
	}
}
