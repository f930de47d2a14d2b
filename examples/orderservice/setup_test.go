package orderservice_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/examples/orderservice"
	"github.com/gridbridge/gridbridge/testkit"
)

// newShop creates what the order service publishes to, the Event Grid
// topic "orders" and the EventBridge bus "shop", and returns the service
// configured with their endpoint and key, the way a deployment configures
// it. Only the configuration knows it talks to GridBridge.
func newShop(t *testing.T, emu *testkit.Emulator) *orderservice.Service {
	t.Helper()
	ctx := context.Background()
	topic := emu.CreateTopic("orders", nil)
	keys, err := emu.ARM().NewTopicsClient().ListSharedAccessKeys(ctx, testkit.ResourceGroup, "orders", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emu.EventBridge().CreateEventBus(ctx, &eventbridge.CreateEventBusInput{Name: aws.String("shop")}); err != nil {
		t.Fatal(err)
	}
	svc, err := orderservice.New(orderservice.Config{
		TopicEndpoint: *topic.Properties.Endpoint,
		TopicKey:      *keys.Key1,
		HTTPClient:    emu.HTTPClient(), // trusts GridBridge's certificate authority
		EventBus:      "shop",
		AWS:           emu.AWSConfig(), // GridBridge's endpoint, test credentials
	})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// placeOrder places an order of totalCents, failing t if the service fails.
func placeOrder(t *testing.T, svc *orderservice.Service, id string, totalCents int) {
	t.Helper()
	if err := svc.PlaceOrder(context.Background(), orderservice.Order{ID: id, Customer: "ada", TotalCents: totalCents}); err != nil {
		t.Fatal(err)
	}
}

// routeBigOrders adds the rule "big-orders" to the bus "shop": orders of
// 1000.00 or more go to target, a queue ARN.
func routeBigOrders(t *testing.T, emu *testkit.Emulator, target ebtypes.Target) {
	t.Helper()
	ctx := context.Background()
	eb := emu.EventBridge()
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{
		EventBusName: aws.String("shop"),
		Name:         aws.String("big-orders"),
		EventPattern: aws.String(`{"source":["shop.orders"],"detail-type":["Orders.Placed"],"detail":{"totalCents":[{"numeric":[">=",100000]}]}}`),
	}); err != nil {
		t.Fatal(err)
	}
	out, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{EventBusName: aws.String("shop"), Rule: aws.String("big-orders"),
		Targets: []ebtypes.Target{target}})
	if err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v, %v", out, err)
	}
}

// queueARN is the ARN of an SQS queue in the emulator's account and region.
func queueARN(name string) string {
	return "arn:aws:sqs:" + testkit.AWSRegion + ":" + testkit.AWSAccount + ":" + name
}

// sqsServer is a real SQS server, read with the SQS SDK as a consumer would.
type sqsServer struct{ client *sqs.Client }

func newSQSServer(endpoint string) sqsServer {
	return sqsServer{client: sqs.New(sqs.Options{
		BaseEndpoint: aws.String(endpoint),
		Region:       testkit.AWSRegion,
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
	})}
}

// queue is one SQS queue: its URL for the SDK, its ARN for EventBridge.
type queue struct{ url, arn string }

// createQueue creates a queue named prefix plus a random suffix: the
// server is shared by every test of the run.
func (s sqsServer) createQueue(t *testing.T, prefix string) queue {
	t.Helper()
	name := prefix + "-" + uuid.NewString()[:8]
	out, err := s.client.CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return queue{url: *out.QueueUrl, arn: queueARN(name)}
}

// receive waits for n messages with SQS long polling (no sleeps), with
// their message attributes.
func (s sqsServer) receive(t *testing.T, q queue, n int) []sqstypes.Message {
	t.Helper()
	var got []sqstypes.Message
	for deadline := time.Now().Add(testkit.DefaultWait); len(got) < n && time.Now().Before(deadline); {
		out, err := s.client.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(q.url), MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageAttributeNames: []string{"All"},
		})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out.Messages...)
	}
	if len(got) < n {
		t.Fatalf("queue %s: %d messages, want %d", q.arn, len(got), n)
	}
	return got
}
