package pipes_test

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	pipessdk "github.com/aws/aws-sdk-go-v2/service/pipes"
	"github.com/aws/aws-sdk-go-v2/service/pipes/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// missingDedup is SQS's answer to a FIFO message without a deduplication id
// on a queue without content-based deduplication, as the pipe passes it on.
const missingDedup = "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly " +
	"(Service: AmazonSQS; Status Code: 400; Error Code: InvalidParameterValue)"

// fifoPipe creates a pipe from a new standard queue to the FIFO queue
// target, in group g with dedup (nil: none) as its MessageDeduplicationId,
// and returns the source's URL. The target gets {"n": <$.body.n>}.
func (h *harness) fifoPipe(name, target string, dedup *string) string {
	h.T.Helper()
	srcURL, srcArn := h.queue(name+"-in", map[string]string{"VisibilityTimeout": "30"})
	h.create(pipessdk.CreatePipeInput{
		Name: aws.String(name), Source: aws.String(srcArn), Target: aws.String(target), SourceParameters: sqsSource(10, 0),
		TargetParameters: &types.PipeTargetParameters{InputTemplate: aws.String(`{"n": <$.body.n>}`), SqsQueueParameters: &types.PipeTargetSqsQueueParameters{
			MessageGroupId: aws.String("g"), MessageDeduplicationId: dedup,
		}},
	})
	return srcURL
}

// received reads a queue's messages through the SQS API: each body with its
// MessageDeduplicationId.
func (h *harness) received(url string) [][2]string {
	h.T.Helper()
	out, err := h.sqs.ReceiveMessage(ctx(h.T), &sqssdk.ReceiveMessageInput{
		QueueUrl: aws.String(url), MaxNumberOfMessages: 10,
		MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameMessageDeduplicationId},
	})
	if err != nil {
		h.T.Fatal(err)
	}
	var got [][2]string
	for _, m := range out.Messages {
		got = append(got, [2]string{aws.ToString(m.Body), m.Attributes["MessageDeduplicationId"]})
	}
	return got
}

// TestFIFOTargetDeduplicationID: a pipe sends a FIFO target's messages with
// the MessageDeduplicationId its SqsQueueParameters give, as written or read
// from the event by JSON path, so the queue drops a repeated id; without
// one it sends none, and the queue's content-based deduplication gives the
// SHA-256 of the body.
func TestFIFOTargetDeduplicationID(t *testing.T) {
	h := startTest(t)
	plainURL, plain := h.queue("plain.fifo", map[string]string{"FifoQueue": "true"})
	pathURL, path := h.queue("path.fifo", map[string]string{"FifoQueue": "true"})
	cbdURL, cbd := h.queue("cbd.fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})
	sent := []string{`{"id":"a","n":1}`, `{"id":"b","n":2}`, `{"id":"a","n":3}`}
	bodies := []string{`{"n": 1}`, `{"n": 2}`, `{"n": 3}`}
	h.send(h.fifoPipe("static", plain, aws.String("fixed")), sent...)
	h.send(h.fifoPipe("path", path, aws.String("$.body.id")), sent...)
	h.send(h.fifoPipe("none", cbd, nil), sent...)
	h.Clock.Settle()

	if got := h.received(plainURL); !slices.Equal(got, [][2]string{{bodies[0], "fixed"}}) {
		t.Fatalf("static id: the queue holds %v", got)
	}
	if got := h.received(pathURL); !slices.Equal(got, [][2]string{{bodies[0], "a"}, {bodies[1], "b"}}) {
		t.Fatalf("id read by path: the queue holds %v", got)
	}
	var want [][2]string
	for _, b := range bodies {
		sum := sha256.Sum256([]byte(b))
		want = append(want, [2]string{b, hex.EncodeToString(sum[:])})
	}
	if got := h.received(cbdURL); !slices.Equal(got, want) {
		t.Fatalf("no id: the queue holds %v, want %v", got, want)
	}
	for _, name := range []string{"static", "path", "none"} {
		if m := h.metrics(name); m.Delivered != 3 || m.TargetStageFailed != 0 {
			t.Fatalf("pipe %s metrics %+v", name, m)
		}
	}
}

// TestFIFOTargetWithoutDeduplicationID: CreatePipe accepts a FIFO target
// without a MessageDeduplicationId whose queue has no content-based
// deduplication, as AWS does; SQS refuses each message, and the target
// fails as EventBridge's do, a client error with SQS's answer, leaving the
// batch in the source.
func TestFIFOTargetWithoutDeduplicationID(t *testing.T) {
	h := startTest(t)
	plainURL, plain := h.queue("plain.fifo", map[string]string{"FifoQueue": "true"})
	srcURL := h.fifoPipe("p", plain, nil)
	h.send(srcURL, `{"n":1}`)
	h.Clock.Settle()

	at := h.targetAttempts("p")
	if len(at) != 1 || at[0].Outcome != "SDK_CLIENT_ERROR" || at[0].Message != missingDedup {
		t.Fatalf("target attempts %+v", at)
	}
	if got := h.received(plainURL); len(got) != 0 {
		t.Fatalf("the queue took %v", got)
	}
	if m := h.metrics("p"); m.TargetStageFailed != 1 || m.Delivered != 0 || m.AwaitingRetry != 1 {
		t.Fatalf("metrics %+v", m)
	}
}
