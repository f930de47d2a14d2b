package soak

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/testkit"
)

const (
	consumerRuns   = 100
	eventsPerRun   = 40
	consumersCount = 4
	// visibility is the queues' VisibilityTimeout: a message a consumer
	// took is in flight this long on the emulator clock.
	visibility = 30 * time.Second
)

// PutEvents → rule → GridBridge's own SQS → four consumers receiving and
// deleting at once, 100 times on the virtual clock. A consumer can lose a
// ReceiveMessage answer GridBridge sent (aws-sdk-go-v2 may drop the
// connection while reading a 200, a race between its request-body close and
// net/http's writer); those messages stay in flight, and on a virtual clock
// no visibility timeout ends by itself. So every run must end with each
// event received by some consumer or counted in flight
// (ApproximateNumberOfMessagesNotVisible, and inFlight in GET
// /_emulator/sqs), none visible; and testkit's WaitForSQSMessages, which
// advances the clock past the visibility timeout when what it waits for is
// in flight, must bring every one back: in the end each event is received
// exactly once. Every tenth run loses one receive's answer on purpose, so
// the recovery is exercised whether or not the race strikes.
func TestSoakSQSFourConsumersNothingStranded(t *testing.T) {
	t.Parallel()
	emu := start(t, 0)
	ctx := context.Background()
	eb, q := emu.EventBridge(), emu.SQS()
	stranded := 0
	for run := range consumerRuns {
		name := fmt.Sprintf("run-%03d", run)
		url, arn := consumersRun(t, ctx, emu, eb, q, name)
		want := putRunEvents(t, ctx, eb, name)
		waitQueued(t, emu, name, len(want))

		lost := 0
		if run%10 == 0 {
			// A consumer whose answer is lost, for certain: it takes a
			// batch and never sees it, as when the SDK drops the
			// connection while reading the 200.
			out, err := q.ReceiveMessage(ctx, &sqssdk.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10})
			if err != nil || len(out.Messages) == 0 {
				t.Fatalf("%s: the lost receive: %+v %v", name, out, err)
			}
			lost = len(out.Messages)
		}
		got := consume(t, ctx, q, url)
		visible, inFlight := queueCounts(t, ctx, q, url)
		if visible != 0 || len(got)+inFlight != len(want) || inFlight < lost {
			t.Fatalf("%s: %d received, %d in flight, %d visible; want the %d events received or in flight", name, len(got), inFlight, visible, len(want))
		}
		if shown := inspectedInFlight(t, emu, arn); shown != inFlight {
			t.Fatalf("%s: /_emulator/sqs shows %d in flight, GetQueueAttributes %d", name, shown, inFlight)
		}
		if inFlight > 0 {
			stranded++
			// testkit's receive moves the clock past the visibility timeout
			// when what it waits for is in flight, and the messages whose
			// answer was lost come back.
			for _, m := range emu.WaitForSQSMessages(url, inFlight) {
				got = append(got, eventID(t, m))
				if _, err := q.DeleteMessage(ctx, &sqssdk.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: m.ReceiptHandle}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, inFlight := queueCounts(t, ctx, q, url); inFlight != 0 {
			t.Fatalf("%s: %d still in flight after the visibility timeout", name, inFlight)
		}
		onceEach(t, name+" received", got, want)
	}
	t.Logf("%d of %d runs left messages in flight (%d by a receive made to be lost); every one was received after the visibility timeout",
		stranded, consumerRuns, consumerRuns/10)
}

// consumersRun makes the run's queue and a rule on the default bus sending
// the run's events to it; it returns the queue's URL and ARN.
func consumersRun(t *testing.T, ctx context.Context, emu *testkit.Emulator, eb *ebsdk.Client, q *sqssdk.Client, name string) (string, string) {
	t.Helper()
	created, err := q.CreateQueue(ctx, &sqssdk.CreateQueueInput{QueueName: aws.String(name),
		Attributes: map[string]string{"VisibilityTimeout": strconv.Itoa(int(visibility / time.Second))}})
	if err != nil {
		t.Fatal(err)
	}
	attrs, err := q.GetQueueAttributes(ctx, &sqssdk.GetQueueAttributesInput{QueueUrl: created.QueueUrl,
		AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn}})
	if err != nil {
		t.Fatal(err)
	}
	arn := attrs.Attributes[string(sqstypes.QueueAttributeNameQueueArn)]
	if _, err := eb.PutRule(ctx, &ebsdk.PutRuleInput{Name: aws.String(name), EventPattern: aws.String(`{"source":["` + name + `"]}`)}); err != nil {
		t.Fatal(err)
	}
	out, err := eb.PutTargets(ctx, &ebsdk.PutTargetsInput{Rule: aws.String(name), Targets: []ebtypes.Target{{
		Id: aws.String("queue"), Arn: aws.String(arn)}}})
	if err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v %v", out, err)
	}
	return aws.ToString(created.QueueUrl), arn
}

