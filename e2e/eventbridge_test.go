package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

func TestEventBridgeFlowInProcess(t *testing.T) {
	t.Parallel()
	endpoint := testenv.SQSEndpoint(t)
	eventBridgeFlow(t, testkit.Start(t, testkit.WithSQSEndpoint(endpoint)), endpoint)
}

func TestEventBridgeFlowAgainstBinary(t *testing.T) {
	t.Parallel()
	endpoint := testenv.SQSEndpoint(t)
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--sqs-endpoint", endpoint)
	eventBridgeFlow(t, testkit.Connect(t, proc.Endpoints["http"], testkit.WithProbation()), endpoint)
}

// eventBridgeFlow: a rule with an SQS target and a failing Lambda target;
// the event reaches the real SQS queue in AWS's envelope; the Lambda target
// is retried at its back-off times and ends in the real SQS dead-letter
// queue with the six attributes (EB-3: classic RetryPolicy).
func eventBridgeFlow(t *testing.T, emu *testkit.Emulator, sqsEndpoint string) {
	ctx := context.Background()
	q := newSQS(t, sqsEndpoint)
	target := q.create(t, "orders")
	dlq := q.create(t, "orders-dlq")

	eb := emu.EventBridge()
	rule, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("placed"), EventPattern: aws.String(`{"source":["shop"],"detail":{"total":[{"numeric":[">",100]}]}}`)})
	if err != nil {
		t.Fatal(err)
	}
	emu.AddFault(testkit.Fault{Match: map[string]string{"rule": "placed", "target": "billing"}, Status: 500, Message: "function crashed"})
	out, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("placed"), Targets: []ebtypes.Target{
		{Id: aws.String("queue"), Arn: aws.String(target.arn)},
		{Id: aws.String("billing"), Arn: aws.String("arn:aws:lambda:us-east-1:000000000000:function:billing"),
			RetryPolicy:      &ebtypes.RetryPolicy{MaximumRetryAttempts: aws.Int32(2), MaximumEventAgeInSeconds: aws.Int32(3600)},
			DeadLetterConfig: &ebtypes.DeadLetterConfig{Arn: aws.String(dlq.arn)}},
	}})
	if err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v %v", out, err)
	}

	put, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
		{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"total":250}`)},
		{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"total":5}`)}, // no match
	}})
	if err != nil || put.FailedEntryCount != 0 {
		t.Fatalf("PutEvents: %+v %v", put, err)
	}
	eventID := *put.Entries[0].EventId

	delivered := q.receive(t, target, 1)
	var envelope map[string]any
	if err := json.Unmarshal([]byte(*delivered[0].Body), &envelope); err != nil {
		t.Fatal(err)
	}
	if envelope["id"] != eventID || envelope["source"] != "shop" || envelope["detail-type"] != "OrderPlaced" ||
		envelope["account"] != testkit.AWSAccount || envelope["region"] != testkit.AWSRegion || envelope["version"] != "0" {
		t.Fatalf("SQS target got %v", envelope)
	}
	if resources, ok := envelope["resources"].([]any); !ok || len(resources) != 0 {
		t.Errorf("resources = %v, want []", envelope["resources"])
	}

	emu.WaitForDeliveries(testkit.Filter{Rule: "placed", Target: "billing"}, 1)
	emu.Advance(time.Minute)
	attempts := emu.Deliveries(testkit.Filter{Rule: "placed", Target: "billing"})
	if len(attempts) != 3 {
		t.Fatalf("billing attempts = %d, want 1 + MaximumRetryAttempts 2", len(attempts))
	}
	dead := q.receive(t, dlq, 1)
	attrs := map[string]string{}
	for name, v := range dead[0].MessageAttributes {
		attrs[name] = aws.ToString(v.StringValue)
	}
	want := map[string]string{
		"RULE_ARN":                  *rule.RuleArn,
		"TARGET_ARN":                "arn:aws:lambda:us-east-1:000000000000:function:billing",
		"EXHAUSTED_RETRY_CONDITION": "MaximumRetryAttempts",
		"RETRY_ATTEMPTS":            "2",
	}
	for k, v := range want {
		if attrs[k] != v {
			t.Errorf("DLQ attribute %s = %q, want %q (all: %v)", k, attrs[k], v, attrs)
		}
	}
	for _, k := range []string{"ERROR_CODE", "ERROR_MESSAGE"} {
		if attrs[k] == "" {
			t.Errorf("DLQ attribute %s missing (all: %v)", k, attrs)
		}
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(*dead[0].Body), &body); err != nil || body["id"] != eventID {
		t.Fatalf("DLQ body = %s, want the event", *dead[0].Body)
	}
}

type sqsServer struct{ client *sqs.Client }

type queue struct{ url, arn string }

func newSQS(t *testing.T, endpoint string) sqsServer {
	return sqsServer{client: sqs.New(sqs.Options{
		BaseEndpoint: aws.String(endpoint), Region: testkit.AWSRegion,
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", ""), RetryMaxAttempts: 1,
	})}
}

func (s sqsServer) create(t *testing.T, prefix string) queue {
	t.Helper()
	name := fmt.Sprintf("%s-%d-%d", prefix, time.Now().UnixNano()%1e9, containerSeq.Add(1))
	out, err := s.client.CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return queue{url: *out.QueueUrl, arn: "arn:aws:sqs:" + testkit.AWSRegion + ":" + testkit.AWSAccount + ":" + name}
}

// receive waits (SQS long polling, up to 5 s per call) for n messages.
func (s sqsServer) receive(t *testing.T, q queue, n int) []sqstypes.Message {
	t.Helper()
	var got []sqstypes.Message
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < n && time.Now().Before(deadline) {
		out, err := s.client.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(q.url), MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageAttributeNames: []string{"All"},
		})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out.Messages...)
	}
	if len(got) < n {
		t.Fatalf("queue %s: got %d messages, want %d", q.arn, len(got), n)
	}
	return got
}
