package orderservice_test

import (
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// A subscriber that is down for two attempts (503) still gets the order:
// Event Grid retries it, and the test moves the virtual clock instead of
// waiting.
func TestSubscriberOutage_EventGridRetriesUntilDelivered(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	svc := newShop(t, emu)
	// Scripted answers: 503, 503, then 200 for everything after.
	hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(503), fakes.Status(503)))
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()),
	})
	start := emu.Now()

	placeOrder(t, svc, "order-1", 4200)
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit", Outcome: "Busy"}, 1)
	emu.Advance(5 * time.Minute) // fires every retry due in the next 5 minutes, in milliseconds

	attempts := emu.Deliveries(testkit.Filter{Subscription: "audit"})
	if len(attempts) != 3 || attempts[2].Outcome != "Success" {
		t.Fatalf("attempts %+v, want Busy, Busy, Success", attempts)
	}
	// Event Grid waits at least 30 s after a 503.
	if wait := attempts[1].Time.Sub(start); wait < 30*time.Second {
		t.Errorf("first retry after %v, want at least 30s", wait)
	}
	if n := len(hook.Deliveries()); n != 3 {
		t.Errorf("webhook saw %d deliveries, want 3", n)
	}
}

// A fault rule makes the EventBridge target fail without touching it (here
// the in-memory queue): two failures, then EventBridge's retry gets
// through.
func TestTargetOutage_EventBridgeRetriesUntilDelivered(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	svc := newShop(t, emu)
	review := queueARN("review")
	routeBigOrders(t, emu, ebtypes.Target{Id: aws.String("review"), Arn: aws.String(review)})
	emu.AddFault(testkit.Fault{
		Match:   map[string]string{"rule": "big-orders", "target": "review"},
		Status:  500,
		Message: "review queue unavailable",
		Count:   2, // the first two attempts fail, then the fault expires
	})

	placeOrder(t, svc, "big", 250000)
	emu.WaitForDeliveries(testkit.Filter{Rule: "big-orders", Target: "review"}, 1)
	emu.Advance(time.Minute) // EventBridge backs off 1 s, then 2 s

	attempts := emu.Deliveries(testkit.Filter{Rule: "big-orders", Target: "review"})
	if len(attempts) != 3 || attempts[2].Outcome != "Success" {
		t.Fatalf("attempts %+v, want two failures then a success", attempts)
	}
	if msgs := emu.SQSMessages(review); len(msgs) != 1 {
		t.Fatalf("review queue holds %d messages, want the order once", len(msgs))
	}
}
