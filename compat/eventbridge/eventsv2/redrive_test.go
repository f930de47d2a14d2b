package eventsv2

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

// TestEB12_EB13_SeedRedriveProcedure follows EB-12 step by step against a
// real SQS server: two events fail for good (with a delivered one between
// them), their records are read from the dead-letter queue, the cause is
// fixed, a POINT_IN_TIME subscriber with a SYSTEM_METADATA filter on the
// record's event ids replays exactly those two — marked REPLAY (EB-13) —
// and then the subscriber and the records are deleted.
func TestEB12_EB13_SeedRedriveProcedure(t *testing.T) {
	env, h, bus := newSQSHarness(t)
	targetURL, targetArn := env.queue(t, "large-orders", false)
	dlqURL, dlqArn := env.queue(t, "orders-dlq", false)
	const role = "arn:aws:iam::111122223333:role/EventBusDeliveryRole"
	h.createSubscriber(m{"Name": "large-orders", "EventBusArn": bus,
		"InvokeConfiguration":    m{"TargetArn": targetArn, "RoleArn": role},
		"OnFailureConfiguration": m{"Arn": dlqArn}})
	// The delivery role may not send to the target: every attempt of one
	// event (1 + 5 retries) fails with ACCESS_DENIED.
	denyOneEvent := func() {
		h.failSubscriber("large-orders", CodeAccessDenied, 6)
	}

	denyOneEvent()
	h.advance(12 * time.Second)
	failed1 := h.put(bus, m{"Detail": `{"order":"1001"}`})[0] // 18:40:12
	h.settle()
	h.advance(48 * time.Second)
	delivered := h.put(bus, m{"Detail": `{"order":"1002"}`})[0] // 18:41:00, delivered live
	h.settle()
	denyOneEvent()
	h.advance(10 * time.Second)
	failed2 := h.put(bus, m{"Detail": `{"order":"1003"}`})[0] // 18:41:10
	h.settle()
	h.advance(10 * time.Minute)

	live := env.consume(t, targetURL, 1)[0]
	if aws.ToString(live.MessageAttributes["aws-EventId"].StringValue) != delivered ||
		aws.ToString(live.MessageAttributes["aws-DeliveryType"].StringValue) != DeliveryLive {
		t.Fatalf("live delivery = %v", live.MessageAttributes)
	}

	// Step 1: read the records; collect the event ids and the earliest and
	// latest timestamps.
	records := env.receive(t, dlqURL, 2)
	var ids, stamps []string
	for _, msg := range records {
		rec := recordOf(t, msg)
		if rec.ErrorCode != CodeAccessDenied || rec.ExhaustedRetryCondition != ExhaustedMaxRetryAttempts || rec.RetryAttempts != 5 {
			t.Fatalf("record = %+v", rec)
		}
		for _, fm := range rec.FailedMessages {
			ids = append(ids, fm.EventID)
			stamps = append(stamps, fm.Timestamp)
		}
	}
	sort.Strings(ids)
	sort.Strings(stamps)
	want := []string{failed1, failed2}
	sort.Strings(want)
	if strings.Join(ids, ",") != strings.Join(want, ",") || stamps[0] != "2026-09-16T18:40:12Z" || stamps[1] != "2026-09-16T18:41:10Z" {
		t.Fatalf("records name %v at %v, want %v", ids, stamps, want)
	}

	// Step 2: the cause is fixed (the fault rules are used up). Step 3:
	// the redrive subscriber, as in the seed's command.
	pattern, _ := json.Marshal(map[string][]string{"aws:EventId": ids})
	redrive := h.createSubscriber(m{
		"Name": "redrive-2026-09-16", "EventBusArn": bus,
		"StartingPosition":         "POINT_IN_TIME",
		"PointInTimeConfiguration": m{"PointType": "TIMESTAMP", "StartingPoint": stamps[0], "EndPoint": stamps[len(stamps)-1]},
		"FilterConfiguration":      m{"Filters": []m{{"Scope": "SYSTEM_METADATA", "Pattern": string(pattern)}}},
		"InvokeConfiguration":      m{"TargetArn": targetArn, "RoleArn": role},
	})
	h.settle()
	var replayed []string
	for _, msg := range env.consume(t, targetURL, 2) {
		if dt := aws.ToString(msg.MessageAttributes["aws-DeliveryType"].StringValue); dt != DeliveryReplay {
			t.Errorf("replayed message has aws-DeliveryType %q", dt)
		}
		var ev struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal([]byte(aws.ToString(msg.Body)), &ev)
		if ev.ID != aws.ToString(msg.MessageAttributes["aws-EventId"].StringValue) {
			t.Errorf("body id %q, attribute %v", ev.ID, msg.MessageAttributes["aws-EventId"])
		}
		replayed = append(replayed, ev.ID)
	}
	sort.Strings(replayed)
	if strings.Join(replayed, ",") != strings.Join(want, ",") {
		t.Fatalf("replayed %v, want exactly %v", replayed, want)
	}
	if n := env.count(t, targetURL); n != 0 {
		t.Fatalf("%d more messages reached the target", n)
	}
	if got := h.metrics(redrive.SubscriberArn); got.ReplayedEvents != 2 || got.Deliveries != 2 || got.LiveEvents != 0 {
		t.Fatalf("redrive metrics = %+v", got)
	}

	// Step 4: delete the subscriber and the records.
	h.mustCall("DeleteSubscriber", m{"Name": redrive.SubscriberArn}, nil)
	for _, msg := range records {
		if _, err := env.client.DeleteMessage(t.Context(), &sqs.DeleteMessageInput{QueueUrl: &dlqURL, ReceiptHandle: msg.ReceiptHandle}); err != nil {
			t.Fatal(err)
		}
	}
	if n := env.count(t, dlqURL); n != 0 {
		t.Fatalf("the dead-letter queue still holds %d messages", n)
	}
	// Later events go to the original subscriber only, live.
	h.put(bus, m{})
	h.settle()
	if msg := env.consume(t, targetURL, 1)[0]; aws.ToString(msg.MessageAttributes["aws-DeliveryType"].StringValue) != DeliveryLive {
		t.Fatalf("after the redrive: %v", msg.MessageAttributes)
	}
}