// inspectedInFlight is the queue's in-flight count as GET /_emulator/sqs
// shows it.
func inspectedInFlight(t *testing.T, emu *testkit.Emulator, arn string) int {
	t.Helper()
	resp, err := emu.HTTPClient().Get(emu.URL() + "/_emulator/sqs")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Queues []struct {
			ARN      string `json:"arn"`
			InFlight *int   `json:"inFlight"`
		} `json:"queues"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("GET /_emulator/sqs: %v", err)
	}
	for _, q := range out.Queues {
		if q.ARN == arn && q.InFlight != nil {
			return *q.InFlight
		}
	}
	t.Fatalf("GET /_emulator/sqs shows no in-flight count for %s: %+v", arn, out.Queues)
	return 0
}

// putRunEvents puts the run's events, ten a call, and returns their ids.
func putRunEvents(t *testing.T, ctx context.Context, eb *ebsdk.Client, source string) []string {
	t.Helper()
	var all []string
	for sent := 0; sent < eventsPerRun; sent += 10 {
		entries := make([]ebtypes.PutEventsRequestEntry, 10)
		for i := range entries {
			entries[i] = ebtypes.PutEventsRequestEntry{Source: aws.String(source), DetailType: aws.String("Job"), Detail: aws.String(fmt.Sprintf(`{"n":%d}`, sent+i))}
		}
		put, err := eb.PutEvents(ctx, &ebsdk.PutEventsInput{Entries: entries})
		if err != nil || put.FailedEntryCount != 0 {
			t.Fatalf("PutEvents: %+v %v", put, err)
		}
		for _, e := range put.Entries {
			all = append(all, aws.ToString(e.EventId))
		}
	}
	return all
}

// waitQueued waits until the rule's target has delivered n events to its
// queue.
func waitQueued(t *testing.T, emu *testkit.Emulator, rule string, n int) {
	t.Helper()
	f := testkit.Filter{Rule: rule, Target: "queue"}
	emu.Settle()
	if m := emu.RouteMetrics(f); m.Delivered != uint64(n) {
		t.Fatalf("rule %s: %+v, want %d delivered to the queue", rule, m, n)
	}
}

// consume runs four consumers on the queue until each finds it empty, and
// returns the event ids they received (and deleted). A failed call is
// logged, not fatal: a lost answer is what the scenario is about.
func consume(t *testing.T, ctx context.Context, q *sqssdk.Client, url string) []string {
	t.Helper()
	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	for range consumersCount {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for failures := 0; ; {
				out, err := q.ReceiveMessage(ctx, &sqssdk.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10})
				if err != nil {
					t.Logf("ReceiveMessage: %v", err)
					if failures++; failures == 5 {
						t.Errorf("ReceiveMessage failed %d times in a row", failures)
						return
					}
					continue
				}
				failures = 0
				if len(out.Messages) == 0 {
					return
				}
				var del []sqstypes.DeleteMessageBatchRequestEntry
				for i, m := range out.Messages {
					id := eventID(t, m)
					mu.Lock()
					got = append(got, id)
					mu.Unlock()
					del = append(del, sqstypes.DeleteMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(i)), ReceiptHandle: m.ReceiptHandle})
				}
				if _, err := q.DeleteMessageBatch(ctx, &sqssdk.DeleteMessageBatchInput{QueueUrl: aws.String(url), Entries: del}); err != nil {
					t.Errorf("DeleteMessageBatch: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	return got
}

// queueCounts reads the queue's visible and in-flight message counts.
func queueCounts(t *testing.T, ctx context.Context, q *sqssdk.Client, url string) (visible, inFlight int) {
	t.Helper()
	out, err := q.GetQueueAttributes(ctx, &sqssdk.GetQueueAttributesInput{QueueUrl: aws.String(url), AttributeNames: []sqstypes.QueueAttributeName{
		sqstypes.QueueAttributeNameApproximateNumberOfMessages, sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible}})
	if err != nil {
		t.Fatal(err)
	}
	visible, _ = strconv.Atoi(out.Attributes[string(sqstypes.QueueAttributeNameApproximateNumberOfMessages)])
	inFlight, _ = strconv.Atoi(out.Attributes[string(sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible)])
	return visible, inFlight
}

// eventID is the id of the EventBridge event a message carries.
func eventID(t *testing.T, m sqstypes.Message) string {
	var ev struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &ev); err != nil {
		t.Errorf("message %s: %v", aws.ToString(m.Body), err)
	}
	return ev.ID
}
