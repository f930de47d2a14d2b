package eventbridge_test

import (
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/internal/facetest"
	"github.com/gridbridge/gridbridge/internal/testbinary"
)

// TestBinaryFIFOTargets runs the binary, whose rule targets write to its own
// SQS: a FIFO queue with content-based deduplication takes the event; one
// without refuses it, and the dead-letter queue gets it with SQS's answer.
// The real clock and SQS long polling wait for the deliveries.
func TestBinaryFIFOTargets(t *testing.T) {
	t.Parallel()
	endpoint := testbinary.Start(t, "--no-jitter").Endpoints["http"]
	c := ctx(t)
	events := ebsdk.New(facetest.EventBridgeOptions(endpoint, account, region, http.DefaultClient))
	queues := sqssdk.NewFromConfig(facetest.AWSConfig(endpoint, account, region, http.DefaultClient))
	goodURL, good := facetest.SQSQueue(t, queues, "good.fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})
	plainURL, plain := facetest.SQSQueue(t, queues, "plain.fifo", map[string]string{"FifoQueue": "true"})
	dlqURL, dlq := facetest.SQSQueue(t, queues, "fifo-dlq", nil)

	must[*ebsdk.PutRuleOutput](t)(events.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("r"), EventPattern: aws.String(orderPattern)}))
	group := &types.SqsParameters{MessageGroupId: aws.String("g")}
	out := must[*ebsdk.PutTargetsOutput](t)(events.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("r"), Targets: []types.Target{
		{Id: aws.String("good"), Arn: aws.String(good), SqsParameters: group},
		{Id: aws.String("plain"), Arn: aws.String(plain), SqsParameters: group, DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlq)}},
	}}))
	if out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v", out.FailedEntries)
	}
	put := must[*ebsdk.PutEventsOutput](t)(events.PutEvents(c, &ebsdk.PutEventsInput{Entries: []types.PutEventsRequestEntry{entry(`{}`)}}))
	id := aws.ToString(put.Entries[0].EventId)

	receive := func(url string, n int) []sqstypes.Message {
		t.Helper()
		got := must[*sqssdk.ReceiveMessageOutput](t)(queues.ReceiveMessage(c, &sqssdk.ReceiveMessageInput{
			QueueUrl: aws.String(url), MaxNumberOfMessages: 10, WaitTimeSeconds: int32(10 * n),
			MessageAttributeNames: []string{"All"}, MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll},
		}))
		if len(got.Messages) != n {
			t.Fatalf("%s: %d messages, want %d", url, len(got.Messages), n)
		}
		return got.Messages
	}
	if m := receive(goodURL, 1)[0]; eventID(t, []byte(aws.ToString(m.Body))) != id || m.Attributes["MessageGroupId"] != "g" {
		t.Fatalf("FIFO message: %s %v", aws.ToString(m.Body), m.Attributes)
	}
	dl := receive(dlqURL, 1)[0]
	code, message := aws.ToString(dl.MessageAttributes["ERROR_CODE"].StringValue), aws.ToString(dl.MessageAttributes["ERROR_MESSAGE"].StringValue)
	if eventID(t, []byte(aws.ToString(dl.Body))) != id || code != "SDK_CLIENT_ERROR" || message != missingDedup {
		t.Fatalf("dead letter: %s %s %q", aws.ToString(dl.Body), code, message)
	}
	receive(plainURL, 0)
}
