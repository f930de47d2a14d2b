package blobupload_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"

	"github.com/gridbridge/gridbridge/examples/blobupload"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// Upload a blob to Azurite, my handler gets BlobCreated: a system topic on
// the storage account, a subscription to my webhook, an upload with the
// unmodified azblob SDK, then SyncStorageEvents (no sleeping for the
// background poll) and a wait for the delivery.
func TestUploadToAzurite_HandlerGetsBlobCreated(t *testing.T) {
	t.Parallel()
	storage := testenv.AzureStorage(t) // Azurite's connection string; skips without it, unless in CI
	emu := testkit.Start(t, testkit.WithAzureStorage(storage))
	ctx := context.Background()

	blobs, err := azblob.NewClientFromConnectionString(storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	container := fmt.Sprintf("uploads-%d", time.Now().UnixNano())
	if _, err := blobs.CreateContainer(ctx, container, nil); err != nil {
		t.Fatal(err)
	}

	handler := &blobupload.Handler{}
	webhook := httptest.NewTLSServer(handler)
	t.Cleanup(webhook.Close)

	emu.CreateStorageSystemTopic("uploads", "devstoreaccount1")
	emu.CreateSystemTopicEventSubscription("uploads", "thumbnails", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(webhook.URL + "/api/blobs"),
		Filter: &armeventgrid.EventSubscriptionFilter{
			IncludedEventTypes: []*string{to.Ptr("Microsoft.Storage.BlobCreated")},
			// Azurite is shared by parallel tests: only this test's container.
			SubjectBeginsWith: to.Ptr(testkit.BlobSubject(container, "")),
		},
	})

	if _, err := blobs.UploadBuffer(ctx, container, "cat.png", []byte("\x89PNG..."), &azblob.UploadBufferOptions{
		HTTPHeaders: &blob.HTTPHeaders{BlobContentType: to.Ptr("image/png")},
	}); err != nil {
		t.Fatal(err)
	}
	emu.SyncStorageEvents()
	emu.WaitForDeliveries(testkit.Filter{Subscription: "thumbnails", Outcome: "Success"}, 1)

	got := handler.Created()
	if len(got) != 1 {
		t.Fatalf("the handler saw %d uploads, want 1: %+v", len(got), got)
	}
	if c := got[0]; !strings.HasSuffix(c.URL, "/"+container+"/cat.png") || c.ContentType != "image/png" || c.ContentLength != 7 || c.ETag == "" {
		t.Fatalf("upload seen as %+v", c)
	}
}
