package testkit_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/testkit"
)

// TestSQSReadsWhatATargetWrote: an SQS target's queue, never created, is
// created by the delivery and read with emu.SQS(); a message left in flight
// comes back when the virtual clock passes its visibility timeout.
func TestSQSReadsWhatATargetWrote(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := testkit.Start(t)
	eb := emu.EventBridge()
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("r"), EventPattern: aws.String(`{"source":["shop"]}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("r"), Targets: []ebtypes.Target{
		{Id: aws.String("q"), Arn: aws.String("arn:aws:sqs:us-east-1:000000000000:audit")},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
		{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"id":1}`)},
	}}); err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Rule: "r", Outcome: "Success"}, 1)
	url := emu.SQSQueueURL("audit")
	first := emu.ReceiveSQSMessages(url, 1)
	if first[0].Attributes["ApproximateReceiveCount"] != "1" {
		t.Fatalf("attributes %v", first[0].Attributes)
	}
	emu.Advance(30 * time.Second) // the default visibility timeout
	again := emu.ReceiveSQSMessages(url, 1)
	if *again[0].MessageId != *first[0].MessageId || again[0].Attributes["ApproximateReceiveCount"] != "2" {
		t.Fatalf("second receive %v", again[0].Attributes)
	}
	if _, err := emu.SQS().DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: again[0].ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	if msgs := emu.SQSMessages("arn:aws:sqs:us-east-1:000000000000:audit"); len(msgs) != 0 {
		t.Fatalf("the inspection API still shows %d messages", len(msgs))
	}
}
