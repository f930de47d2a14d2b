package eventsv2

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
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

// sqsEnv is the real SQS server ./scripts/test.sh starts: GridBridge writes
// there as with --sqs-endpoint, the test reads with the official SDK.
type sqsEnv struct {
	client   *sqs.Client
	endpoint string
}

// newSQSHarness opens a test against the real SQS server: it marks the
// test parallel and gives it the SQS environment, a harness whose
// subscribers write there, and the ARN of a bus "orders".
func newSQSHarness(t *testing.T) (env *sqsEnv, h *harness, bus string) {
	t.Parallel()
	env = newSQSEnv(t)
	h = newHarness(t, harnessOptions{sqsEndpoint: env.endpoint})
	return env, h, h.createBus("orders")
}

func newSQSEnv(t *testing.T) *sqsEnv {
	t.Helper()
	ep := testenv.SQSEndpoint(t)
	return &sqsEnv{
		client: sqs.New(sqs.Options{
			BaseEndpoint: aws.String(ep), Region: "us-east-1",
			Credentials: credentials.NewStaticCredentialsProvider("test", "test", ""),
		}),
		endpoint: ep,
	}
}

// queue creates a queue of the test's own and returns its URL and ARN.
func (e *sqsEnv) queue(t *testing.T, name string, fifo bool) (url, arn string) {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name = "gb-eb2-" + name + "-" + hex.EncodeToString(b)
	attrs := map[string]string{}
	if fifo {
		name += ".fifo"
		attrs["FifoQueue"] = "true"
	}
	out, err := e.client.CreateQueue(t.Context(), &sqs.CreateQueueInput{QueueName: &name, Attributes: attrs})
	if err != nil {
		t.Fatalf("create queue %s: %v", name, err)
	}
	t.Cleanup(func() {
		_, _ = e.client.DeleteQueue(context.Background(), &sqs.DeleteQueueInput{QueueUrl: out.QueueUrl})
	})
	got, err := e.client.GetQueueAttributes(t.Context(), &sqs.GetQueueAttributesInput{
		QueueUrl: out.QueueUrl, AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameQueueArn},
	})
	if err != nil {
		t.Fatalf("queue ARN of %s: %v", name, err)
	}
	return *out.QueueUrl, got.Attributes[string(types.QueueAttributeNameQueueArn)]
}

// receive reads n messages with all their attributes. The long poll
// returns as soon as messages are there; it is not a sleep.
func (e *sqsEnv) receive(t *testing.T, url string, n int) []types.Message {
	t.Helper()
	return e.read(t, url, n, false)
}

// consume reads n messages and deletes each batch as it comes, as a FIFO
// consumer must: a group's next message is not handed out while an earlier
// one is in flight.
func (e *sqsEnv) consume(t *testing.T, url string, n int) []types.Message {
	t.Helper()
	return e.read(t, url, n, true)
}

func (e *sqsEnv) read(t *testing.T, url string, n int, deleteEach bool) []types.Message {
	t.Helper()
	var got []types.Message
	for tries := 0; len(got) < n && tries < 10; tries++ {
		out, err := e.client.ReceiveMessage(t.Context(), &sqs.ReceiveMessageInput{
			QueueUrl: &url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 60,
			MessageAttributeNames:       []string{"All"},
			MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll},
		})
		if err != nil {
			t.Fatalf("receive: %v", err)
		}
		got = append(got, out.Messages...)
		if deleteEach {
			for _, msg := range out.Messages {
				if _, err := e.client.DeleteMessage(t.Context(), &sqs.DeleteMessageInput{QueueUrl: &url, ReceiptHandle: msg.ReceiptHandle}); err != nil {
					t.Fatalf("delete: %v", err)
				}
			}
		}
	}
	if len(got) != n {
		t.Fatalf("received %d messages from %s, want %d", len(got), url, n)
	}
	return got
}

