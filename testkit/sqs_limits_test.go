package testkit_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/scheduler"
	schedtypes "github.com/aws/aws-sdk-go-v2/service/scheduler/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/testkit"
)

const sqsARN = "arn:aws:sqs:us-east-1:000000000000:"

// EventBridge's and Scheduler's SQS targets and dead-letter queues take
// what the queue takes: its MaximumMessageSize, up to SQS's 1 MiB. A
// message too large for its queue fails as SQS's client error, is not
// retried, and reaches the dead-letter queue.
func TestSQSTargetsFollowTheQueuesSizeLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := testkit.Start(t)
	eb := emu.EventBridge()
	if _, err := emu.SQS().CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("small"), Attributes: map[string]string{"MaximumMessageSize": "1024"}}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ rule, source, queue string }{{"big", "big", "large-events"}, {"small", "small", "small"}} {
		if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String(r.rule), EventPattern: aws.String(`{"source":["` + r.source + `"]}`)}); err != nil {
			t.Fatal(err)
		}
		if _, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String(r.rule), Targets: []ebtypes.Target{{
			Id: aws.String("q"), Arn: aws.String(sqsARN + r.queue), DeadLetterConfig: &ebtypes.DeadLetterConfig{Arn: aws.String(sqsARN + "dlq")},
		}}}); err != nil {
			t.Fatal(err)
		}
	}
	// An entry of the full 256 KB PutEvents takes makes an event, envelope
	// and all, larger than SQS's old 256 KiB limit.
	fixed := len("big") + len("d") + len(`{"p":""}`)
	for _, e := range []ebtypes.PutEventsRequestEntry{
		{Source: aws.String("big"), DetailType: aws.String("d"), Detail: aws.String(`{"p":"` + strings.Repeat("a", 256*1024-fixed) + `"}`)},
		{Source: aws.String("small"), DetailType: aws.String("d"), Detail: aws.String(`{"p":"` + strings.Repeat("a", 2000) + `"}`)},
	} {
		out, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{e}})
		if err != nil || out.FailedEntryCount != 0 {
			t.Fatalf("PutEvents %s: %+v, %v", aws.ToString(e.Source), out, err)
		}
	}
	emu.WaitForDeliveries(testkit.Filter{Rule: "big", Outcome: "Success"}, 1)
	if got := emu.ReceiveSQSMessages(emu.SQSQueueURL("large-events"), 1); len(*got[0].Body) <= 256*1024 {
		t.Fatalf("the event is %d bytes, not over 256 KiB", len(*got[0].Body))
	}
	emu.WaitForDeadLetters(testkit.Filter{Rule: "small"}, 1)
	if n := len(emu.Deliveries(testkit.Filter{Rule: "small"})); n != 1 {
		t.Fatalf("%d attempts: a message too large for its queue is not retried", n)
	}
	dl := emu.ReceiveSQSMessages(emu.SQSQueueURL("dlq"), 1)[0]
	code, msg := dl.MessageAttributes["ERROR_CODE"].StringValue, dl.MessageAttributes["ERROR_MESSAGE"].StringValue
	if aws.ToString(code) != "SDK_CLIENT_ERROR" || !strings.HasPrefix(aws.ToString(msg), "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.") {
		t.Fatalf("dead letter ERROR_CODE %q, ERROR_MESSAGE %q", aws.ToString(code), aws.ToString(msg))
	}

	// A schedule's input too large for its queue: SQS's error, no retry.
	if _, err := emu.Scheduler().CreateSchedule(ctx, &scheduler.CreateScheduleInput{
		Name: aws.String("tick"), ScheduleExpression: aws.String("rate(1 minute)"),
		FlexibleTimeWindow: &schedtypes.FlexibleTimeWindow{Mode: schedtypes.FlexibleTimeWindowModeOff},
		Target: &schedtypes.Target{Arn: aws.String(sqsARN + "small"), RoleArn: aws.String("arn:aws:iam::000000000000:role/scheduler"),
			Input: aws.String(strings.Repeat("s", 2000)), DeadLetterConfig: &schedtypes.DeadLetterConfig{Arn: aws.String(sqsARN + "schedule-dlq")}},
	}); err != nil {
		t.Fatal(err)
	}
	emu.Advance(time.Minute)
	emu.WaitForDeadLetters(testkit.ScheduleFilter("default", "tick"), 1)
	sdl := emu.ReceiveSQSMessages(emu.SQSQueueURL("schedule-dlq"), 1)[0]
	if c := aws.ToString(sdl.MessageAttributes["ERROR_CODE"].StringValue); c != "InvalidParameterValue" {
		t.Fatalf("schedule dead letter ERROR_CODE %q, attributes %v", c, sdl.MessageAttributes)
	}
}
