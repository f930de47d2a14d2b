package e2e

import (
	"slices"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// EG-18, EG-10: a failure puts the subscription on probation for a time
// that depends on the error (NotFound 5 minutes, Busy 10 seconds), shown as
// the route's state in GET /_emulator/metrics. During probation nothing is
// attempted: a retry due inside it (10 s) is skipped and a new event waits;
// both go when it ends.
func TestEG18_ProbationHoldsDeliveriesForTheErrorsDuration(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status    int
		outcome   string
		probation time.Duration
	}{{404, "NotFound", 5 * time.Minute}, {500, "Busy", 10 * time.Second}} {
		t.Run(tc.outcome, func(t *testing.T) {
			t.Parallel()
			emu := egOrdersTopic(t, testkit.WithProbation())
			hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(tc.status)))
			egSubscribe(t, emu, "orders", "audit", hook.URL(), armeventgrid.EventSubscriptionProperties{})
			start := emu.Now()
			egPublish(t, emu, "orders", egEvents("first")...)
			emu.Settle()

			m := emu.RouteMetrics(testkit.Filter{Subscription: "audit"})
			if m.State != "Probation" || m.HeldUntil == nil || m.HeldUntil.Sub(start) != tc.probation {
				t.Fatalf("after a %s: state %q held until %v, want Probation for %v", tc.outcome, m.State, m.HeldUntil, tc.probation)
			}
			emu.Advance(tc.probation / 2)
			egPublish(t, emu, "orders", egEvents("second")...)
			emu.Settle()
			if n := len(emu.Deliveries(testkit.Filter{Subscription: "audit"})); n != 1 {
				t.Fatalf("%d attempts during probation, want only the first", n)
			}
			emu.Advance(tc.probation - tc.probation/2)
			for _, id := range []string{"first", "second"} {
				got := emu.Deliveries(testkit.Filter{Subscription: "audit", EventID: id})
				last := got[len(got)-1]
				if last.Outcome != "Success" || last.Time.Sub(start) != tc.probation {
					t.Errorf("%s: attempts at %v, last %s; want delivered when probation ended (+%v)", id, egOffsets(got, start), last.Outcome, tc.probation)
				}
			}
			if m := emu.RouteMetrics(testkit.Filter{Subscription: "audit"}); m.State != "Active" {
				t.Errorf("state %q after probation, want Active", m.State)
			}
		})
	}
}

// EG-18 decision: the testkit turns probation and delayed delivery off by
// default, so retries follow the plain schedule.
func TestEG18_ProbationCanBeSwitchedOff(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(404)))
	egSubscribe(t, emu, "orders", "audit", hook.URL(), armeventgrid.EventSubscriptionProperties{})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()
	if m := emu.RouteMetrics(testkit.Filter{Subscription: "audit"}); m.State != "Active" {
		t.Fatalf("state %q with probation off, want Active", m.State)
	}
	emu.Advance(10 * time.Second)
	if got := egOffsets(emu.Deliveries(testkit.Filter{Subscription: "audit"}), start); !slices.Equal(got, []time.Duration{0, 10 * time.Second}) {
		t.Fatalf("attempts at %v, want the plain schedule (0, 10s)", got)
	}
}

// EG-17: when the first 10 events to an endpoint all fail, Event Grid
// delays later retries and new deliveries: the route shows DelayedDelivery
// (1 minute, GridBridge's choice) and a new event waits for it.
func TestEG17_DelayedDeliveryAfterTenFailingEvents(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t, testkit.WithProbation())
	script := make([]fakes.Reply, 10)
	for i := range script {
		script[i] = fakes.Status(500)
	}
	hook := fakes.NewWebhook(t, fakes.Script(script...))
	egSubscribe(t, emu, "orders", "audit", hook.URL(), armeventgrid.EventSubscriptionProperties{})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")...)
	emu.Settle()

	m := emu.RouteMetrics(testkit.Filter{Subscription: "audit"})
	if m.State != "DelayedDelivery" || m.HeldUntil == nil || m.HeldUntil.Sub(start) != time.Minute {
		t.Fatalf("after 10 failing events: state %q held until %v, want DelayedDelivery for 1 minute", m.State, m.HeldUntil)
	}
	emu.Advance(30 * time.Second)
	egPublish(t, emu, "orders", egEvents("11")...)
	emu.Settle()
	if got := emu.Deliveries(testkit.Filter{Subscription: "audit"}); len(got) != 10 {
		t.Fatalf("%d attempts inside the delay, want the 10 first ones only", len(got))
	}
	emu.Advance(30 * time.Second)
	late := emu.Deliveries(testkit.Filter{Subscription: "audit", EventID: "11"})
	if len(late) != 1 || late[0].Time.Sub(start) != time.Minute || late[0].Outcome != "Success" {
		t.Fatalf("the new event's attempts %+v, want one, delivered when the delay ended (+1m)", late)
	}
	if n := len(emu.Deliveries(testkit.Filter{Subscription: "audit"})); n != 21 {
		t.Fatalf("%d attempts, want 10 failures, their 10 retries and the new event", n)
	}
}
