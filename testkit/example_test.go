package testkit_test

import (
	"context"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// The README's example, kept here so it always compiles and passes.
func TestOrderPlacedIsRetriedThenDelivered(t *testing.T) {
	emu := testkit.Start(t) // in-process, free ports, virtual clock
	hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(503), fakes.Status(200)))
	emu.CreateTopic("orders", nil)
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()),
	})

	_, err := emu.EventGridPublisher("orders").PublishEvents(context.Background(), []azeventgrid.Event{{
		ID: to.Ptr("1"), EventType: to.Ptr("Order.Placed"), Subject: to.Ptr("orders/1"),
		EventTime: to.Ptr(emu.Now()), Data: map[string]int{"total": 42},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}

	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit", Outcome: "Busy"}, 1)
	emu.Advance(30 * time.Second) // a 503 is retried after 30 s (EG-7)
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit", Outcome: "Success"}, 1)
}
