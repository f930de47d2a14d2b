package testkit

import (
	"context"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// TopicID is the ARM id of an Event Grid topic in ResourceGroup, as
// CreateTopic makes it:
//
//	testkit.TopicID("orders")
//	// /subscriptions/00000000-…/resourceGroups/gridbridge/providers/Microsoft.EventGrid/topics/orders
func TopicID(topic string) string {
	return "/subscriptions/" + SubscriptionID + "/resourceGroups/" + ResourceGroup +
		"/providers/Microsoft.EventGrid/topics/" + topic
}

// StorageAccountID is the ARM id of a storage account, for dead-letter
// destinations and Storage Queue destinations. The emulator writes to the
// account of that name among its --azure-storage accounts, or to Azurite's
// devstoreaccount1 when it is not among them:
//
//	dl := &armeventgrid.StorageBlobDeadLetterDestination{
//		EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
//		Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
//			ResourceID: to.Ptr(testkit.StorageAccountID("devstoreaccount1")), BlobContainerName: to.Ptr("dead")},
//	}
func StorageAccountID(account string) string {
	return "/subscriptions/" + SubscriptionID + "/resourceGroups/" + ResourceGroup +
		"/providers/Microsoft.Storage/storageAccounts/" + account
}

// WebHookDestination is a WebHook destination for url:
//
//	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
//		Destination: testkit.WebHookDestination(hook.URL()),
//	})
func WebHookDestination(url string) *armeventgrid.WebHookEventSubscriptionDestination {
	return &armeventgrid.WebHookEventSubscriptionDestination{
		EndpointType: ptr(armeventgrid.EndpointTypeWebHook),
		Properties:   &armeventgrid.WebHookEventSubscriptionDestinationProperties{EndpointURL: ptr(url)},
	}
}

// CreateEventSubscription creates (or replaces) the event subscription name
// of topic (in ResourceGroup) through armeventgrid, waits until ARM has
// provisioned it (a WebHook answers its validation handshake inside the
// call) and returns it as ARM answered:
//
//	sub := emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
//		Destination: testkit.WebHookDestination(hook.URL()),
//		RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](3)},
//	})
func (e *Emulator) CreateEventSubscription(topic, name string, props armeventgrid.EventSubscriptionProperties) armeventgrid.EventSubscription {
	e.t.Helper()
	got, err := e.TryCreateEventSubscription(topic, name, props)
	if err != nil {
		e.fatalf("creating event subscription %q of topic %q: %v", name, topic, err)
	}
	return got
}

// TryCreateEventSubscription is CreateEventSubscription returning ARM's
// error (an *azcore.ResponseError) instead of failing the test, for tests
// of what ARM refuses:
//
//	_, err := emu.TryCreateEventSubscription("orders", "bad", props)
//	var re *azcore.ResponseError
//	if !errors.As(err, &re) || re.StatusCode != 400 { … }
func (e *Emulator) TryCreateEventSubscription(topic, name string, props armeventgrid.EventSubscriptionProperties) (armeventgrid.EventSubscription, error) {
	ctx := context.Background()
	poller, err := e.ARM().NewEventSubscriptionsClient().BeginCreateOrUpdate(ctx, TopicID(topic), name,
		armeventgrid.EventSubscription{Properties: &props}, nil)
	if err != nil {
		return armeventgrid.EventSubscription{}, err
	}
	resp, err := poller.PollUntilDone(ctx, nil)
	return resp.EventSubscription, err
}
