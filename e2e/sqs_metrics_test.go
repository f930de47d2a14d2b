package e2e

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// /_emulator/metrics lists the binary's own queues under "sqs": what each
// holds visible, in flight and delayed, and what left it, in books that
// balance. Here events come in through a rule and one receive is never
// deleted (as when a client missed the answer): it shows in flight.
func TestMetricsShowTheQueuesInFlightMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	emu := testkit.Connect(t, proc.Endpoints["http"])
	client, eb := emu.SQS(), emu.EventBridge()
	url := createTestQueue(t, client, "orders")
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("orders"), EventPattern: aws.String(`{"source":["shop"]}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("orders"), Targets: []ebtypes.Target{
		{Id: aws.String("q"), Arn: aws.String("arn:aws:sqs:" + testkit.AWSRegion + ":" + testkit.AWSAccount + ":orders")},
	}}); err != nil {
		t.Fatal(err)
	}
	entries := make([]ebtypes.PutEventsRequestEntry, 3)
	for i := range entries {
		entries[i] = ebtypes.PutEventsRequestEntry{Source: aws.String("shop"), DetailType: aws.String("Placed"), Detail: aws.String(`{}`)}
	}
	if _, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: entries}); err != nil {
		t.Fatal(err)
	}
	emu.Settle()
	if out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 1}); err != nil || len(out.Messages) != 1 {
		t.Fatalf("ReceiveMessage: %v", err)
	}
	view, err := emu.Inspector().Metrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(view.SQS) != 1 {
		t.Fatalf("metrics list %d queues, want 1: %+v", len(view.SQS), view.SQS)
	}
	m := view.SQS[0]
	if m.Sent != 3 || m.Visible != 2 || m.InFlight != 1 || m.Delayed != 0 {
		t.Fatalf("queue metrics %+v, want 3 sent, 2 visible, 1 in flight", m)
	}
}

func createTestQueue(t *testing.T, client *sqs.Client, name string) string {
	out, err := client.CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.QueueUrl)
}
