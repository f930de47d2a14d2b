package sqs_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/internal/facetest"
)

func TestVisibilityTimeoutOnTheVirtualClock(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("vis", map[string]string{"VisibilityTimeout": "30"})
	h.send(url, "m")
	first := h.receive(url, 1)
	if len(first) != 1 {
		t.Fatal("nothing received")
	}
	if got := h.receive(url, 1); len(got) != 0 {
		t.Fatal("an in-flight message was received again")
	}
	h.Clock.Advance(29 * time.Second)
	if got := h.receive(url, 1); len(got) != 0 {
		t.Fatal("visible before its timeout")
	}
	// ChangeMessageVisibility counts from now: 10 s more.
	if _, err := h.client.ChangeMessageVisibility(ctx(t), &sqssdk.ChangeMessageVisibilityInput{
		QueueUrl: aws.String(url), ReceiptHandle: first[0].ReceiptHandle, VisibilityTimeout: 10,
	}); err != nil {
		t.Fatal(err)
	}
	h.Clock.Advance(9 * time.Second)
	if got := h.receive(url, 1); len(got) != 0 {
		t.Fatal("visible before the changed timeout")
	}
	h.Clock.Advance(time.Second)
	second := h.receive(url, 1)
	if len(second) != 1 || second[0].Attributes["ApproximateReceiveCount"] != "2" ||
		second[0].Attributes["ApproximateFirstReceiveTimestamp"] != fmt.Sprint(t0.UnixMilli()) {
		t.Fatalf("second receive %+v", second)
	}
	// A per-receive VisibilityTimeout overrides the queue's.
	h.Clock.Advance(30 * time.Second)
	third := h.receive(url, 1, func(in *sqssdk.ReceiveMessageInput) { in.VisibilityTimeout = 5 })
	h.Clock.Advance(5 * time.Second)
	if len(third) != 1 || len(h.receive(url, 1)) != 1 {
		t.Fatal("ReceiveMessage VisibilityTimeout 5 not applied")
	}
	attrs, err := h.client.GetQueueAttributes(ctx(t), &sqssdk.GetQueueAttributesInput{QueueUrl: aws.String(url),
		AttributeNames: []types.QueueAttributeName{"ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessages"}})
	if err != nil || attrs.Attributes["ApproximateNumberOfMessagesNotVisible"] != "1" || attrs.Attributes["ApproximateNumberOfMessages"] != "0" {
		t.Fatalf("counts %v, %v", attrs, err)
	}
}

func TestDelayAndRetention(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("delay", map[string]string{"DelaySeconds": "10", "MessageRetentionPeriod": "60", "VisibilityTimeout": "5"})
	h.send(url, "queue-delay")
	h.send(url, "own-delay", func(in *sqssdk.SendMessageInput) { in.DelaySeconds = 20 })
	if got := h.receive(url, 10); len(got) != 0 {
		t.Fatalf("delayed messages received at once: %v", bodies(got))
	}
	h.Clock.Advance(10 * time.Second)
	if got := h.receive(url, 10); !slices.Equal(bodies(got), []string{"queue-delay"}) {
		t.Fatalf("after 10 s: %v", bodies(got))
	}
	h.Clock.Advance(10 * time.Second)
	if got := h.receive(url, 10); len(got) != 2 {
		t.Fatalf("after 20 s: %v", bodies(got))
	}
	h.Clock.Advance(40 * time.Second) // 60 s after sending: past MessageRetentionPeriod
	if got := h.receive(url, 10); len(got) != 0 {
		t.Fatalf("messages outlived their retention: %v", bodies(got))
	}
}

func TestRedriveAfterMaxReceiveCount(t *testing.T) {
	h := startTest(t)
	dlq := h.createQueue("orders-dlq", nil)
	src := h.createQueue("orders", map[string]string{
		"VisibilityTimeout": "30",
		"RedrivePolicy":     `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:` + account + `:orders-dlq","maxReceiveCount":"2"}`,
	})
	sent := h.send(src, "poison")
	for i := 1; i <= 2; i++ {
		if got := h.receive(src, 1); len(got) != 1 {
			t.Fatalf("receive %d: nothing", i)
		}
		h.Clock.Advance(30 * time.Second)
	}
	if got := h.receive(src, 1); len(got) != 0 {
		t.Fatalf("received a third time: %v", bodies(got))
	}
	moved := h.receive(dlq, 1)
	if len(moved) != 1 || aws.ToString(moved[0].MessageId) != aws.ToString(sent.MessageId) ||
		moved[0].Attributes["DeadLetterQueueSourceArn"] != "arn:aws:sqs:us-east-1:"+account+":orders" ||
		moved[0].Attributes["SentTimestamp"] != fmt.Sprint(t0.UnixMilli()) {
		t.Fatalf("dead-letter queue holds %+v", moved)
	}
}

