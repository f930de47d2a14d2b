package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
	nsdeadletter "github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/deadletter"
	"github.com/gridbridge/gridbridge/internal/facetest"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

func TestNamespaceQueueFlowInProcess(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	namespaceQueueFlow(t, testkit.Start(t, testkit.WithAzureStorage(az.conn)), az)
}

func TestNamespaceQueueFlowAgainstBinary(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation", "--azure-storage", az.conn)
	namespaceQueueFlow(t, testkit.Connect(t, proc.Endpoints["http"]), az)
}

// namespaceQueueFlow: namespace → topic → queue subscription through ARM;
// publish → receive → release (redelivered, delivery count 2) → reject →
// NS-4 record at the NS-6 path in Azurite.
func namespaceQueueFlow(t *testing.T, emu *testkit.Emulator, az azurite) {
	ctx := context.Background()
	container := az.newContainer(t)
	arm := emu.ARM()
	facetest.CreateNamespaceTopic(t, arm, testkit.ResourceGroup, "shop", "orders")
	subPoller, err := arm.NewNamespaceTopicEventSubscriptionsClient().BeginCreateOrUpdate(ctx, testkit.ResourceGroup, "shop", "orders", "billing",
		armeventgrid.Subscription{Properties: &armeventgrid.SubscriptionProperties{
			DeliveryConfiguration: &armeventgrid.DeliveryConfiguration{
				DeliveryMode: to.Ptr(armeventgrid.DeliveryModeQueue),
				Queue: &armeventgrid.QueueInfo{
					ReceiveLockDurationInSeconds: to.Ptr[int32](60),
					MaxDeliveryCount:             to.Ptr[int32](5),
					DeadLetterDestinationWithResourceIdentity: &armeventgrid.DeadLetterWithResourceIdentity{
						DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
							EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
							Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
								ResourceID:        to.Ptr("/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/storage/providers/Microsoft.Storage/storageAccounts/" + azblobsink.DevAccountName),
								BlobContainerName: to.Ptr(container),
							},
						},
					},
				},
			},
		}}, nil)
	facetest.Await(t, "creating subscription billing", subPoller, err)

	sender := emu.NamespaceSender("shop", "orders")
	event, err := messaging.NewCloudEvent("/shop", "Order.Placed", map[string]any{"id": 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sender.SendEvent(ctx, &event, nil); err != nil {
		t.Fatal(err)
	}
	receiver := emu.NamespaceReceiver("shop", "orders", "billing")
	got, err := receiver.ReceiveEvents(ctx, &aznamespaces.ReceiveEventsOptions{MaxEvents: to.Ptr[int32](1), MaxWaitTime: to.Ptr[int32](10)})
	if err != nil || len(got.Details) != 1 || got.Details[0].Event.ID != event.ID || *got.Details[0].BrokerProperties.DeliveryCount != 1 {
		t.Fatalf("first receive: %+v %v", got, err)
	}
	if _, err := receiver.ReleaseEvents(ctx, []string{*got.Details[0].BrokerProperties.LockToken}, nil); err != nil {
		t.Fatal(err)
	}
	again, err := receiver.ReceiveEvents(ctx, &aznamespaces.ReceiveEventsOptions{MaxEvents: to.Ptr[int32](1), MaxWaitTime: to.Ptr[int32](10)})
	if err != nil || len(again.Details) != 1 || *again.Details[0].BrokerProperties.DeliveryCount != 2 {
		t.Fatalf("receive after release: %+v %v", again, err)
	}
	if _, err := receiver.RejectEvents(ctx, []string{*again.Details[0].BrokerProperties.LockToken}, nil); err != nil {
		t.Fatal(err)
	}
	emu.Advance(time.Minute)
	blobs := az.blobs(t, container)
	if len(blobs) != 1 {
		t.Fatalf("dead-letter blobs = %v, want one", blobs)
	}
	for name, records := range blobs {
		loc, err := nsdeadletter.ParseBlobPath(name)
		if err != nil || loc.Namespace != "shop" || loc.Topic != "orders" || loc.Subscription != "billing" {
			t.Errorf("blob %q is not at the NS-6 path: %+v %v", name, loc, err)
		}
		if len(records) != 1 || records[0]["event"] == nil || records[0]["deadletterProperties"] == nil {
			t.Fatalf("record = %v, want {event, deadletterProperties} (NS-4)", records)
		}
	}
}
