package orderservice_test

// Integration tests of the order service against GridBridge, to copy into
// your own service. Each test starts its own emulator in-process
// (testkit.Start): free ports, a virtual clock, nothing left behind.
// Run them with ./scripts/test.sh ./examples/..., which also starts the
// Azurite and SQS servers the dead-letter tests read from.

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/examples/orderservice"
	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// A placed order reaches an Event Grid webhook subscriber, in the shape
// Event Grid delivers it.
func TestPlaceOrder_DeliversToEventGridWebhook(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	svc := newShop(t, emu)
	// A fake subscriber: it answers the validation handshake itself and
	// records every delivery.
	hook := fakes.NewWebhook(t)
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()),
	})

	placeOrder(t, svc, "order-1", 4200)

	if _, err := hook.WaitForDeliveries(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	events := hook.Events()
	var order orderservice.Order
	if len(events) != 1 || events[0].Type != orderservice.EventType || events[0].Subject != "orders/order-1" ||
		json.Unmarshal(events[0].Data, &order) != nil || order.TotalCents != 4200 {
		t.Fatalf("webhook got %+v, want one Orders.Placed event for order-1", events)
	}
}

// An EventBridge rule sends big orders to an SQS queue of a real SQS
// server, read back with the SQS SDK the way the consumer reads it.
func TestPlaceOrder_SendsBigOrdersToSQSQueue(t *testing.T) {
	t.Parallel()
	endpoint := testenv.SQSEndpoint(t) // skips without a server, unless in CI
	emu := testkit.Start(t, testkit.WithSQSEndpoint(endpoint))
	svc := newShop(t, emu)
	server := newSQSServer(endpoint)
	review := server.createQueue(t, "review")
	routeBigOrders(t, emu, ebtypes.Target{Id: aws.String("review"), Arn: aws.String(review.arn)})

	placeOrder(t, svc, "small", 1500)
	placeOrder(t, svc, "big", 250000)

	msgs := server.receive(t, review, 1) // SQS long polling: no sleeps
	if got := detailOf(t, *msgs[0].Body); got.ID != "big" {
		t.Fatalf("review queue got order %q, want the big one", got.ID)
	}
	// The small order matched no rule: once GridBridge has settled, the
	// journal holds the one delivery only.
	emu.Settle()
	if sent := emu.Deliveries(testkit.Filter{Rule: "big-orders"}); len(sent) != 1 {
		t.Fatalf("the rule sent %d events, want the big order only", len(sent))
	}
}

// The same rule without an SQS server: GridBridge keeps SQS queues in
// memory and testkit reads them.
func TestPlaceOrder_SendsBigOrdersToInMemoryQueue(t *testing.T) {
	t.Parallel()
	bigOrdersReachTheReviewQueue(t, testkit.Start(t))
}

// bigOrdersReachTheReviewQueue is shared with the container variant
// (container_test.go): it uses only the emulator it is given.
func bigOrdersReachTheReviewQueue(t *testing.T, emu *testkit.Emulator) {
	svc := newShop(t, emu)
	review := queueARN("review")
	routeBigOrders(t, emu, ebtypes.Target{Id: aws.String("review"), Arn: aws.String(review)})

	placeOrder(t, svc, "small", 1500)
	placeOrder(t, svc, "big", 250000)

	// Wait for the attempt, then read the queue.
	emu.WaitForDeliveries(testkit.Filter{Rule: "big-orders", Target: "review", Outcome: "Success"}, 1)
	msgs := emu.SQSMessages(review)
	if len(msgs) != 1 || detailOf(t, string(msgs[0].Body)).ID != "big" {
		t.Fatalf("review queue holds %+v, want only the big order", msgs)
	}
}

// detailOf decodes the order out of an EventBridge event, as an SQS
// target receives it: the envelope with the order in "detail".
func detailOf(t *testing.T, body string) orderservice.Order {
	t.Helper()
	var event struct {
		DetailType string             `json:"detail-type"`
		Detail     orderservice.Order `json:"detail"`
	}
	if err := json.Unmarshal([]byte(body), &event); err != nil || event.DetailType != orderservice.EventType {
		t.Fatalf("not an Orders.Placed event (%v): %s", err, body)
	}
	return event.Detail
}
