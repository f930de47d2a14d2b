package eventbridge_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/internal/facetest"
)

// TestMissingQueueDeadLetterSaysWhatSQSSays: an SQS target whose queue
// does not exist is not retried (NO_RESOURCE), and its dead letter's
// ERROR_MESSAGE is SQS's own text, not GridBridge's sink error.
func TestMissingQueueDeadLetterSaysWhatSQSSays(t *testing.T) {
	t.Parallel()
	h, client, suffix := newRealSQSHarness(t)
	c := ctx(t)
	dlqURL, dlqArn := facetest.SQSQueue(t, client, "gb-missing-dlq-"+suffix, nil)
	missing := strings.TrimSuffix(dlqArn, "gb-missing-dlq-"+suffix) + "gb-never-created-" + suffix

	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("gone"), Arn: aws.String(missing),
		DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}})
	putEvent(t, h, entry(`{"n":1}`))
	h.settle()
	h.Clock.Advance(time.Second)

	out := must[*sqs.ReceiveMessageOutput](t)(client.ReceiveMessage(c, &sqs.ReceiveMessageInput{
		QueueUrl: aws.String(dlqURL), MaxNumberOfMessages: 10, WaitTimeSeconds: 2, MessageAttributeNames: []string{"All"},
	}))
	if len(out.Messages) != 1 {
		t.Fatalf("%d dead letters, want 1", len(out.Messages))
	}
	got := map[string]string{}
	for name, v := range out.Messages[0].MessageAttributes {
		got[name] = aws.ToString(v.StringValue)
	}
	want := "The specified queue does not exist or you do not have access to it. " +
		"(Service: AmazonSQS; Status Code: 400; Error Code: AWS.SimpleQueueService.NonExistentQueue)"
	if got["ERROR_CODE"] != "NO_RESOURCE" || got["ERROR_MESSAGE"] != want || got["RETRY_ATTEMPTS"] != "0" || got["TARGET_ARN"] != missing {
		t.Fatalf("dead-letter attributes %v", got)
	}
}
