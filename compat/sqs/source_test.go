package sqs_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/compat/aws/sqssource"
)

// A source reader takes messages through the store's API: into flight for
// the queue's visibility timeout, back when it ends, moved to the
// dead-letter queue after maxReceiveCount receives, and it is told when a
// message arrives, even on a queue created after it began to watch.
func TestSourceReadsAQueueAsReceiveMessageDoes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := ctx(t)
	src := h.store.Source()
	arn := "arn:aws:sqs:us-east-1:" + account + ":in"
	var wakes atomic.Int32
	stop := src.Watch(arn, func() { wakes.Add(1) })
	defer stop()
	if _, err := src.Receive(c, arn, 10); err != sqssource.ErrNoQueue {
		t.Fatalf("Receive on no queue: %v", err)
	}
	if _, err := h.client.CreateQueue(c, &sqssdk.CreateQueueInput{QueueName: aws.String("dlq")}); err != nil {
		t.Fatal(err)
	}
	in, err := h.client.CreateQueue(c, &sqssdk.CreateQueueInput{QueueName: aws.String("in"), Attributes: map[string]string{
		"VisibilityTimeout": "30",
		"RedrivePolicy":     `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:` + account + `:dlq","maxReceiveCount":"2"}`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	if wakes.Load() != 1 {
		t.Fatalf("creating the queue woke the reader %d times, want once", wakes.Load())
	}
	if _, err := h.client.SendMessage(c, &sqssdk.SendMessageInput{QueueUrl: in.QueueUrl, MessageBody: aws.String("m"),
		MessageAttributes: map[string]types.MessageAttributeValue{"k": {DataType: aws.String("String"), StringValue: aws.String("v")}}}); err != nil {
		t.Fatal(err)
	}
	if wakes.Load() != 2 {
		t.Fatalf("a send woke the reader %d times in all, want twice", wakes.Load())
	}
	got, err := src.Receive(c, arn, 10)
	if err != nil || len(got.Messages) != 1 {
		t.Fatalf("Receive = %+v, %v", got, err)
	}
	m := got.Messages[0]
	if m.Body != "m" || m.ReceiveCount != 1 || m.Attributes["ApproximateReceiveCount"] != "1" || *m.MessageAttributes["k"].StringValue != "v" || m.MD5OfMessageAttributes == "" {
		t.Fatalf("received %+v", m)
	}
	if vt, _ := src.VisibilityTimeout(arn); vt != 30*time.Second {
		t.Fatalf("visibility timeout %s", vt)
	}
	if at, ok := src.NextVisible(arn); !ok || !at.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("NextVisible = %s, %v", at, ok)
	}
	if held := src.Holding(arn, []string{m.ID, "other"}); !held[0] || held[1] {
		t.Fatalf("Holding = %v", held)
	}
	h.Clock.Advance(30 * time.Second)
	if got, _ := src.Receive(c, arn, 10); len(got.Messages) != 1 || got.Messages[0].ReceiveCount != 2 {
		t.Fatalf("the second receive got %+v", got)
	}
	h.Clock.Advance(30 * time.Second)
	got, _ = src.Receive(c, arn, 10)
	if len(got.Messages) != 0 || len(got.Redriven) != 1 || got.Redriven[0].ID != m.ID || got.Redriven[0].ReceiveCount != 2 ||
		got.Redriven[0].DeadLetterQueueArn != "arn:aws:sqs:us-east-1:"+account+":dlq" {
		t.Fatalf("the third receive: %+v", got)
	}
	if held := src.Holding(arn, []string{m.ID}); held[0] {
		t.Fatal("the redriven message is still held by its source")
	}
	if n := len(h.store.Messages("arn:aws:sqs:us-east-1:" + account + ":dlq")); n != 1 {
		t.Fatalf("the dead-letter queue holds %d messages", n)
	}
	stop()
	before := wakes.Load()
	if _, err := h.client.SendMessage(c, &sqssdk.SendMessageInput{QueueUrl: in.QueueUrl, MessageBody: aws.String("n")}); err != nil {
		t.Fatal(err)
	}
	if wakes.Load() != before {
		t.Fatal("a stopped watch still wakes its reader")
	}
	got, _ = src.Receive(c, arn, 10)
	if err := src.Delete(c, arn, []string{got.Messages[0].ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	if n := len(h.store.Messages(arn)); n != 0 {
		t.Fatalf("%d messages left after Delete", n)
	}
}
