package e2e

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// EG-1, EG-2: every event is tried at once (no clock advance) for every
// matching subscription, and each delivery is a JSON array of one event.
func TestEG1_EG2_TriedAtOnceForEverySubscriptionAsArrayOfOne(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hooks := map[string]*fakes.Webhook{"billing": fakes.NewWebhook(t), "shipping": fakes.NewWebhook(t)}
	for name, hook := range hooks {
		egSubscribe(t, emu, "orders", name, hook.URL(), armeventgrid.EventSubscriptionProperties{})
	}
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1", "o-2")...)

	for name, hook := range hooks {
		attempts := emu.WaitForDeliveries(testkit.Filter{Subscription: name}, 2)
		for _, a := range attempts {
			if a.Time != start || a.Outcome != "Success" {
				t.Errorf("%s: attempt at +%v %s, want at once, Success", name, a.Time.Sub(start), a.Outcome)
			}
		}
		seen := map[string]bool{}
		for _, d := range hook.Deliveries() {
			events := egBody(t, d)
			if len(events) != 1 {
				t.Fatalf("%s: a delivery carried %d events, want an array of one", name, len(events))
			}
			seen[events[0]["id"].(string)] = true
		}
		if !seen["o-1"] || !seen["o-2"] || len(hook.Deliveries()) != 2 {
			t.Errorf("%s got %v in %d deliveries, want o-1 and o-2 once each", name, seen, len(hook.Deliveries()))
		}
	}
}

// EG-4: only 200, 201, 202, 203 and 204 are successes; 205 and a redirect
// (never followed) are failures, retried on the schedule.
func TestEG4_OnlyStatus200To204Succeed(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(200), fakes.Status(201), fakes.Status(202), fakes.Status(203),
		fakes.Status(204), fakes.Status(205), fakes.Status(http.StatusFound).WithHeader("Location", "/elsewhere")))
	egSubscribe(t, emu, "orders", "audit", hook.URL(), armeventgrid.EventSubscriptionProperties{})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("a", "b", "c", "d", "e", "f", "g")...)

	first := emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 7)
	failed := 0
	for _, a := range first {
		success := a.Status >= 200 && a.Status <= 204
		switch {
		case success && (a.Outcome != "Success" || a.NextAttemptAt != nil):
			t.Errorf("status %d: outcome %s, next attempt %v; want Success and no retry", a.Status, a.Outcome, a.NextAttemptAt)
		case !success && (a.Outcome == "Success" || a.NextAttemptAt == nil || a.NextAttemptAt.Sub(start) != 10*time.Second):
			t.Errorf("status %d: outcome %s, next attempt %v; want a failure retried at +10s", a.Status, a.Outcome, a.NextAttemptAt)
		case !success:
			failed++
		}
	}
	if failed != 2 {
		t.Fatalf("%d failures among %+v, want 205 and 302", failed, first)
	}
	emu.Advance(10 * time.Second)
	retried := emu.Deliveries(testkit.Filter{Subscription: "audit"})[7:]
	if len(retried) != 2 || retried[0].Outcome != "Success" || retried[1].Outcome != "Success" {
		t.Fatalf("retries %+v, want the two failures delivered at +10s", retried)
	}
	for _, d := range hook.Deliveries() {
		if d.Path != "/webhook" {
			t.Fatalf("the redirect was followed to %s", d.Path)
		}
	}
}

// EG-5: an endpoint that does not answer within 30 s has failed (TimedOut)
// and the event is retried on the schedule.
func TestEG5_NoAnswerWithin30sIsTimedOutThenRetried(t *testing.T) {
	t.Parallel()
	// The unanswered request holds the virtual clock this long in real time
	// before the clock takes it to be waiting for cloud time.
	emu := egOrdersTopic(t, testkit.WithSettleTimeout(50*time.Millisecond))
	hook := fakes.NewWebhook(t, fakes.Script(fakes.NoAnswer()))
	egSubscribe(t, emu, "orders", "slow", hook.URL(), armeventgrid.EventSubscriptionProperties{})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	if _, err := hook.WaitForDeliveries(context.Background(), 1); err != nil {
		t.Fatal(err)
	}

	emu.Advance(30*time.Second - time.Millisecond)
	if n := len(emu.Deliveries(testkit.Filter{Subscription: "slow"})); n != 0 {
		t.Fatalf("the attempt ended before 30 s (%d entries)", n)
	}
	emu.Advance(time.Millisecond)
	timedOut := emu.WaitForDeliveries(testkit.Filter{Subscription: "slow"}, 1)[0]
	if timedOut.Outcome != "TimedOut" || timedOut.Time != start || timedOut.NextAttemptAt == nil || timedOut.NextAttemptAt.Sub(start) != 40*time.Second {
		t.Fatalf("first attempt %+v, want TimedOut, retried 10 s after the 30 s timeout", timedOut)
	}
	emu.Advance(10 * time.Second)
	all := emu.WaitForDeliveries(testkit.Filter{Subscription: "slow"}, 2)
	if all[1].Outcome != "Success" || all[1].Time.Sub(start) != 40*time.Second {
		t.Fatalf("retry %+v, want Success at +40s", all[1])
	}
}
