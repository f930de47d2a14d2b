package testkit

import (
	"context"
	"fmt"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// SystemTopicID is the ARM id of a system topic in ResourceGroup.
func SystemTopicID(name string) string {
	return "/subscriptions/" + SubscriptionID + "/resourceGroups/" + ResourceGroup +
		"/providers/Microsoft.EventGrid/systemTopics/" + name
}

// BlobSubject is the subject of a blob's storage events; a subscription
// filtered with SubjectBeginsWith BlobSubject(container, "") sees one
// container only (useful when tests share one Azurite).
func BlobSubject(container, blob string) string {
	return "/blobServices/default/containers/" + container + "/blobs/" + blob
}

// CreateStorageSystemTopic creates a system topic for the storage account
// named account (one of the emulator's --azure-storage accounts, e.g.
// Azurite's devstoreaccount1): blobs written to it from now on raise
// Microsoft.Storage.BlobCreated and BlobDeleted events.
func (e *Emulator) CreateStorageSystemTopic(name, account string) armeventgrid.SystemTopic {
	e.t.Helper()
	poller, err := e.ARM().NewSystemTopicsClient().BeginCreateOrUpdate(context.Background(), ResourceGroup, name,
		armeventgrid.SystemTopic{Location: ptr("westus"), Properties: &armeventgrid.SystemTopicProperties{
			Source: ptr(StorageAccountID(account)), TopicType: ptr("Microsoft.Storage.StorageAccounts"),
		}}, nil)
	return created(e, fmt.Sprintf("system topic %q", name), poller, err).SystemTopic
}

// CreateSystemTopicEventSubscription creates (or replaces) an event
// subscription of a system topic through SystemTopicEventSubscriptionsClient:
//
//	emu.CreateSystemTopicEventSubscription("blobs", "uploads", armeventgrid.EventSubscriptionProperties{
//		Destination: testkit.WebHookDestination(hook.URL()),
//		Filter: &armeventgrid.EventSubscriptionFilter{
//			IncludedEventTypes: []*string{to.Ptr("Microsoft.Storage.BlobCreated")},
//			SubjectBeginsWith:  to.Ptr(testkit.BlobSubject("uploads", "")),
//		},
//	})
func (e *Emulator) CreateSystemTopicEventSubscription(systemTopic, name string, props armeventgrid.EventSubscriptionProperties) armeventgrid.EventSubscription {
	e.t.Helper()
	poller, err := e.ARM().NewSystemTopicEventSubscriptionsClient().BeginCreateOrUpdate(context.Background(), ResourceGroup, systemTopic, name,
		armeventgrid.EventSubscription{Properties: &props}, nil)
	return created(e, fmt.Sprintf("event subscription %q of system topic %q", name, systemTopic), poller, err).EventSubscription
}

// SyncStorageEvents makes the emulator list its watched storage accounts
// now: when it returns, the BlobCreated and BlobDeleted events of every
// blob written or deleted before the call are queued for delivery. Call it
// after a write, then wait for the delivery, instead of sleeping for the
// background poll:
//
//	client.UploadBuffer(ctx, "uploads", "a.txt", data, nil)
//	emu.SyncStorageEvents()
//	emu.WaitForDeliveries(testkit.Filter{Subscription: "uploads"}, 1)
func (e *Emulator) SyncStorageEvents() {
	e.t.Helper()
	if err := e.inspect.SyncStorageEvents(context.Background()); err != nil {
		e.fatalf("syncing storage events: %v", err)
	}
}

// SyncStorageEvents is POST /_emulator/eventgrid/storage/sync.
func (in *Inspector) SyncStorageEvents(ctx context.Context) error {
	return in.do(ctx, http.MethodPost, "/eventgrid/storage/sync", nil, nil)
}
