package eventbridge_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// missingDedup is SQS's answer to a FIFO message without a deduplication id
// on a queue without content-based deduplication, as EventBridge passes it
// on.
const missingDedup = "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly " +
	"(Service: AmazonSQS; Status Code: 400; Error Code: InvalidParameterValue)"

// TestFIFOQueueTarget: EventBridge sends a FIFO target's events in the group
// its SqsParameters name and with no deduplication id of its own, so the
// queue's content-based deduplication (which EventBridge requires of it)
// deduplicates them; they arrive in the order PutEvents accepted them.
func TestFIFOQueueTarget(t *testing.T) {
	h, c := startTest(t)
	queues := h.sqsClient()
	url, fifo := facetest.SQSQueue(t, queues, "orders.fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("f"), Arn: aws.String(fifo), SqsParameters: &types.SqsParameters{MessageGroupId: aws.String("group-1")}})

	var batch []types.PutEventsRequestEntry
	for range 10 {
		batch = append(batch, entry(`{}`))
	}
	out := must[*ebsdk.PutEventsOutput](t)(h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: batch}))
	h.settle()
	got := must[*sqssdk.ReceiveMessageOutput](t)(queues.ReceiveMessage(c, &sqssdk.ReceiveMessageInput{
		QueueUrl: aws.String(url), MaxNumberOfMessages: 10,
		MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll},
	}))
	if len(got.Messages) != 10 {
		t.Fatalf("%d messages, want 10", len(got.Messages))
	}
	for i, m := range got.Messages {
		body := aws.ToString(m.Body)
		sum := sha256.Sum256([]byte(body))
		if id := eventID(t, []byte(body)); id != aws.ToString(out.Entries[i].EventId) {
			t.Fatalf("message %d is event %s, want %s: out of order", i, id, aws.ToString(out.Entries[i].EventId))
		}
		if m.Attributes["MessageGroupId"] != "group-1" || m.Attributes["MessageDeduplicationId"] != hex.EncodeToString(sum[:]) {
			t.Fatalf("message %d: group %q, deduplication id %q; want group-1 and the SHA-256 of the body",
				i, m.Attributes["MessageGroupId"], m.Attributes["MessageDeduplicationId"])
		}
	}

	// A queue GridBridge creates for a FIFO target (it names a queue that
	// does not exist) has content-based deduplication.
	auto := "arn:aws:sqs:us-east-1:123456789012:auto.fifo"
	putTargets(t, h, "r", types.Target{Id: aws.String("auto"), Arn: aws.String(auto), SqsParameters: &types.SqsParameters{MessageGroupId: aws.String("g")}})
	putEvent(t, h, entry(`{}`))
	h.settle()
	if msgs := h.sqs.Messages(auto); len(msgs) != 1 || msgs[0].MessageGroupID != "g" {
		t.Fatalf("auto-created FIFO queue: %+v", msgs)
	}
	autoURL := must[*sqssdk.GetQueueUrlOutput](t)(queues.GetQueueUrl(c, &sqssdk.GetQueueUrlInput{QueueName: aws.String("auto.fifo")})).QueueUrl
	attrs := must[*sqssdk.GetQueueAttributesOutput](t)(queues.GetQueueAttributes(c, &sqssdk.GetQueueAttributesInput{
		QueueUrl: autoURL, AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameContentBasedDeduplication}}))
	if attrs.Attributes["ContentBasedDeduplication"] != "true" {
		t.Fatalf("auto-created FIFO queue attributes: %v", attrs.Attributes)
	}
}

// TestFIFOQueueTargetWithoutContentDeduplication: PutTargets accepts a FIFO
// queue without content-based deduplication, as AWS does; each event sent
// to it fails with SQS's InvalidParameterValue, a client error EventBridge
// does not retry: it goes to the dead-letter queue at once with SQS's
// answer, counted on the target's route and journalled. Without a
// dead-letter queue it is dropped and counted.
func TestFIFOQueueTargetWithoutContentDeduplication(t *testing.T) {
	h, c := startTest(t)
	queues := h.sqsClient()
	url, plain := facetest.SQSQueue(t, queues, "plain.fifo", map[string]string{"FifoQueue": "true"})
	ruleArn := putRule(t, h, "r", "", orderPattern)
	group := &types.SqsParameters{MessageGroupId: aws.String("g")}
	putTargets(t, h, "r",
		types.Target{Id: aws.String("dl"), Arn: aws.String(plain), SqsParameters: group,
			RetryPolicy: &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(3)}, DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}},
		types.Target{Id: aws.String("none"), Arn: aws.String(plain), SqsParameters: group})

	id := putEvent(t, h, entry(`{"n":1}`))
	h.settle()

	got := must[*sqssdk.ReceiveMessageOutput](t)(queues.ReceiveMessage(c, &sqssdk.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10}))
	if len(got.Messages) != 0 {
		t.Fatalf("the queue took %d messages", len(got.Messages))
	}
	dl, attrs := h.onlyDeadLetter()
	want := map[string]string{
		"RULE_ARN": ruleArn, "TARGET_ARN": plain, "ERROR_CODE": "SDK_CLIENT_ERROR", "ERROR_MESSAGE": missingDedup, "RETRY_ATTEMPTS": "0",
	}
	if !equalMaps(attrs, want) || eventID(t, dl.Body) != id {
		t.Fatalf("dead letter %s:\n got  %v\n want %v", dl.Body, attrs, want)
	}
	for target, wantMetrics := range map[string]engine.RouteMetrics{
		"dl":   {Queued: 1, Attempts: 1, DeadLettered: 1},
		"none": {Queued: 1, Attempts: 1, Dropped: 1},
	} {
		m, ok := h.Engine.RouteMetrics("eventbridge/" + account + "/" + region + "/default/r/" + target)
		if !ok || m.Queued != wantMetrics.Queued || m.Attempts != wantMetrics.Attempts || m.Retries != 0 || m.Delivered != 0 ||
			m.DeadLettered != wantMetrics.DeadLettered || m.Dropped != wantMetrics.Dropped {
			t.Fatalf("target %s metrics: %+v", target, m)
		}
		attempts := h.entries(engine.KindAttempt, map[string]string{"rule": "r", "target": target})
		if len(attempts) != 1 || attempts[0].Outcome != "SDK_CLIENT_ERROR" {
			t.Fatalf("target %s attempts: %+v", target, attempts)
		}
	}
}