// count asks how many messages the queue holds, visible or not.
func (e *sqsEnv) count(t *testing.T, url string) int {
	t.Helper()
	out, err := e.client.GetQueueAttributes(t.Context(), &sqs.GetQueueAttributesInput{
		QueueUrl: &url, AttributeNames: []types.QueueAttributeName{
			types.QueueAttributeNameApproximateNumberOfMessages, types.QueueAttributeNameApproximateNumberOfMessagesNotVisible},
	})
	if err != nil {
		t.Fatalf("queue attributes: %v", err)
	}
	n := 0
	for _, k := range []types.QueueAttributeName{types.QueueAttributeNameApproximateNumberOfMessages, types.QueueAttributeNameApproximateNumberOfMessagesNotVisible} {
		v, _ := strconv.Atoi(out.Attributes[string(k)])
		n += v
	}
	return n
}

// recordOf decodes a dead-letter message and checks EB-9: every attribute
// is there, with the body's value and the right type.
func recordOf(t *testing.T, msg types.Message) DeadLetterRecord {
	t.Helper()
	var rec DeadLetterRecord
	if err := json.Unmarshal([]byte(aws.ToString(msg.Body)), &rec); err != nil {
		t.Fatalf("record body: %v: %s", err, aws.ToString(msg.Body))
	}
	want := map[string][2]string{
		AttrErrorCode:               {"String", rec.ErrorCode},
		AttrErrorMessage:            {"String", rec.ErrorMessage},
		AttrSubscriberArn:           {"String", rec.SubscriberArn},
		AttrTargetArn:               {"String", rec.TargetArn},
		AttrRetryAttempts:           {"Number", strconv.Itoa(rec.RetryAttempts)},
		AttrBusArn:                  {"String", rec.BusArn},
		AttrExhaustedRetryCondition: {"String", rec.ExhaustedRetryCondition},
	}
	if len(msg.MessageAttributes) != len(want) {
		t.Errorf("record has attributes %v, want exactly %d", keys(msg.MessageAttributes), len(want))
	}
	for name, w := range want {
		a, ok := msg.MessageAttributes[name]
		if !ok || aws.ToString(a.DataType) != w[0] || aws.ToString(a.StringValue) != w[1] || w[1] == "" {
			t.Errorf("attribute %s = %s %q, want %s %q", name, aws.ToString(a.DataType), aws.ToString(a.StringValue), w[0], w[1])
		}
	}
	if rec.Version != RecordVersion {
		t.Errorf("version %q", rec.Version)
	}
	return rec
}

// TestEB2_EB5_EB9_DefaultsIntoSQSRecord: with the default policy a failing
// target is tried 6 times over 31 s, then one record reaches the real
// queue with every EB-9 attribute equal to the body.
func TestEB2_EB5_EB9_DefaultsIntoSQSRecord(t *testing.T) {
	env, h, bus := newSQSHarness(t)
	dlqURL, dlqArn := env.queue(t, "dlq", false)
	target := newHTTPTarget(t, h.clock, always(500, "down"))
	sub := h.createSubscriber(m{"Name": "large-orders", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url},
		"OnFailureConfiguration": m{"Arn": dlqArn}})
	h.advance(12 * time.Second)
	ids := h.put(bus, m{"EventGroupId": "order-1001"})
	h.settle()
	h.advance(31*time.Second - time.Millisecond)
	if n := env.count(t, dlqURL); n != 0 {
		t.Fatalf("a record before the last retry: %d", n)
	}
	h.advance(time.Millisecond)
	rec := recordOf(t, env.receive(t, dlqURL, 1)[0])
	if rec.BusArn != bus || rec.SubscriberArn != sub.SubscriberArn || rec.TargetArn != target.url ||
		rec.ErrorCode != CodeInvocationDependencyInternal || rec.ErrorMessage != GenericErrorMessage ||
		rec.ExhaustedRetryCondition != ExhaustedMaxRetryAttempts || rec.RetryAttempts != 5 {
		t.Fatalf("record = %+v", rec)
	}
	fm := rec.FailedMessages
	if len(fm) != 1 || fm[0].EventID != ids[0] || fm[0].Timestamp != "2026-09-16T18:40:12Z" || fm[0].TargetRequestID == "" ||
		fm[0].EventGroupID == nil || *fm[0].EventGroupID != "order-1001" || fm[0].DeduplicationID != nil {
		t.Fatalf("failedMessages = %+v", fm)
	}
	if got := len(target.received()); got != 6 {
		t.Fatalf("%d attempts, want 6", got)
	}
	if m := h.metrics(sub.SubscriberArn); m.Attempts != 6 || m.Retries != 5 || m.DeadLetterRecords != 1 || m.DeadLetteredEvents != 1 {
		t.Fatalf("metrics = %+v", m)
	}
}

