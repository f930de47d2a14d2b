package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// blobEventData is data of a Microsoft.Storage blob event.
type blobEventData struct {
	API                string `json:"api"`
	ClientRequestID    string `json:"clientRequestId"`
	RequestID          string `json:"requestId"`
	ETag               string `json:"eTag"`
	ContentType        string `json:"contentType"`
	ContentLength      *int64 `json:"contentLength"`
	BlobType           string `json:"blobType"`
	URL                string `json:"url"`
	Sequencer          string `json:"sequencer"`
	StorageDiagnostics struct {
		BatchID string `json:"batchId"`
	} `json:"storageDiagnostics"`
}

// subscribeToContainer subscribes hook to the system topic's events of one
// container (Azurite is shared by parallel tests).
func subscribeToContainer(t *testing.T, emu *testkit.Emulator, systemTopic, name, hookURL, container string) {
	t.Helper()
	emu.CreateSystemTopicEventSubscription(systemTopic, name, armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hookURL),
		Filter:      &armeventgrid.EventSubscriptionFilter{SubjectBeginsWith: to.Ptr(testkit.BlobSubject(container, ""))},
	})
}

// An unmodified azblob upload to Azurite raises one BlobCreated with
// Azure's data fields; a delete raises one BlobDeleted. Against the
// shipped binary.
func TestStorageSystemTopicBlobEventsFromAzuriteAgainstBinary(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	container := az.newContainer(t)
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation", "--azure-storage", az.conn)
	emu := testkit.Connect(t, proc.Endpoints["http"])
	ctx := context.Background()

	st := emu.CreateStorageSystemTopic("blobs", "devstoreaccount1")
	if *st.Properties.TopicType != "Microsoft.Storage.StorageAccounts" || *st.Properties.Source != testkit.StorageAccountID("devstoreaccount1") {
		t.Fatalf("system topic %+v", *st.Properties)
	}
	hook := fakes.NewWebhook(t)
	subscribeToContainer(t, emu, "blobs", "uploads", hook.URL(), container)

	up, err := az.client.UploadBuffer(ctx, container, "dir/report 1.txt", []byte("hello"), &azblob.UploadBufferOptions{
		HTTPHeaders: &blob.HTTPHeaders{BlobContentType: to.Ptr("text/plain")},
	})
	if err != nil {
		t.Fatal(err)
	}
	emu.SyncStorageEvents()
	emu.WaitForDeliveries(testkit.Filter{Subscription: "uploads"}, 1)
	emu.SyncStorageEvents() // nothing changed: nothing more
	emu.Settle()
	events := hook.Events()
	if len(events) != 1 {
		t.Fatalf("%d events after one upload, want 1: %+v", len(events), events)
	}
	ev := events[0]
	var d blobEventData
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		t.Fatal(err)
	}
	if ev.Type != "Microsoft.Storage.BlobCreated" || ev.Topic != testkit.StorageAccountID("devstoreaccount1") ||
		ev.Subject != testkit.BlobSubject(container, "dir/report 1.txt") {
		t.Errorf("envelope %+v", ev)
	}
	if d.API != "PutBlob" || d.ETag != strings.Trim(string(*up.ETag), `"`) || d.ContentType != "text/plain" ||
		d.ContentLength == nil || *d.ContentLength != 5 || d.BlobType != "BlockBlob" ||
		!strings.HasSuffix(d.URL, "/devstoreaccount1/"+container+"/dir/report%201.txt") ||
		len(d.Sequencer) != 32 || d.RequestID == "" || d.ClientRequestID == "" || d.StorageDiagnostics.BatchID == "" {
		t.Errorf("data %+v (upload ETag %s)", d, *up.ETag)
	}

	if _, err := az.client.DeleteBlob(ctx, container, "dir/report 1.txt", nil); err != nil {
		t.Fatal(err)
	}
	emu.SyncStorageEvents()
	emu.WaitForDeliveries(testkit.Filter{Subscription: "uploads"}, 2)
	events = hook.Events()
	if len(events) != 2 || events[1].Type != "Microsoft.Storage.BlobDeleted" {
		t.Fatalf("after the delete: %+v", events)
	}
	var del blobEventData
	_ = json.Unmarshal(events[1].Data, &del)
	if del.API != "DeleteBlob" || del.ContentLength != nil || del.Sequencer <= d.Sequencer {
		t.Errorf("BlobDeleted data %+v after %+v", del, d)
	}
}