func TestFIFOGroupsOrderAndBlock(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("jobs.fifo", map[string]string{"FifoQueue": "true", "VisibilityTimeout": "30"})
	send := func(group, body string) *sqssdk.SendMessageOutput {
		return h.send(url, body, func(in *sqssdk.SendMessageInput) {
			in.MessageGroupId, in.MessageDeduplicationId = aws.String(group), aws.String(body)
		})
	}
	s1 := send("a", "a1")
	send("a", "a2")
	send("b", "b1")
	send("a", "a3")
	if s1.SequenceNumber == nil {
		t.Fatal("no SequenceNumber")
	}
	first := h.receive(url, 2)
	if !slices.Equal(bodies(first), []string{"a1", "a2"}) || first[0].Attributes["MessageGroupId"] != "a" ||
		first[0].Attributes["SequenceNumber"] != aws.ToString(s1.SequenceNumber) {
		t.Fatalf("first receive %v %v", bodies(first), first[0].Attributes)
	}
	// Group a is in flight: only b is handed out, and a3 waits behind a1/a2.
	if got := h.receive(url, 10); !slices.Equal(bodies(got), []string{"b1"}) {
		t.Fatalf("while a is in flight: %v", bodies(got))
	}
	for _, m := range first {
		if _, err := h.client.DeleteMessage(ctx(t), &sqssdk.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: m.ReceiptHandle}); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.receive(url, 10); !slices.Equal(bodies(got), []string{"a3"}) {
		t.Fatalf("after deleting a1, a2: %v", bodies(got))
	}
	// b1 was never deleted: after its timeout it comes back, first of b.
	h.Clock.Advance(30 * time.Second)
	if got := h.receive(url, 10); !slices.Equal(bodies(got), []string{"b1", "a3"}) {
		t.Fatalf("after the timeout: %v", bodies(got))
	}
}

func TestFIFODeduplication(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("dedup.fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})
	group := func(in *sqssdk.SendMessageInput) { in.MessageGroupId = aws.String("g") }
	a := h.send(url, "same", group)
	b := h.send(url, "same", group)
	if aws.ToString(a.MessageId) != aws.ToString(b.MessageId) {
		t.Fatalf("duplicate got a new message id")
	}
	h.send(url, "same", group, func(in *sqssdk.SendMessageInput) { in.MessageDeduplicationId = aws.String("explicit") })
	h.Clock.Advance(5 * time.Minute)
	h.send(url, "same", group) // the interval is over: not a duplicate
	got := h.receive(url, 10)
	if len(got) != 3 {
		t.Fatalf("received %d messages, want 3", len(got))
	}
	// FIFO queues refuse a missing group and a per-message delay.
	_, err := h.client.SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String(url), MessageBody: aws.String("x")})
	facetest.WantAPIError(t, err, "MissingParameter", "")
	plain := h.createQueue("plain.fifo", map[string]string{"FifoQueue": "true"})
	_, err = h.client.SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String(plain), MessageBody: aws.String("x"), MessageGroupId: aws.String("g")})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "")
}

func TestMessageSizeLimit(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("big", nil)
	h.send(url, strings.Repeat("x", 1<<20))
	_, err := h.client.SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String(url), MessageBody: aws.String(strings.Repeat("x", 1<<20+1))})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes.")
}

func TestLongPollWakesOnSend(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("poll", nil)
	done := h.longPoll(url)
	h.send(url, "hello")
	start := time.Now()
	got := <-done
	if !slices.Equal(bodies(got), []string{"hello"}) {
		t.Fatalf("long poll returned %v", bodies(got))
	}
	if time.Since(start) > 10*time.Second {
		t.Fatal("the long poll waited its whole wait time instead of waking on the send")
	}
}

func TestLongPollWakesWhenTheClockMakesAMessageVisible(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("poll-delay", map[string]string{"DelaySeconds": "60"})
	h.send(url, "later")
	done := h.longPoll(url)
	h.awaitWaiting("poll-delay", 1)
	h.Clock.Advance(time.Minute)
	if got := <-done; !slices.Equal(bodies(got), []string{"later"}) {
		t.Fatalf("long poll returned %v", bodies(got))
	}
}

func TestLongPollWakesWhenAVisibilityTimeoutEnds(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("poll-inflight", map[string]string{"VisibilityTimeout": "30"})
	h.send(url, "again")
	if got := h.receive(url, 1); len(got) != 1 {
		t.Fatalf("first receive got %d messages", len(got))
	}
	done := h.longPoll(url)
	h.awaitWaiting("poll-inflight", 1)
	h.Clock.Advance(31 * time.Second)
	if got := <-done; !slices.Equal(bodies(got), []string{"again"}) {
		t.Fatalf("long poll returned %v", bodies(got))
	}
}

func TestLongPollOnFIFOWakesWhenTheGroupIsFreedByTheClock(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("poll.fifo", map[string]string{"FifoQueue": "true", "VisibilityTimeout": "30", "ContentBasedDeduplication": "true"})
	for _, body := range []string{"first", "second"} {
		h.send(url, body, func(in *sqssdk.SendMessageInput) { in.MessageGroupId = aws.String("g") })
	}
	if got := h.receive(url, 1); !slices.Equal(bodies(got), []string{"first"}) {
		t.Fatalf("first receive got %v", bodies(got))
	}
	done := h.longPoll(url)
	h.awaitWaiting("poll.fifo", 1)
	h.Clock.Advance(31 * time.Second)
	if got := <-done; len(got) == 0 || aws.ToString(got[0].Body) != "first" {
		t.Fatalf("long poll returned %v, want the first message again once its visibility timeout ended", bodies(got))
	}
}

func TestLongPollOnFIFOWakesWhenTheBlockingMessageIsDeleted(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("poll-del.fifo", map[string]string{"FifoQueue": "true", "VisibilityTimeout": "30", "ContentBasedDeduplication": "true"})
	for _, body := range []string{"first", "second"} {
		h.send(url, body, func(in *sqssdk.SendMessageInput) { in.MessageGroupId = aws.String("g") })
	}
	got := h.receive(url, 1)
	if !slices.Equal(bodies(got), []string{"first"}) {
		t.Fatalf("first receive got %v", bodies(got))
	}
	done := h.longPoll(url)
	h.awaitWaiting("poll-del.fifo", 1)
	if _, err := h.client.DeleteMessage(ctx(t), &sqssdk.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: got[0].ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	if got := <-done; !slices.Equal(bodies(got), []string{"second"}) {
		t.Fatalf("long poll returned %v, want the group's next message once the first was deleted", bodies(got))
	}
}
