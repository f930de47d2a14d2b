package scheduler_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	schedsdk "github.com/aws/aws-sdk-go-v2/service/scheduler"
	"github.com/aws/aws-sdk-go-v2/service/scheduler/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// missingDedup is what SQS answers a FIFO message without a deduplication
// id on a queue without content-based deduplication.
const missingDedup = "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly"

// receive reads up to 10 messages of a queue through the SQS API, with
// their system and message attributes.
func (h *harness) receive(url string) []sqstypes.Message {
	h.T.Helper()
	out, err := h.queues.ReceiveMessage(ctx(h.T), &sqssdk.ReceiveMessageInput{
		QueueUrl: aws.String(url), MaxNumberOfMessages: 10, MessageAttributeNames: []string{"All"},
		MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll},
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return out.Messages
}

func fifoTarget(arn, input string) *types.Target {
	return &types.Target{
		Arn: aws.String(arn), RoleArn: aws.String(role), Input: aws.String(input),
		SqsParameters: &types.SqsParameters{MessageGroupId: aws.String("g1")},
	}
}

// TestFIFOQueueTargetSendsNoDeduplicationID: Scheduler sends a FIFO
// target's message in the SqsParameters group and with no deduplication id
// of its own, so the queue's content-based deduplication (which Scheduler
// requires of it) deduplicates it: an Input that differs on every
// invocation arrives each time, the same Input twice within SQS's five
// minutes once. A FIFO target needs a MessageGroupId.
func TestFIFOQueueTargetSendsNoDeduplicationID(t *testing.T) {
	h := startTest(t)
	cbd := map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"}
	eachURL, each := facetest.SQSQueue(t, h.queues, "each.fifo", cbd)
	sameURL, same := facetest.SQSQueue(t, h.queues, "same.fifo", cbd)

	_, err := h.client.CreateSchedule(ctx(t), &schedsdk.CreateScheduleInput{
		Name: aws.String("nogroup"), ScheduleExpression: aws.String("rate(1 minute)"),
		FlexibleTimeWindow: &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeOff}, Target: sqsTarget(each),
	})
	apiError(t, err, "ValidationException", "")
	h.create("each", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(1 minute)"),
		Target: fifoTarget(each, `{"run":"<aws.scheduler.execution-id>"}`)})
	h.create("same", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(1 minute)"),
		Target: fifoTarget(same, `{"n":1}`)})
	h.advance(2 * time.Minute)

	got := h.receive(eachURL)
	if len(got) != 2 || aws.ToString(got[0].Body) == aws.ToString(got[1].Body) {
		t.Fatalf("each.fifo holds %d messages, want 2 different ones", len(got))
	}
	for i, m := range got {
		sum := sha256.Sum256([]byte(aws.ToString(m.Body)))
		if m.Attributes["MessageGroupId"] != "g1" || m.Attributes["MessageDeduplicationId"] != hex.EncodeToString(sum[:]) {
			t.Fatalf("message %d: group %q, deduplication id %q; want g1 and the SHA-256 of the body",
				i, m.Attributes["MessageGroupId"], m.Attributes["MessageDeduplicationId"])
		}
	}
	if n := len(h.attempts(map[string]string{"schedule": "same"})); n != 2 {
		t.Fatalf("schedule same made %d attempts, want 2", n)
	}
	if got := h.receive(sameURL); len(got) != 1 || aws.ToString(got[0].Body) != `{"n":1}` {
		t.Fatalf("same.fifo holds %d messages, want the one the queue did not deduplicate", len(got))
	}
}

// TestFIFOQueueWithoutContentDeduplicationFailsTheInvocation: CreateSchedule
// accepts a FIFO queue without content-based deduplication, as AWS does;
// each invocation fails with SQS's InvalidParameterValue, a client error
// Scheduler does not retry: it goes to the dead-letter queue at once with
// SQS's code and message, or, without one, is dropped and counted.
func TestFIFOQueueWithoutContentDeduplicationFailsTheInvocation(t *testing.T) {
	h := startTest(t)
	plainURL, plain := facetest.SQSQueue(t, h.queues, "plain.fifo", map[string]string{"FifoQueue": "true"})
	dlqURL, dlq := facetest.SQSQueue(t, h.queues, "dlq", nil)
	retries := &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(3)}
	withDLQ := fifoTarget(plain, `{"n":1}`)
	withDLQ.RetryPolicy, withDLQ.DeadLetterConfig = retries, &types.DeadLetterConfig{Arn: aws.String(dlq)}
	withoutDLQ := fifoTarget(plain, `{"n":2}`)
	withoutDLQ.RetryPolicy = retries
	h.create("dl", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("at(2026-03-01T12:05:00)"), Target: withDLQ})
	h.create("none", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("at(2026-03-01T12:05:00)"), Target: withoutDLQ})
	h.advance(time.Hour)

	if got := h.receive(plainURL); len(got) != 0 {
		t.Fatalf("the queue took %d messages", len(got))
	}
	var executionID string
	for _, schedule := range []string{"dl", "none"} {
		attempts := h.attempts(map[string]string{"schedule": schedule})
		if len(attempts) != 1 || attempts[0].Outcome != "InvalidParameterValue" || attempts[0].Message != missingDedup {
			t.Fatalf("schedule %s attempts: %+v", schedule, attempts)
		}
		if schedule == "dl" {
			executionID = attempts[0].EventIDs[0]
		}
	}
	dls := h.receive(dlqURL)
	if len(dls) != 1 || aws.ToString(dls[0].Body) != `{"n":1}` {
		t.Fatalf("%d dead letters, want the one of schedule dl", len(dls))
	}
	attrs := map[string]string{}
	for name, v := range dls[0].MessageAttributes {
		attrs[name] = aws.ToString(v.StringValue)
	}
	want := map[string]string{
		"ERROR_CODE": "InvalidParameterValue", "ERROR_MESSAGE": missingDedup, "EXECUTION_ID": executionID, "RETRY_ATTEMPTS": "0",
		"SCHEDULE_ARN": "arn:aws:scheduler:us-east-1:123456789012:schedule/default/dl", "TARGET_ARN": plain,
	}
	if len(attrs) != len(want) {
		t.Fatalf("dead letter attributes %v, want %v", attrs, want)
	}
	for k, v := range want {
		if attrs[k] != v {
			t.Fatalf("%s = %q, want %q (all: %v)", k, attrs[k], v, attrs)
		}
	}
	dropped := h.Entries(engine.Filter{Kind: engine.KindDrop, Labels: map[string]string{"schedule": "none"}})
	if len(dropped) != 1 {
		t.Fatalf("schedule none: %d drops in the journal, want 1", len(dropped))
	}
}
