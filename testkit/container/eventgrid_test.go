package container_test

import (
	"context"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/testkit"
)

func TestEventGridRetriesThenDeadLetters_InProcess(t *testing.T) {
	t.Parallel()
	eventGridRetriesThenDeadLetters(t, testkit.Start(t))
}

func TestEventGridRetriesThenDeadLetters_Container(t *testing.T) {
	t.Parallel()
	eventGridRetriesThenDeadLetters(t, runContainer(t).Emulator(t))
}

// eventGridRetriesThenDeadLetters goes through ARM and the topic's
// advertised endpoint, so in a container it also proves that the HTTPS
// URL the emulator advertises is the one the test reaches. The destination
// is a Service Bus queue, which GridBridge captures itself: nothing outside
// the container has to be reachable from inside it.
func eventGridRetriesThenDeadLetters(t *testing.T, emu *testkit.Emulator) {
	emu.CreateTopic("orders", nil)
	emu.CreateEventSubscription("orders", "billing", armeventgrid.EventSubscriptionProperties{
		Destination:           serviceBusQueue("billing"),
		RetryPolicy:           &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](3), EventTimeToLiveInMinutes: to.Ptr[int32](1440)},
		DeadLetterDestination: deadLetterBlobs("dead"),
	})
	emu.FailDeliveries(testkit.Filter{Subscription: "billing"}, 503, 0) // Service Bus is "down" until the fault goes

	_, err := emu.EventGridPublisher("orders").PublishEvents(context.Background(), []azeventgrid.Event{{
		ID: to.Ptr("order-1"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: map[string]int{"total": 42},
	}}, nil)
	if err != nil {
		t.Fatalf("publishing: %v", err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "billing", Outcome: "Busy"}, 1)
	emu.Advance(24 * time.Hour)

	if got := emu.Deliveries(testkit.Filter{Subscription: "billing"}); len(got) != 3 {
		t.Errorf("%d attempts, want maxDeliveryAttempts 3", len(got))
	}
	dead := emu.EventGridDeadLetters(testkit.Filter{Subscription: "billing"})
	if len(dead) != 1 || dead[0].ID != "order-1" || dead[0].DeadLetterReason != "MaxDeliveryAttemptsExceeded" ||
		dead[0].DeliveryAttempts != 3 || dead[0].LastDeliveryOutcome != "Busy" {
		t.Fatalf("dead letters %+v, want order-1 after 3 Busy attempts", dead)
	}
}
