package testkit_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/testkit"
)

// TestRuleHelpersRouteThroughABusAndAnAPIDestination: a rule on the
// default bus sends to a custom bus, whose rule sends to a queue and to an
// API destination; each helper's return value is what the next one takes.
func TestRuleHelpersRouteThroughABusAndAnAPIDestination(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := testkit.Start(t)
	var calls atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") == "gridbridge" {
			calls.Add(1)
		}
	}))
	t.Cleanup(api.Close)

	audit := emu.CreateBus("audit")
	q := emu.CreateQueue("audit-log")
	dest := emu.CreateAPIDestination("audit-api", api.URL)
	emu.CreateRule("", "forward", `{"source":["shop"]}`, testkit.BusTarget("audit", audit))
	emu.CreateRule("audit", "log", `{"source":["shop"]}`, testkit.SQSTarget("log", q.ARN), testkit.APIDestinationTarget("api", dest))

	if _, err := emu.EventBridge().PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
		{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"id":1}`)},
	}}); err != nil {
		t.Fatal(err)
	}
	emu.WaitForTargetDeliveries("", "forward", "audit", 1)
	emu.WaitForTargetDeliveries("audit", "log", "api", 1)
	if got := emu.WaitForSQSMessages(q.URL, 1); len(got) != 1 {
		t.Fatalf("%d messages", len(got))
	}
	if calls.Load() != 1 {
		t.Fatalf("the API destination was called %d times with its key", calls.Load())
	}
}

// TestWaitForSQSMessagesRecoversAStrandedMessage: a message another
// receive took and never deleted is received again once the wait has
// advanced the virtual clock past the queue's visibility timeout; the
// redrive policy CreateQueue set then moves it on to the dead-letter queue.
func TestWaitForSQSMessagesRecoversAStrandedMessage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := testkit.Start(t)
	dlq := emu.CreateQueue("orders-dlq")
	q := emu.CreateQueue("orders", testkit.WithDeadLetterQueue(dlq, 2), testkit.WithVisibilityTimeout(45*time.Second))
	if _, err := emu.SQS().SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(q.URL), MessageBody: aws.String("o-1")}); err != nil {
		t.Fatal(err)
	}
	lost, err := emu.SQS().ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(q.URL)})
	if err != nil || len(lost.Messages) != 1 {
		t.Fatalf("first receive: %v %+v", err, lost)
	}
	before := emu.Now()
	got := emu.WaitForSQSMessages(q.URL, 1)
	if aws.ToString(got[0].Body) != "o-1" || got[0].Attributes["ApproximateReceiveCount"] != "2" {
		t.Fatalf("received %s with attributes %v", aws.ToString(got[0].Body), got[0].Attributes)
	}
	if moved := emu.Now().Sub(before); moved != 45*time.Second {
		t.Fatalf("the clock moved %v, want the visibility timeout, 45s", moved)
	}
	// The third receive would exceed maxReceiveCount 2: the message moves.
	emu.Advance(45 * time.Second)
	if _, err := emu.SQS().ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(q.URL)}); err != nil {
		t.Fatal(err)
	}
	if dead := emu.WaitForSQSMessages(dlq.URL, 1); aws.ToString(dead[0].Body) != "o-1" {
		t.Fatalf("dead-letter queue holds %s", aws.ToString(dead[0].Body))
	}
}