// TestEB2_EB5_AgeOrAttemptsNamesTheCondition: whichever limit ends delivery
// is the record's exhaustedRetryCondition.
func TestEB2_EB5_AgeOrAttemptsNamesTheCondition(t *testing.T) {
	env, h, bus := newSQSHarness(t)
	dlqURL, dlqArn := env.queue(t, "dlq", false)
	target := newHTTPTarget(t, h.clock, always(429, ""))
	byAge := h.createSubscriber(m{"Name": "by-age", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url},
		"RetryPolicy": m{"MaxRetryAttempts": 185, "MaxEventAgeInSeconds": 300}, "OnFailureConfiguration": m{"Arn": dlqArn}})
	byAttempts := h.createSubscriber(m{"Name": "by-attempts", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url},
		"RetryPolicy": m{"MaxRetryAttempts": 3, "MaxEventAgeInSeconds": 86400}, "OnFailureConfiguration": m{"Arn": dlqArn}})
	h.put(bus, m{})
	h.settle()
	h.advance(time.Hour)
	got := map[string]DeadLetterRecord{}
	for _, msg := range env.receive(t, dlqURL, 2) {
		rec := recordOf(t, msg)
		got[rec.SubscriberArn] = rec
	}
	if r := got[byAge.SubscriberArn]; r.ExhaustedRetryCondition != ExhaustedMaxEventAge || r.RetryAttempts != 8 || r.ErrorCode != CodeThrottling {
		t.Errorf("by age: %+v", r)
	}
	if r := got[byAttempts.SubscriberArn]; r.ExhaustedRetryCondition != ExhaustedMaxRetryAttempts || r.RetryAttempts != 3 {
		t.Errorf("by attempts: %+v", r)
	}
}

// TestEB5_BatchFailingTogetherIsOneRecord: two events that failed in one
// batch are listed in one record, with the target's own message.
func TestEB5_BatchFailingTogetherIsOneRecord(t *testing.T) {
	env, h, bus := newSQSHarness(t)
	dlqURL, dlqArn := env.queue(t, "dlq", false)
	target := newHTTPTarget(t, h.clock, always(400, `{"message":"Value for detail.total is missing."}`))
	h.createSubscriber(m{"Name": "large-orders", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url, "MaxBatchSize": 2},
		"RetryPolicy": m{"MaxRetryAttempts": 1}, "OnFailureConfiguration": m{"Arn": dlqArn}})
	ids := h.put(bus, m{}, m{})
	h.settle()
	h.advance(time.Minute)
	rec := recordOf(t, env.receive(t, dlqURL, 1)[0])
	if rec.ErrorCode != CodeCustomerValidation || rec.ErrorMessage != "Value for detail.total is missing." || rec.RetryAttempts != 1 {
		t.Fatalf("record = %+v", rec)
	}
	if len(rec.FailedMessages) != 2 || rec.FailedMessages[0].EventID != ids[0] || rec.FailedMessages[1].EventID != ids[1] ||
		rec.FailedMessages[0].TargetRequestID != rec.FailedMessages[1].TargetRequestID {
		t.Fatalf("failedMessages = %+v", rec.FailedMessages)
	}
	if n := env.count(t, dlqURL); n != 1 {
		t.Fatalf("the queue holds %d messages, want the one record", n)
	}
}

