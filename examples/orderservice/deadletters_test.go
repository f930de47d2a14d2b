package orderservice_test

import (
	"context"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/aws/aws-sdk-go-v2/aws"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// A subscriber that fails all day: Event Grid retries on its schedule
// (10 s, 30 s, 1 min, 5 min, 10 min, 30 min, 1 h, 3 h, 6 h …) until the 10
// attempts the subscription allows are used up, then writes the order as a
// dead-letter blob to Azurite. One Advance plays the whole day.
func TestADayOfFailures_EventGridDeadLettersToAzurite(t *testing.T) {
	t.Parallel()
	storage := testenv.AzureStorage(t) // Azurite's connection string; skips without it, unless in CI
	blobContainer := createBlobContainer(t, storage)
	emu := testkit.Start(t, testkit.WithAzureStorage(storage))
	svc := newShop(t, emu)
	hook := fakes.NewWebhook(t, fakes.Always(500))
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()),
		RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](10), EventTimeToLiveInMinutes: to.Ptr[int32](1440)},
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				ResourceID:        to.Ptr(testkit.StorageAccountID("devstoreaccount1")),
				BlobContainerName: to.Ptr(blobContainer),
			},
		},
	})

	placeOrder(t, svc, "order-1", 4200)
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 1)
	emu.Advance(24 * time.Hour)

	// Read the blobs as your own dead-letter tooling would: the official
	// azblob SDK against Azurite, each blob parsed into typed records.
	// (emu.EventGridDeadLetters reads the same records without storage.)
	records, err := testkit.ReadDeadLetterBlobs(context.Background(), storage, blobContainer)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 1 {
		t.Fatalf("%d dead letters, want 1", len(records))
	}
	r := records[0]
	if r.ID != "order-1" || r.Subscription != "AUDIT" || r.DeadLetterReason != "MaxDeliveryAttemptsExceeded" ||
		r.DeliveryAttempts != 10 || r.LastHTTPStatusCode != 500 {
		t.Errorf("dead letter %+v, want order-1 after 10 attempts answered 500", r)
	}
}

// A target that fails all day: EventBridge retries with back-off (up to 185
// times within 24 hours) and then sends the event to the target's
// dead-letter queue, with attributes saying why. Read with the SQS SDK
// from the real SQS server.
func TestADayOfFailures_EventBridgeDeadLettersToSQS(t *testing.T) {
	t.Parallel()
	endpoint := testenv.SQSEndpoint(t)
	emu := testkit.Start(t, testkit.WithSQSEndpoint(endpoint))
	svc := newShop(t, emu)
	server := newSQSServer(endpoint)
	review, dlq := server.createQueue(t, "review"), server.createQueue(t, "review-dlq")
	routeBigOrders(t, emu, ebtypes.Target{
		Id:               aws.String("review"),
		Arn:              aws.String(review.arn),
		DeadLetterConfig: &ebtypes.DeadLetterConfig{Arn: aws.String(dlq.arn)},
	})
	// Count 0: the target fails until the fault is removed.
	emu.FailDeliveries(testkit.Filter{Rule: "big-orders", Target: "review"}, 500, 0)

	placeOrder(t, svc, "big", 250000)
	emu.WaitForDeliveries(testkit.Filter{Rule: "big-orders"}, 1)
	emu.Advance(24 * time.Hour)

	dead := server.receive(t, dlq, 1)
	if got := detailOf(t, *dead[0].Body); got.ID != "big" {
		t.Fatalf("dead-letter queue holds order %q, want the big one", got.ID)
	}
	attrs := map[string]string{}
	for name, v := range dead[0].MessageAttributes {
		attrs[name] = aws.ToString(v.StringValue)
	}
	want := map[string]string{
		"RULE_ARN":                  "arn:aws:events:us-east-1:000000000000:rule/shop/big-orders",
		"TARGET_ARN":                review.arn,
		"ERROR_CODE":                "ERROR_FROM_TARGET",
		"EXHAUSTED_RETRY_CONDITION": "MaximumRetryAttempts",
		"RETRY_ATTEMPTS":            "185",
	}
	for name, v := range want {
		if attrs[name] != v {
			t.Errorf("attribute %s = %q, want %q (all: %v)", name, attrs[name], v, attrs)
		}
	}
}

// createBlobContainer creates a uniquely named container in Azurite:
// Event Grid drops a dead letter whose container does not exist, as Azure
// does.
func createBlobContainer(t *testing.T, storage string) string {
	t.Helper()
	client, err := azblob.NewClientFromConnectionString(storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	name := "dead-letters-" + uuid.NewString()[:8]
	if _, err := client.CreateContainer(context.Background(), name, nil); err != nil {
		t.Fatal(err)
	}
	return name
}
