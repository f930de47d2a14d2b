package sqssink

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// server is one test's view of the SQS server that ./scripts/test.sh
// started, with a client from the official SDK that checks what the sink did
// independently of it.
type server struct {
	endpoint string
	sdk      *sqs.Client
}

func newServer(t *testing.T) server {
	t.Helper()
	ep := testenv.SQSEndpoint(t)
	return server{endpoint: ep, sdk: sdkClient(ep, "us-east-1")}
}

func sdkClient(endpoint, region string) *sqs.Client {
	return sqs.New(sqs.Options{
		BaseEndpoint: aws.String(endpoint),
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
		// One try: if the server is down, say so now rather than after backoff.
		RetryMaxAttempts: 1,
	})
}

// createQueue makes a queue of the test's own and returns its URL and ARN.
func (s server) createQueue(t *testing.T, client *sqs.Client, suffix string, attrs map[string]string) (url, queueARN string) {
	t.Helper()
	name := uniqueName("gb-dlq-") + suffix
	out, err := client.CreateQueue(t.Context(), &sqs.CreateQueueInput{QueueName: &name, Attributes: attrs})
	if err != nil {
		t.Fatalf("create queue %s: %v", name, err)
	}
	t.Cleanup(func() {
		// t.Context is already done during cleanup.
		_, _ = client.DeleteQueue(context.Background(), &sqs.DeleteQueueInput{QueueUrl: out.QueueUrl})
	})
	got, err := client.GetQueueAttributes(t.Context(), &sqs.GetQueueAttributesInput{
		QueueUrl: out.QueueUrl, AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameQueueArn},
	})
	if err != nil {
		t.Fatalf("queue ARN of %s: %v", name, err)
	}
	return *out.QueueUrl, got.Attributes[string(types.QueueAttributeNameQueueArn)]
}

// receiveAll drains up to 10 visible messages with their attributes. The
// long poll returns as soon as a message is there; it is not a sleep.
func receiveAll(t *testing.T, client *sqs.Client, url string) []types.Message {
	t.Helper()
	out, err := client.ReceiveMessage(t.Context(), &sqs.ReceiveMessageInput{
		QueueUrl:                    &url,
		MaxNumberOfMessages:         10,
		WaitTimeSeconds:             1,
		MessageAttributeNames:       []string{"All"},
		MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll},
	})
	if err != nil {
		t.Fatalf("receive: %v", err)
	}
	return out.Messages
}

// messageCount asks the server how many messages the queue holds, which
// does not depend on how a receive batches them.
func messageCount(t *testing.T, client *sqs.Client, url string) int {
	t.Helper()
	out, err := client.GetQueueAttributes(t.Context(), &sqs.GetQueueAttributesInput{
		QueueUrl: &url, AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameApproximateNumberOfMessages},
	})
	if err != nil {
		t.Fatalf("queue attributes: %v", err)
	}
	n, err := strconv.Atoi(out.Attributes[string(types.QueueAttributeNameApproximateNumberOfMessages)])
	if err != nil {
		t.Fatalf("ApproximateNumberOfMessages: %v", err)
	}
	return n
}