// TestEB10_FIFORecordsGroupedByEventGroupId: a FIFO subscriber's records
// land in its FIFO queue with MessageGroupId = EventGroupId.
func TestEB10_FIFORecordsGroupedByEventGroupId(t *testing.T) {
	env, h, bus := newSQSHarness(t)
	dlqURL, dlqArn := env.queue(t, "dlq", true)
	_, targetArn := env.queue(t, "target", true)
	h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": targetArn},
		"RetryPolicy": m{"MaxRetryAttempts": 0}, "OnFailureConfiguration": m{"Arn": dlqArn}})
	h.failSubscriber("s", CodeAccessDenied, 0)
	ids := h.put(bus, grouped("A1", "B1", "A2")...)
	// A record write that fails for a moment (a loaded SQS server) is
	// retried on the emulator clock: move it past the whole write schedule.
	h.advance(10 * time.Minute)
	byGroup := map[string][]string{}
	for _, msg := range env.consume(t, dlqURL, 3) {
		rec := recordOf(t, msg)
		group := msg.Attributes[string(types.MessageSystemAttributeNameMessageGroupId)]
		if rec.ErrorCode != CodeAccessDenied || rec.ErrorMessage != cantAccessMessage(targetArn) || *rec.FailedMessages[0].EventGroupID != group {
			t.Errorf("record %+v in group %q", rec, group)
		}
		byGroup[group] = append(byGroup[group], rec.FailedMessages[0].EventID)
	}
	if strings.Join(byGroup["A"], ",") != ids[0]+","+ids[2] || strings.Join(byGroup["B"], ",") != ids[1] {
		t.Fatalf("records by group = %v", byGroup)
	}
}

// TestEB11_UnwritableRecordCountsOnFailureDestinationFailed: a record whose
// queue does not exist is lost, counted and listed (D-DROP).
func TestEB11_UnwritableRecordCountsOnFailureDestinationFailed(t *testing.T) {
	_, h, bus := newSQSHarness(t)
	missing := "arn:aws:sqs:us-east-1:000000000000:gb-eb2-no-such-queue"
	sub := h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": "arn:aws:lambda:us-east-1:111122223333:function:f"},
		"RetryPolicy": m{"MaxRetryAttempts": 0}, "OnFailureConfiguration": m{"Arn": missing}})
	h.failSubscriber("s", CodeThrottling, 0)
	ids := h.put(bus, m{})
	h.settle()
	got := h.metrics(sub.SubscriberArn)
	if got.OnFailureDestinationFailed != 1 || got.DeadLetterRecords != 0 || got.EventsDropped != 0 {
		t.Fatalf("metrics = %+v", got)
	}
	drops := h.journal(engine.KindDrop, sub.SubscriberArn)
	if len(drops) != 1 || drops[0].Outcome != engine.ReasonDeadLetterNotFound || drops[0].EventIDs[0] != ids[0] {
		t.Fatalf("drops = %+v", drops)
	}
}