// Deleting a container raises no BlobDeleted for its blobs, as in Azure,
// where BlobDeleted is raised by DeleteBlob only. A blob written in the
// same scan to another container still raises its BlobCreated.
func TestDeletingAContainerRaisesNoBlobDeleted(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	gone, other := az.newContainer(t), az.newContainer(t)
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation", "--azure-storage", az.conn)
	emu := testkit.Connect(t, proc.Endpoints["http"])
	ctx := context.Background()
	emu.CreateStorageSystemTopic("containers", "devstoreaccount1")
	hook := fakes.NewWebhook(t)
	subscribeToContainer(t, emu, "containers", "gone", hook.URL(), gone)
	subscribeToContainer(t, emu, "containers", "other", hook.URL(), other)

	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		if _, err := az.client.UploadBuffer(ctx, gone, name, []byte(name), nil); err != nil {
			t.Fatal(err)
		}
	}
	emu.SyncStorageEvents()
	emu.WaitForDeliveries(testkit.Filter{Subscription: "gone"}, 3)

	if _, err := az.client.DeleteContainer(ctx, gone, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := az.client.UploadBuffer(ctx, other, "marker.txt", []byte("m"), nil); err != nil {
		t.Fatal(err)
	}
	emu.SyncStorageEvents()
	emu.WaitForDeliveries(testkit.Filter{Subscription: "other"}, 1)
	emu.Settle()
	for _, ev := range hook.Events() {
		if ev.Type == "Microsoft.Storage.BlobDeleted" {
			t.Errorf("a BlobDeleted for a blob of the deleted container: %s", ev.Subject)
		}
	}
	if n := len(hook.Events()); n != 4 {
		t.Errorf("%d events, want 3 BlobCreated of the deleted container's blobs and 1 of the marker", n)
	}
}

// EG-25: a dead-letter blob GridBridge writes raises a BlobCreated too.
func TestEG25_DeadLetterBlobRaisesBlobCreated(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	container := az.newContainer(t)
	emu := testkit.Start(t, testkit.WithAzureStorage(az.conn))
	emu.CreateStorageSystemTopic("blobs", "devstoreaccount1")
	watcher := fakes.NewWebhook(t)
	subscribeToContainer(t, emu, "blobs", "dead-letters", watcher.URL(), container)

	failing := fakes.NewWebhook(t, fakes.Always(400))
	subscribeWithDeadLetters(t, emu, "audit-orders", failing.URL(), container, 30)
	publish(t, emu, "order-9")
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit-orders", Outcome: "BadRequest"}, 1)
	emu.Advance(5 * time.Minute) // EG-21: written five minutes later
	if n := len(emu.DeadLetters(testkit.Filter{Subscription: "audit-orders"})); n != 1 {
		t.Fatalf("%d dead letters", n)
	}
	emu.SyncStorageEvents()
	emu.WaitForDeliveries(testkit.Filter{Subscription: "dead-letters"}, 1)
	emu.Settle()
	events := watcher.Events()
	if len(events) != 1 || events[0].Type != "Microsoft.Storage.BlobCreated" ||
		!strings.HasPrefix(events[0].Subject, testkit.BlobSubject(container, "AUDIT-ORDERS/2026/1/1/0/")) {
		t.Fatalf("events %+v", events)
	}
	var d blobEventData
	_ = json.Unmarshal(events[0].Data, &d)
	if d.ContentType != "application/json" || d.BlobType != "BlockBlob" || d.ContentLength == nil || *d.ContentLength == 0 {
		t.Fatalf("data %+v", d)
	}
}

// An event subscription whose scope is the storage account itself (as
// `az eventgrid event-subscription create --source-resource-id` makes
// them) gets a system topic made for it, and the account's blob events.
func TestStorageAccountScopedSubscriptionGetsItsSystemTopic(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	container := az.newContainer(t)
	emu := testkit.Start(t, testkit.WithAzureStorage(az.conn))
	ctx := context.Background()
	hook := fakes.NewWebhook(t)
	emu.CreateScopedEventSubscription(testkit.StorageAccountID("devstoreaccount1"), "account-uploads", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()),
		Filter: &armeventgrid.EventSubscriptionFilter{
			SubjectBeginsWith:  to.Ptr(testkit.BlobSubject(container, "")),
			IncludedEventTypes: []*string{to.Ptr("Microsoft.Storage.BlobCreated")},
		},
	})
	pager := emu.ARM().NewSystemTopicsClient().NewListByResourceGroupPager(testkit.ResourceGroup, nil)
	page, err := pager.NextPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Value) != 1 || *page.Value[0].Properties.Source != testkit.StorageAccountID("devstoreaccount1") {
		t.Fatalf("system topics %+v", page.Value)
	}
	if _, err := az.client.UploadBuffer(ctx, container, "b.json", []byte("{}"), nil); err != nil {
		t.Fatal(err)
	}
	emu.SyncStorageEvents()
	emu.WaitForDeliveries(testkit.Filter{Subscription: "account-uploads"}, 1)
	emu.Settle()
	if ev := hook.Events(); len(ev) != 1 || ev[0].Subject != testkit.BlobSubject(container, "b.json") {
		t.Fatalf("events %+v", ev)
	}

	// A subscription on a storage account GridBridge was not given is refused.
	_, err = emu.ARM().NewEventSubscriptionsClient().BeginCreateOrUpdate(ctx, testkit.StorageAccountID("elsewhere"), "nope-sub",
		armeventgrid.EventSubscription{Properties: &armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL())}}, nil)
	if err == nil || !strings.Contains(err.Error(), "400") {
		t.Fatalf("subscription on an unknown account: %v", err)
	}
}