func uniqueName(prefix string) string {
	b := make([]byte, 8)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func TestWriteSendsBodyAndTypedAttributes(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	url, queueARN := srv.createQueue(t, srv.sdk, "", nil)

	body := `{"version":"0","id":"1","detail":{"text":"ü \"quoted\""}}`
	err := New(srv.endpoint).Send(t.Context(), sqssend.Message{
		QueueArn: queueARN,
		Body:     []byte(body),
		Attributes: []engine.Attribute{
			{Name: "ERROR_CODE", Type: "String", Value: "DELIVERY_FAILED"},
			{Name: "RETRY_ATTEMPTS", Type: "Number", Value: "3"},
			{Name: "RULE_ARN", Value: "arn:aws:events:us-east-1:000000000000:rule/r"},
		},
	})
	if err != nil {
		t.Fatalf("Write: %v", err)
	}

	msgs := receiveAll(t, srv.sdk, url)
	if len(msgs) != 1 {
		t.Fatalf("received %d messages, want 1", len(msgs))
	}
	if got := aws.ToString(msgs[0].Body); got != body {
		t.Errorf("body\n got %q\nwant %q", got, body)
	}
	want := map[string][2]string{
		"ERROR_CODE":     {"String", "DELIVERY_FAILED"},
		"RETRY_ATTEMPTS": {"Number", "3"},
		"RULE_ARN":       {"String", "arn:aws:events:us-east-1:000000000000:rule/r"},
	}
	got := map[string][2]string{}
	for k, v := range msgs[0].MessageAttributes {
		got[k] = [2]string{aws.ToString(v.DataType), aws.ToString(v.StringValue)}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("message attributes\n got %v\nwant %v", got, want)
	}
}

func TestWriteUsesTheRegionOfTheARN(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	url, queueARN := srv.createQueue(t, sdkClient(srv.endpoint, "eu-west-1"), "", nil)
	if !strings.HasPrefix(queueARN, "arn:aws:sqs:eu-west-1:") {
		t.Fatalf("queue ARN %s is not in eu-west-1", queueARN)
	}
	if err := New(srv.endpoint).Send(t.Context(), sqssend.Message{QueueArn: queueARN, Body: []byte("x")}); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if n := messageCount(t, sdkClient(srv.endpoint, "eu-west-1"), url); n != 1 {
		t.Fatalf("queue holds %d messages, want 1", n)
	}
}

func TestWriteToFIFOWithoutContentDedupHashesTheBody(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	url, queueARN := srv.createQueue(t, srv.sdk, ".fifo", map[string]string{"FifoQueue": "true"})
	sink := New(srv.endpoint)

	for _, body := range []string{"same", "same", "other"} {
		if err := sink.Send(t.Context(), sqssend.Message{QueueArn: queueARN, Body: []byte(body), MessageGroupID: "rule-1"}); err != nil {
			t.Fatalf("Write %q: %v", body, err)
		}
	}
	// The repeated body is one message: its deduplication id is the body's hash.
	if n := messageCount(t, srv.sdk, url); n != 2 {
		t.Fatalf("queue holds %d messages, want 2", n)
	}
	msgs := receiveAll(t, srv.sdk, url)
	if len(msgs) == 0 {
		t.Fatal("received nothing")
	}
	m := msgs[0]
	if aws.ToString(m.Body) != "same" || m.Attributes["MessageGroupId"] != "rule-1" || len(m.Attributes["MessageDeduplicationId"]) != 64 {
		t.Errorf("first message: body %q, attributes %v; want body \"same\", group rule-1 and a SHA-256 dedup id",
			aws.ToString(m.Body), m.Attributes)
	}
}

func TestWriteToFIFOWithContentDedupKeepsGivenIDs(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	url, queueARN := srv.createQueue(t, srv.sdk, ".fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})
	sink := New(srv.endpoint)

	// Two bodies with one explicit dedup id are one message; a third body
	// without one is deduplicated by the queue on its content.
	writes := []sqssend.Message{
		{QueueArn: queueARN, Body: []byte("a"), DeduplicationID: "event-1"},
		{QueueArn: queueARN, Body: []byte("b"), DeduplicationID: "event-1"},
		{QueueArn: queueARN, Body: []byte("c")},
	}
	for _, dl := range writes {
		if err := sink.Send(t.Context(), dl); err != nil {
			t.Fatalf("Write %q: %v", dl.Body, err)
		}
	}
	if n := messageCount(t, srv.sdk, url); n != 2 {
		t.Fatalf("queue holds %d messages, want 2", n)
	}
	msgs := receiveAll(t, srv.sdk, url)
	if len(msgs) == 0 {
		t.Fatal("received nothing")
	}
	if m := msgs[0]; aws.ToString(m.Body) != "a" || m.Attributes["MessageGroupId"] != defaultMessageGroupID || m.Attributes["MessageDeduplicationId"] != "event-1" {
		t.Errorf("first message: body %q, attributes %v", aws.ToString(m.Body), m.Attributes)
	}
}

func TestConcurrentWrites(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	url, queueARN := srv.createQueue(t, srv.sdk, "", nil)
	sink := New(srv.endpoint)

	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = sink.Send(t.Context(), sqssend.Message{QueueArn: queueARN, Body: fmt.Appendf(nil, "m%d", i)})
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if got := messageCount(t, srv.sdk, url); got != n {
		t.Fatalf("queue holds %d messages, want %d", got, n)
	}
}

func TestWriteToMissingQueueIsDestinationNotFound(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	queueARN := "arn:aws:sqs:us-east-1:000000000000:" + uniqueName("missing-")
	err := New(srv.endpoint).Send(t.Context(), sqssend.Message{QueueArn: queueARN, Body: []byte("x")})
	if !errors.Is(err, engine.ErrDestinationNotFound) || !strings.Contains(err.Error(), queueARN) {
		t.Fatalf("Write: %v; want ErrDestinationNotFound naming %s", err, queueARN)
	}
}

func TestWriteAfterQueueDeletedIsDestinationNotFoundThenFindsItAgain(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	url, queueARN := srv.createQueue(t, srv.sdk, "", nil)
	sink := New(srv.endpoint)
	write := func() error {
		return sink.Send(t.Context(), sqssend.Message{QueueArn: queueARN, Body: []byte("x")})
	}
	if err := write(); err != nil {
		t.Fatalf("first Write: %v", err)
	}

	if _, err := srv.sdk.DeleteQueue(t.Context(), &sqs.DeleteQueueInput{QueueUrl: &url}); err != nil {
		t.Fatalf("delete queue: %v", err)
	}
	if err := write(); !errors.Is(err, engine.ErrDestinationNotFound) {
		t.Fatalf("Write to the deleted queue (URL cached): %v; want ErrDestinationNotFound", err)
	}

	name := queueARN[strings.LastIndex(queueARN, ":")+1:]
	created, err := srv.sdk.CreateQueue(t.Context(), &sqs.CreateQueueInput{QueueName: &name})
	if err != nil {
		t.Fatalf("re-create queue: %v", err)
	}
	if err := write(); err != nil {
		t.Fatalf("Write to the re-created queue: %v", err)
	}
	if n := messageCount(t, srv.sdk, *created.QueueUrl); n != 1 {
		t.Fatalf("re-created queue holds %d messages, want 1", n)
	}
}

func TestWriteRejectsDestinationsThatAreNotQueueARNs(t *testing.T) {
	t.Parallel()
	// No server is needed: each of these fails before any request.
	sink := New("http://127.0.0.1:1")
	for _, dest := range []string{
		"",
		"my-queue",
		"https://sqs.us-east-1.amazonaws.com/000000000000/q",
		"arn:aws:sns:us-east-1:000000000000:topic",
		"arn:aws:sqs::000000000000:q",
		"arn:aws:sqs:us-east-1::q",
		"arn:aws:sqs:us-east-1:000000000000:",
		"arn:aws:sqs:us-east-1:000000000000:a/b",
	} {
		err := sink.Send(t.Context(), sqssend.Message{QueueArn: dest, Body: []byte("x")})
		if !errors.Is(err, engine.ErrDestinationNotFound) || !strings.Contains(err.Error(), "is not an SQS queue ARN") {
			t.Errorf("Write(%q): %v; want ErrDestinationNotFound saying it is not a queue ARN", dest, err)
		}
	}
}

func TestWriteWhenServerIsDownFailsFastAndTransiently(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String()
	l.Close()

	start := time.Now()
	err = New(endpoint).Send(t.Context(), sqssend.Message{QueueArn: "arn:aws:sqs:us-east-1:000000000000:q", Body: []byte("x")})
	elapsed := time.Since(start)
	if err == nil || errors.Is(err, engine.ErrDestinationNotFound) {
		t.Fatalf("Write: %v; want a transient error", err)
	}
	if elapsed > 2*time.Second {
		t.Fatalf("Write took %v to fail; the engine's retries need it to fail fast", elapsed)
	}
}

func TestMessageAttributesDefaultToStringAndCarryBinaryBytes(t *testing.T) {
	t.Parallel()
	got := messageAttributes([]engine.Attribute{
		{Name: "s", Value: "v"},
		{Name: "n", Type: "Number.int", Value: "7"},
		{Name: "b", Type: "Binary", Value: "\x00\x01"},
	})
	if v := got["s"]; aws.ToString(v.DataType) != "String" || aws.ToString(v.StringValue) != "v" {
		t.Errorf("s = %+v", v)
	}
	if v := got["n"]; aws.ToString(v.DataType) != "Number.int" || aws.ToString(v.StringValue) != "7" {
		t.Errorf("n = %+v", v)
	}
	if v := got["b"]; aws.ToString(v.DataType) != "Binary" || string(v.BinaryValue) != "\x00\x01" || v.StringValue != nil {
		t.Errorf("b = %+v", v)
	}
	if messageAttributes(nil) != nil {
		t.Error("no attributes should send no attribute map")
	}
}

// A message larger than the server's queue takes (its MaximumMessageSize)
// is SQS's client error, which the faces name as such: CauseTooLarge, with
// SQS's own text, never a missing queue.
func TestTooLargeForTheQueueIsCauseTooLarge(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	_, queueARN := s.createQueue(t, s.sdk, "", map[string]string{"MaximumMessageSize": "1024"})
	err := New(s.endpoint).Send(t.Context(), sqssend.Message{QueueArn: queueARN, Body: []byte(strings.Repeat("x", 2000))})
	if c := sqssend.CauseOf(err); c != sqssend.CauseTooLarge {
		t.Fatalf("cause %v of %v, want CauseTooLarge", c, err)
	}
	if msg := sqssend.TooLargeMessage(err); msg != "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes." {
		t.Fatalf("TooLargeMessage = %q", msg)
	}
}