// TestEB13_EB_D3_SQSTargetMessagesCarrySystemMetadata: an SQS target gets
// the event as the body and its system metadata as message attributes; a
// FIFO target gets the EventGroupId as MessageGroupId.
func TestEB13_EB_D3_SQSTargetMessagesCarrySystemMetadata(t *testing.T) {
	env, h, bus := newSQSHarness(t)
	stdURL, stdArn := env.queue(t, "target", false)
	fifoURL, fifoArn := env.queue(t, "target", true)
	std := h.createSubscriber(m{"Name": "std", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": stdArn}})
	h.createSubscriber(m{"Name": "fifo", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": fifoArn}})
	ids := h.put(bus, m{"EventGroupId": "order-1001", "DeduplicationId": "dedup-1"})
	h.settle()
	msg := env.receive(t, stdURL, 1)[0]
	var ev map[string]any
	if err := json.Unmarshal([]byte(aws.ToString(msg.Body)), &ev); err != nil || ev["id"] != ids[0] {
		t.Fatalf("body = %s", aws.ToString(msg.Body))
	}
	want := map[string]string{
		"aws-EventId": ids[0], "aws-EventGroupId": "order-1001", "aws-DeduplicationId": "dedup-1",
		"aws-IngestionTime": "2026-09-16T18:40:00.000Z", "aws-DeliveryType": DeliveryLive,
		"aws-EventBusArn": bus, "aws-SubscriberArn": std.SubscriberArn,
	}
	for k, v := range want {
		if got := aws.ToString(msg.MessageAttributes[k].StringValue); got != v {
			t.Errorf("attribute %s = %q, want %q", k, got, v)
		}
	}
	fifoMsg := env.receive(t, fifoURL, 1)[0]
	if g := fifoMsg.Attributes[string(types.MessageSystemAttributeNameMessageGroupId)]; g != "order-1001" {
		t.Fatalf("FIFO MessageGroupId = %q", g)
	}
	if d := fifoMsg.Attributes[string(types.MessageSystemAttributeNameMessageDeduplicationId)]; d != "dedup-1" {
		t.Fatalf("FIFO MessageDeduplicationId = %q", d)
	}
}

// TestEB8_MissingSQSTargetIsResourceNotFound.
func TestEB8_MissingSQSTargetIsResourceNotFound(t *testing.T) {
	env, h, bus := newSQSHarness(t)
	dlqURL, dlqArn := env.queue(t, "dlq", false)
	gone := "arn:aws:sqs:us-east-1:000000000000:gb-eb2-target-that-is-not-there"
	h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": gone},
		"RetryPolicy": m{"MaxRetryAttempts": 0}, "OnFailureConfiguration": m{"Arn": dlqArn}})
	h.put(bus, m{})
	h.settle()
	rec := recordOf(t, env.receive(t, dlqURL, 1)[0])
	if rec.ErrorCode != CodeResourceNotFound || rec.ErrorMessage != cantAccessMessage(gone) {
		t.Fatalf("record = %+v", rec)
	}
}

// TestEB4_BlockedGroupOnRealFIFOQueue: a FIFO subscriber whose SQS target
// refuses one group's messages keeps that group's later events back while
// the other group flows, and delivers the held group in order once the
// target takes messages again.
func TestEB4_BlockedGroupOnRealFIFOQueue(t *testing.T) {
	t.Parallel()
	env := newSQSEnv(t)
	targetURL, targetArn := env.queue(t, "target", true)
	_, dlqArn := env.queue(t, "dlq", true)
	var refuseA atomic.Bool
	refuseA.Store(true)
	// The queue server refuses group A's messages (as an outage of one
	// partition would) and stores everything else.
	refusing := func(queues sqssend.Queues) sqssend.Queues {
		return queuesFunc(func(ctx context.Context, msg sqssend.Message) error {
			if msg.QueueArn == targetArn && msg.MessageGroupID == "A" && refuseA.Load() {
				return errors.New("service unavailable")
			}
			return queues.Send(ctx, msg)
		})
	}
	h := newHarness(t, harnessOptions{sqsEndpoint: env.endpoint, wrapSQS: refusing})
	bus := h.createBus("orders")
	h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": targetArn},
		"RetryPolicy": m{"MaxRetryAttempts": 20}, "OnFailureConfiguration": m{"Arn": dlqArn}})
	ids := h.put(bus, grouped("A1", "B1", "A2", "B2")...)
	h.settle()
	h.advance(3 * time.Second)
	first := env.consume(t, targetURL, 2)
	if got := []string{aws.ToString(first[0].MessageAttributes["aws-EventId"].StringValue), aws.ToString(first[1].MessageAttributes["aws-EventId"].StringValue)}; got[0] != ids[1] || got[1] != ids[3] {
		t.Fatalf("while A is refused the queue got %v, want B1, B2 (%s, %s)", got, ids[1], ids[3])
	}
	if n := env.count(t, targetURL); n != 0 {
		t.Fatalf("%d more messages while group A is blocked", n)
	}
	refuseA.Store(false)
	h.advance(4 * time.Second) // A1's next retry, at +7 s
	rest := env.consume(t, targetURL, 2)
	for i, want := range []string{ids[0], ids[2]} {
		msg := rest[i]
		if got := aws.ToString(msg.MessageAttributes["aws-EventId"].StringValue); got != want {
			t.Fatalf("message %d of group A is %s, want %s", i, got, want)
		}
		if g := msg.Attributes[string(types.MessageSystemAttributeNameMessageGroupId)]; g != "A" {
			t.Fatalf("MessageGroupId %q", g)
		}
	}
}
