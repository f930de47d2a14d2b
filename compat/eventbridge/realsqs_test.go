package eventbridge_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	gbeb "github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// TestRealSQS delivers to, and dead-letters into, a real SQS server through
// the SQS sink, and reads the messages back with the AWS SDK.
func TestRealSQS(t *testing.T) {
	t.Parallel()
	h, client, suffix := newRealSQSHarness(t)
	c := ctx(t)
	targetURL, targetArn := facetest.SQSQueue(t, client, "gb-target-"+suffix, nil)
	dlqURL, dlqQueueArn := facetest.SQSQueue(t, client, "gb-dlq-"+suffix, nil)
	fifoURL, fifoArn := facetest.SQSQueue(t, client, "gb-fifo-"+suffix+".fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})

	ruleArn := putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r",
		types.Target{Id: aws.String("q"), Arn: aws.String(targetArn)},
		types.Target{Id: aws.String("fifo"), Arn: aws.String(fifoArn), SqsParameters: &types.SqsParameters{MessageGroupId: aws.String("g1")}},
		types.Target{Id: aws.String("failing"), Arn: aws.String("arn:aws:lambda:us-east-1:123456789012:function:f"),
			RetryPolicy: &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(1)}, DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqQueueArn)}})
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"target": "failing"}, Status: 500, Message: "boom"})

	id := putEvent(t, h, entry(`{"n":1}`))
	h.settle()
	h.Clock.Advance(time.Second)

	receive := func(url string) sqstypes.Message {
		t.Helper()
		out := must[*sqssdk.ReceiveMessageOutput](t)(client.ReceiveMessage(c, &sqssdk.ReceiveMessageInput{
			QueueUrl: aws.String(url), MaxNumberOfMessages: 10, WaitTimeSeconds: 2,
			MessageAttributeNames: []string{"All"}, MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{"All"},
		}))
		if len(out.Messages) != 1 {
			t.Fatalf("%s: %d messages, want 1", url, len(out.Messages))
		}
		return out.Messages[0]
	}
	var ev map[string]any
	msg := receive(targetURL)
	if err := json.Unmarshal([]byte(aws.ToString(msg.Body)), &ev); err != nil || ev["id"] != id {
		t.Fatalf("target message: %s", aws.ToString(msg.Body))
	}
	fifo := receive(fifoURL)
	if fifo.Attributes["MessageGroupId"] != "g1" {
		t.Fatalf("FIFO group: %v", fifo.Attributes)
	}
	dl := receive(dlqURL)
	got := map[string]string{}
	for name, v := range dl.MessageAttributes {
		got[name] = aws.ToString(v.DataType) + ":" + aws.ToString(v.StringValue)
	}
	want := map[string]string{
		"RULE_ARN": "String:" + ruleArn, "TARGET_ARN": "String:arn:aws:lambda:us-east-1:123456789012:function:f",
		"ERROR_CODE": "String:ERROR_FROM_TARGET", "ERROR_MESSAGE": "String:boom",
		"EXHAUSTED_RETRY_CONDITION": "String:MaximumRetryAttempts", "RETRY_ATTEMPTS": "String:1",
	}
	if !equalMaps(got, want) {
		t.Fatalf("DLQ attributes:\n got  %v\n want %v", got, want)
	}
	if err := json.Unmarshal([]byte(aws.ToString(dl.Body)), &ev); err != nil || ev["id"] != id {
		t.Fatalf("DLQ body: %s", aws.ToString(dl.Body))
	}
}

// TestRealSQSFIFOWithoutContentDeduplication: a real SQS server refuses
// a FIFO target's event when its queue has no content-based deduplication,
// and the dead letter carries what the server said.
func TestRealSQSFIFOWithoutContentDeduplication(t *testing.T) {
	t.Parallel()
	h, client, suffix := newRealSQSHarness(t)
	c := ctx(t)
	fifoURL, fifoArn := facetest.SQSQueue(t, client, "gb-plain-"+suffix+".fifo", map[string]string{"FifoQueue": "true"})
	dlqURL, dlqQueueArn := facetest.SQSQueue(t, client, "gb-fifo-dlq-"+suffix, nil)
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("fifo"), Arn: aws.String(fifoArn),
		SqsParameters: &types.SqsParameters{MessageGroupId: aws.String("g1")}, DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqQueueArn)}})
	id := putEvent(t, h, entry(`{"n":1}`))
	h.settle()

	dl := must[*sqssdk.ReceiveMessageOutput](t)(client.ReceiveMessage(c, &sqssdk.ReceiveMessageInput{
		QueueUrl: aws.String(dlqURL), MaxNumberOfMessages: 10, WaitTimeSeconds: 2, MessageAttributeNames: []string{"All"},
	}))
	if len(dl.Messages) != 1 {
		t.Fatalf("%d dead letters, want 1", len(dl.Messages))
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(aws.ToString(dl.Messages[0].Body)), &ev); err != nil || ev["id"] != id {
		t.Fatalf("DLQ body: %s", aws.ToString(dl.Messages[0].Body))
	}
	attrs := dl.Messages[0].MessageAttributes
	code, message := aws.ToString(attrs["ERROR_CODE"].StringValue), aws.ToString(attrs["ERROR_MESSAGE"].StringValue)
	if code != "SDK_CLIENT_ERROR" || !strings.Contains(message, "ContentBasedDeduplication") || !strings.Contains(message, "InvalidParameterValue)") {
		t.Fatalf("dead letter: %s %q", code, message)
	}
	left := must[*sqssdk.ReceiveMessageOutput](t)(client.ReceiveMessage(c, &sqssdk.ReceiveMessageInput{QueueUrl: aws.String(fifoURL), MaxNumberOfMessages: 10}))
	if len(left.Messages) != 0 {
		t.Fatalf("the queue took %d messages", len(left.Messages))
	}
}

// newRealSQSHarness is a harness whose SQS targets and dead letters go to
// the test environment's real SQS server, as with --sqs-endpoint, with a
// client of that server and a suffix that keeps this test's queue names
// apart from other runs'.
func newRealSQSHarness(t testing.TB) (h *harness, client *sqssdk.Client, suffix string) {
	t.Helper()
	endpoint := testenv.SQSEndpoint(t)
	h = newHarness(t, func(_ *gbeb.Config, queues *sqs.Config) { queues.Endpoint = endpoint })
	client = sqssdk.NewFromConfig(facetest.AWSConfig(endpoint, "test", region, nil))
	return h, client, fmt.Sprint(time.Now().UnixNano())
}
