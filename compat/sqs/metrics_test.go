package sqs_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/compat/sqs"
)

// metricsOf returns the books of the queue named name.
func (h *harness) metricsOf(name string) sqs.QueueMetrics {
	h.T.Helper()
	for _, m := range h.store.Metrics() {
		if m.ARN == "arn:aws:sqs:"+region+":"+account+":"+name {
			return m
		}
	}
	h.T.Fatalf("no metrics for queue %s", name)
	return sqs.QueueMetrics{}
}

// balanced checks the queue's books: every message sent is counted once,
// where it left or among those the queue holds.
func balanced(t *testing.T, m sqs.QueueMetrics) {
	t.Helper()
	held := uint64(m.Visible + m.InFlight + m.Delayed)
	if m.Sent != m.Deleted+m.DeadLettered+m.Expired+m.Purged+held {
		t.Fatalf("the books do not balance: %+v", m)
	}
}

func TestQueueMetricsCountWhatTheQueueHoldsAndWhatLeft(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("books", map[string]string{"VisibilityTimeout": "30", "MessageRetentionPeriod": "120"})
	for _, body := range []string{"a", "b", "c", "d"} {
		h.send(url, body)
	}
	h.send(url, "later", func(in *sqssdk.SendMessageInput) { in.DelaySeconds = 60 })
	got := h.receive(url, 2)
	if len(got) != 2 {
		t.Fatalf("received %d messages", len(got))
	}
	if _, err := h.client.DeleteMessage(ctx(t), &sqssdk.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: got[0].ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	m := h.metricsOf("books")
	if m.Sent != 5 || m.Deleted != 1 || m.Visible != 2 || m.InFlight != 1 || m.Delayed != 1 {
		t.Fatalf("after sends, a receive and a delete: %+v", m)
	}
	balanced(t, m)

	// The clock ends the visibility timeout, then the delay, then the
	// retention period of all.
	h.Clock.Advance(31 * time.Second)
	if m := h.metricsOf("books"); m.Visible != 3 || m.InFlight != 0 || m.Delayed != 1 {
		t.Fatalf("after the visibility timeout: %+v", m)
	}
	h.Clock.Advance(30 * time.Second)
	if m := h.metricsOf("books"); m.Visible != 4 || m.Delayed != 0 {
		t.Fatalf("after the delay: %+v", m)
	}
	h.Clock.Advance(2 * time.Minute)
	m = h.metricsOf("books")
	if m.Expired != 4 || m.Visible != 0 {
		t.Fatalf("past the retention period: %+v", m)
	}
	balanced(t, m)
	if got := h.receive(url, 10); len(got) != 0 { // meets and removes them
		t.Fatalf("received %d expired messages", len(got))
	}
	if m := h.metricsOf("books"); m.Expired != 4 {
		t.Fatalf("after the receive removed them: %+v", m)
	}
}

func TestQueueMetricsCountRedrivesAndPurges(t *testing.T) {
	h := startTest(t)
	h.createQueue("books-dlq", nil)
	url := h.createQueue("books-src", map[string]string{"VisibilityTimeout": "0",
		"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:` + region + `:` + account + `:books-dlq","maxReceiveCount":"1"}`})
	h.send(url, "poison")
	h.send(url, "purged")
	h.receive(url, 1, func(in *sqssdk.ReceiveMessageInput) {
		in.MessageSystemAttributeNames = []types.MessageSystemAttributeName{}
	})
	h.receive(url, 10) // the first moves to the dead-letter queue; the second is taken
	if _, err := h.client.PurgeQueue(ctx(t), &sqssdk.PurgeQueueInput{QueueUrl: aws.String(url)}); err != nil {
		t.Fatal(err)
	}
	src, dlq := h.metricsOf("books-src"), h.metricsOf("books-dlq")
	if src.Sent != 2 || src.DeadLettered != 1 || src.Purged != 1 || dlq.Sent != 1 || dlq.Visible != 1 {
		t.Fatalf("source %+v, dead-letter queue %+v", src, dlq)
	}
	balanced(t, src)
	balanced(t, dlq)
}

func TestInspectionShowsEachQueuesCounts(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("shown", map[string]string{"VisibilityTimeout": "30"})
	h.send(url, "taken")
	h.send(url, "waiting")
	h.send(url, "delayed", func(in *sqssdk.SendMessageInput) { in.DelaySeconds = 60 })
	h.receive(url, 1)
	code, out := inspect(t, h.svc, "/_emulator/sqs")
	queues, _ := out["queues"].([]any)
	if code != 200 || len(queues) != 1 {
		t.Fatalf("GET /_emulator/sqs: %d %v", code, out)
	}
	q := queues[0].(map[string]any)
	if q["messages"] != 3.0 || q["visible"] != 1.0 || q["inFlight"] != 1.0 || q["delayed"] != 1.0 {
		t.Fatalf("GET /_emulator/sqs: %v", q)
	}
}
