package e2e

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// EG-11, EG-12: maxDeliveryAttempts is 1..30 (default 30) and
// eventTimeToLiveInMinutes 1..1440 (default 1440); ARM refuses values out
// of range with 400 InvalidRequest and shows the defaults when none is sent.
func TestEG11_EG12_RetryPolicyRangesAndDefaults(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t)
	for _, p := range [][2]int32{{0, 60}, {31, 60}, {5, 0}, {5, 1441}} {
		_, err := emu.TryCreateEventSubscription("orders", "bad", armeventgrid.EventSubscriptionProperties{
			Destination: testkit.WebHookDestination(hook.URL()), RetryPolicy: egRetry(p[0], p[1])})
		egWantARM400(t, fmt.Sprintf("maxDeliveryAttempts %d, eventTimeToLiveInMinutes %d", p[0], p[1]), err)
	}
	for _, p := range [][2]int32{{1, 1}, {30, 1440}} {
		if _, err := emu.TryCreateEventSubscription("orders", fmt.Sprintf("edge-%d", p[0]), armeventgrid.EventSubscriptionProperties{
			Destination: testkit.WebHookDestination(hook.URL()), RetryPolicy: egRetry(p[0], p[1])}); err != nil {
			t.Errorf("the limits themselves (%v) are allowed: %v", p, err)
		}
	}
	got := emu.CreateEventSubscription("orders", "defaults", armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL())})
	if rp := got.Properties.RetryPolicy; rp == nil || *rp.MaxDeliveryAttempts != 30 || *rp.EventTimeToLiveInMinutes != 1440 {
		t.Fatalf("default retryPolicy %+v, want 30 attempts and 1440 minutes", rp)
	}
}

// EG-11, EG-13: with maxDeliveryAttempts 3 the third failed attempt (the
// first counts) ends delivery: MaxDeliveryAttemptsExceeded.
func TestEG11_MaxDeliveryAttemptsEndsDelivery(t *testing.T) {
	egGivesUpAfterThreeAttempts(t, egRetry(3, 1440), "MaxDeliveryAttemptsExceeded", 40*time.Second)
}

// EG-12, EG-13: with eventTimeToLiveInMinutes 1 the event is given up as
// TimeToLiveExceeded at the first attempt due after a minute (1m40s).
func TestEG12_TimeToLiveEndsDelivery(t *testing.T) {
	egGivesUpAfterThreeAttempts(t, egRetry(30, 1), "TimeToLiveExceeded", 100*time.Second)
}

// egGivesUpAfterThreeAttempts subscribes an always-failing webhook with retry,
// publishes one event and checks the attempts at 0, 10 s and 40 s and the
// one give-up, with outcome, at offset after publishing.
func egGivesUpAfterThreeAttempts(t *testing.T, retry *armeventgrid.RetryPolicy, outcome string, offset time.Duration) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t, fakes.Always(500))
	egSubscribe(t, emu, "orders", "audit", hook.URL(), armeventgrid.EventSubscriptionProperties{RetryPolicy: retry})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()
	emu.Advance(time.Hour)
	if got := egOffsets(emu.Deliveries(testkit.Filter{Subscription: "audit"}), start); !slices.Equal(got, []time.Duration{0, 10 * time.Second, 40 * time.Second}) {
		t.Fatalf("attempts at %v, want 0, 10s, 40s", got)
	}
	drops := emu.Drops(testkit.Filter{Subscription: "audit"})
	if len(drops) != 1 || drops[0].Outcome != outcome || drops[0].Time.Sub(start) != offset {
		t.Fatalf("drops %+v, want %s at %v", drops, outcome, offset)
	}
}

// EG-13, the seed's example: TTL 30 minutes and 10 attempts. Only 6
// attempts fit in 30 minutes, so the event is dead-lettered after 30
// minutes — when the 7th attempt comes due (46m40s, EG-14) — with
// deliveryAttempts 6, and written 5 minutes later (EG-21).
func TestEG13_SeedExampleTTL30Minutes10Attempts(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t, fakes.Always(500))
	egSubscribe(t, emu, "orders", "audit", hook.URL(), armeventgrid.EventSubscriptionProperties{
		RetryPolicy: egRetry(10, 30), DeadLetterDestination: egDeadLetterTo("devstoreaccount1", "dead")})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()

	emu.Advance(46*time.Minute + 40*time.Second + 5*time.Minute - time.Second)
	if dead := emu.DeadLetters(testkit.Filter{Subscription: "audit"}); len(dead) != 0 {
		t.Fatalf("dead letter written before 51m40s: %+v", dead)
	}
	emu.Advance(time.Second)
	attempts := egOffsets(emu.Deliveries(testkit.Filter{Subscription: "audit"}), start)
	want := []time.Duration{0, 10 * time.Second, 40 * time.Second, 100 * time.Second, 400 * time.Second, 1000 * time.Second}
	if !slices.Equal(attempts, want) {
		t.Fatalf("attempts at %v, want %v", attempts, want)
	}
	dead := emu.EventGridDeadLetters(testkit.Filter{Subscription: "audit"})
	if len(dead) != 1 {
		t.Fatalf("dead letters %+v, want one", dead)
	}
	r := dead[0]
	if r.DeadLetterReason != "TimeToLiveExceeded" || r.DeliveryAttempts != 6 || r.LastDeliveryOutcome != "Busy" ||
		r.LastHTTPStatusCode != 500 || !r.PublishTime.Equal(start) || !r.LastDeliveryAttemptTime.Equal(start.Add(1000*time.Second)) {
		t.Fatalf("record %+v", r)
	}
}

// EG-14: the time to live is checked only when the next attempt comes
// due: an event whose 5-minute TTL ends between the attempts at 1m40s and
// 6m40s is still held at 5 minutes and given up at 6m40s, with no attempt.
func TestEG14_TTLCheckedOnlyAtTheNextScheduledAttempt(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t, fakes.Always(500))
	egSubscribe(t, emu, "orders", "audit", hook.URL(), armeventgrid.EventSubscriptionProperties{RetryPolicy: egRetry(30, 5)})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()

	emu.Advance(6*time.Minute + 39*time.Second)
	if drops := emu.Drops(testkit.Filter{Subscription: "audit"}); len(drops) != 0 {
		t.Fatalf("given up before the next attempt was due: %+v", drops)
	}
	if m := emu.RouteMetrics(testkit.Filter{Subscription: "audit"}); m.Retrying != 1 {
		t.Fatalf("after the TTL, before the next attempt: %d retrying, want the event still held", m.Retrying)
	}
	emu.Advance(time.Second)
	drops := emu.Drops(testkit.Filter{Subscription: "audit"})
	if len(drops) != 1 || drops[0].Outcome != "TimeToLiveExceeded" || drops[0].Time.Sub(start) != 400*time.Second {
		t.Fatalf("drops %+v, want TimeToLiveExceeded at 6m40s", drops)
	}
	if n := len(emu.Deliveries(testkit.Filter{Subscription: "audit"})); n != 4 {
		t.Fatalf("%d attempts, want 4 (none at 6m40s)", n)
	}
}
