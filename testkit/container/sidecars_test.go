package container_test

import (
	"context"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
	"github.com/gridbridge/gridbridge/testkit/container"
)

// The in-process twin uses the Azurite and SQS server ./scripts/test.sh
// starts; the container test starts its own as sidecars.
func TestDeadLettersInRealServices_InProcess(t *testing.T) {
	t.Parallel()
	storage, sqsEndpoint := testenv.AzureStorage(t), testenv.SQSEndpoint(t)
	emu := testkit.Start(t, testkit.WithAzureStorage(storage), testkit.WithSQSEndpoint(sqsEndpoint))
	deadLettersInRealServices(t, emu, storage, sqsEndpoint)
}

func TestDeadLettersInRealServices_Container(t *testing.T) {
	t.Parallel()
	container.SkipIfNoDocker(t)
	// Where no registry answers, the sidecars' images cannot be had.
	container.SkipUnlessImages(t, container.DefaultAzuriteImage, container.DefaultLocalStackImage)
	c := runContainer(t, container.WithAzurite(""), container.WithSQS(""))
	ctx := context.Background()
	storage, err := c.AzuriteConnectionString(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sqsEndpoint, err := c.SQSEndpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	deadLettersInRealServices(t, c.Emulator(t), storage, sqsEndpoint)
}

// deadLettersInRealServices: an Event Grid dead letter becomes a blob in
// Azurite and an EventBridge one a message in a real SQS queue, both read
// back with the official SDKs the way a user's own tooling reads them.
func deadLettersInRealServices(t *testing.T, emu *testkit.Emulator, storage, sqsEndpoint string) {
	ctx := context.Background()
	suffix := uuid.NewString()[:8] // Azurite and the SQS server may be shared
	blobContainer := "dead-" + suffix
	blobs, err := azblob.NewClientFromConnectionString(storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := blobs.CreateContainer(ctx, blobContainer, nil); err != nil {
		t.Fatal(err)
	}
	queues := sqs.New(sqs.Options{BaseEndpoint: aws.String(sqsEndpoint), Region: testkit.AWSRegion,
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	dlq, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("dlq-" + suffix)})
	if err != nil {
		t.Fatal(err)
	}

	emu.CreateTopic("orders", nil)
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination:           serviceBusQueue("audit"),
		DeadLetterDestination: deadLetterBlobs(blobContainer),
	})
	eb := emu.EventBridge()
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("all-orders"), EventPattern: aws.String(`{"source":["shop.orders"]}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("all-orders"), Targets: []ebtypes.Target{{
		Id: aws.String("billing"), Arn: aws.String("arn:aws:lambda:us-east-1:000000000000:function:billing"),
		RetryPolicy:      &ebtypes.RetryPolicy{MaximumRetryAttempts: aws.Int32(0)},
		DeadLetterConfig: &ebtypes.DeadLetterConfig{Arn: aws.String("arn:aws:sqs:us-east-1:000000000000:dlq-" + suffix)},
	}}}); err != nil {
		t.Fatal(err)
	}
	// Both destinations refuse: 400 is never retried by Event Grid, and the
	// EventBridge target has no retries.
	emu.FailDeliveries(testkit.Filter{Subscription: "audit"}, 400, 0)
	emu.FailDeliveries(testkit.Filter{Rule: "all-orders", Target: "billing"}, 500, 0)

	if _, err := emu.EventGridPublisher("orders").PublishEvents(ctx, []azeventgrid.Event{{
		ID: to.Ptr("order-9"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/9"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: map[string]int{"total": 9},
	}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{{
		Source: aws.String("shop.orders"), DetailType: aws.String("Orders.Placed"), Detail: aws.String(`{"total":9}`)}}}); err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 1)
	emu.WaitForDeliveries(testkit.Filter{Rule: "all-orders"}, 1)
	emu.Advance(5 * time.Minute) // Event Grid writes a dead letter 5 minutes after giving up

	records, err := testkit.ReadDeadLetterBlobs(ctx, storage, blobContainer)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 1 || records[0].ID != "order-9" || records[0].DeadLetterReason != "UndeliverableDueToClientError" {
		t.Errorf("dead-letter blobs %+v, want order-9 refused", records)
	}
	got, err := queues.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: dlq.QueueUrl, WaitTimeSeconds: 5,
		MessageAttributeNames: []string{"All"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 1 || aws.ToString(got.Messages[0].MessageAttributes["ERROR_CODE"].StringValue) == "" {
		t.Errorf("dead-letter queue %+v, want one message with ERROR_CODE", got.Messages)
	}
}
