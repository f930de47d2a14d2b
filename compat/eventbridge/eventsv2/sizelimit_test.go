package eventsv2

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// An SQS target takes what its queue's MaximumMessageSize takes (EB-8): an
// event too large for the queue is REQUEST_TOO_LARGE, by SQS's own refusal,
// and one that fits a smaller limit than SQS's 1 MiB is delivered.
func TestEB8_TargetFollowsItsQueuesMaximumMessageSize(t *testing.T) {
	env, h, bus := newSQSHarness(t)
	dlqURL, dlqArn := env.queue(t, "dlq", false)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "gb-eb2-small-" + hex.EncodeToString(b)
	out, err := env.client.CreateQueue(t.Context(), &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: map[string]string{"MaximumMessageSize": "2048"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := env.client.GetQueueAttributes(t.Context(), &sqs.GetQueueAttributesInput{QueueUrl: out.QueueUrl, AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameQueueArn}})
	if err != nil {
		t.Fatal(err)
	}
	small := got.Attributes[string(types.QueueAttributeNameQueueArn)]
	h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": small},
		"RetryPolicy": m{"MaxRetryAttempts": 0}, "OnFailureConfiguration": m{"Arn": dlqArn}})
	h.put(bus, m{"Detail": `{"p":"` + strings.Repeat("a", 100) + `"}`}, m{"Detail": `{"p":"` + strings.Repeat("a", 3000) + `"}`})
	h.settle()
	if n := len(env.receive(t, aws.ToString(out.QueueUrl), 1)); n != 1 {
		t.Fatalf("%d messages on the queue, want the small event", n)
	}
	rec := recordOf(t, env.receive(t, dlqURL, 1)[0])
	if rec.ErrorCode != CodeRequestTooLarge {
		t.Fatalf("record = %+v", rec)
	}
}
