package eventsv2

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// TestEB6_EveryFailureIsRetriedFirst: unlike classic targets, a 4xx is
// retried under the policy before it reaches the queue.
func TestEB6_EveryFailureIsRetriedFirst(t *testing.T) {
	h, target, bus := startWithTarget(t, always(400, `{"message":"bad"}`))
	h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url},
		"RetryPolicy": m{"MaxRetryAttempts": 2}, "OnFailureConfiguration": m{"Arn": memoryDLQ}})
	h.put(bus, m{})
	h.settle()
	h.advance(time.Minute)
	if n := len(target.received()); n != 3 {
		t.Fatalf("target saw %d attempts, want 3", n)
	}
	rec, _ := h.onlyRecord(memoryDLQ)
	if rec.RetryAttempts != 2 || rec.ExhaustedRetryCondition != ExhaustedMaxRetryAttempts || rec.ErrorCode != CodeCustomerValidation {
		t.Fatalf("record = %+v", rec)
	}
}

// TestEB2_DefaultScheduleAndLimits checks the back-off and both limits on
// the clock, with the defaults (5 retries, 300 s) and with 185 retries,
// where the age ends delivery first.
func TestEB2_DefaultScheduleAndLimits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		policy    m
		offsets   []time.Duration
		condition string
	}{
		{"defaults end at MaxRetryAttempts", nil,
			[]time.Duration{0, 1, 3, 7, 15, 31}, ExhaustedMaxRetryAttempts},
		{"185 retries end at MaxEventAgeInSeconds", m{"MaxRetryAttempts": 185},
			[]time.Duration{0, 1, 3, 7, 15, 31, 63, 127, 255}, ExhaustedMaxEventAge},
		{"age 60 s", m{"MaxEventAgeInSeconds": 60},
			[]time.Duration{0, 1, 3, 7, 15, 31}, ExhaustedMaxRetryAttempts},
		{"age 60 s and 185 retries", m{"MaxEventAgeInSeconds": 60, "MaxRetryAttempts": 185},
			[]time.Duration{0, 1, 3, 7, 15, 31}, ExhaustedMaxEventAge},
		{"no retries", m{"MaxRetryAttempts": 0},
			[]time.Duration{0}, ExhaustedMaxRetryAttempts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, harnessOptions{})
			target := newHTTPTarget(t, h.clock, always(500, "down"))
			bus := h.createBus("orders")
			in := m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url}, "OnFailureConfiguration": m{"Arn": memoryDLQ}}
			if tc.policy != nil {
				in["RetryPolicy"] = tc.policy
			}
			h.createSubscriber(in)
			h.put(bus, m{})
			h.settle()
			h.advance(2 * time.Hour)
			got := target.received()
			if len(got) != len(tc.offsets) {
				t.Fatalf("%d attempts, want %d", len(got), len(tc.offsets))
			}
			for i, r := range got {
				if want := t0.Add(tc.offsets[i] * time.Second); !r.At.Equal(want) {
					t.Errorf("attempt %d at %s, want %s", i+1, r.At.Sub(t0), want.Sub(t0))
				}
			}
			rec, attrs := h.onlyRecord(memoryDLQ)
			if rec.ExhaustedRetryCondition != tc.condition || rec.RetryAttempts != len(tc.offsets)-1 {
				t.Fatalf("record %s after %d retries, want %s after %d", rec.ExhaustedRetryCondition, rec.RetryAttempts, tc.condition, len(tc.offsets)-1)
			}
			if attrs[AttrRetryAttempts].Type != "Number" || attrs[AttrRetryAttempts].Value != fmt.Sprint(rec.RetryAttempts) {
				t.Fatalf("RETRY_ATTEMPTS = %+v", attrs[AttrRetryAttempts])
			}
		})
	}
}

// TestEB2_JitterIsSeededAndBounded: with jitter on, retries move by at most
// 20 % and the same seed gives the same times.
func TestEB2_JitterIsSeededAndBounded(t *testing.T) {
	t.Parallel()
	times := func() []time.Time {
		h := newHarness(t, harnessOptions{jitter: true, newID: func(kind string) string {
			if kind == IDKindEvent {
				return "fixed-event-id"
			}
			return ""
		}})
		target := newHTTPTarget(t, h.clock, always(500, ""))
		bus := h.createBus("orders")
		h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url}})
		h.put(bus, m{})
		h.settle()
		h.advance(time.Hour)
		var out []time.Time
		for _, r := range target.received() {
			out = append(out, r.At)
		}
		return out
	}
	a, b := times(), times()
	if len(a) != 6 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("runs differ or wrong count:\n%v\n%v", a, b)
	}
	exact := true
	for i := 1; i < len(a); i++ {
		wait, nominal := a[i].Sub(a[i-1]), retryWait(i)
		if wait < nominal*8/10 || wait > nominal*12/10 {
			t.Errorf("retry %d waited %s, nominal %s", i, wait, nominal)
		}
		exact = exact && wait == nominal
	}
	if exact {
		t.Fatal("jitter changed nothing")
	}
}

// TestEB6_InternalFailuresRetriedWithoutLimitNeverRecorded: failures of
// GridBridge itself ignore both limits and never produce a record.
func TestEB6_InternalFailuresRetriedWithoutLimitNeverRecorded(t *testing.T) {
	h := startTest(t)
	bus := h.createBus("orders")
	sub, dlq := h.oneShotSubscriber(bus, "s", "arn:aws:lambda:us-east-1:111122223333:function:f", m{"RetryPolicy": m{"MaxRetryAttempts": 0, "MaxEventAgeInSeconds": 60}})
	h.failSubscriber("s", OutcomeInternalFailure, 12)
	h.put(bus, m{})
	h.settle()
	h.advance(2 * time.Hour)
	if recs, _ := h.records(dlq); len(recs) != 0 {
		t.Fatalf("internal failures produced records: %+v", recs)
	}
	if d := h.journal(engine.KindDelivered, sub.SubscriberArn); len(d) != 1 || d[0].Attempt != 13 {
		t.Fatalf("delivered = %+v", d)
	}
}

// TestEB1_NoDeadLetterQueueDropsAndCounts: without OnFailureConfiguration,
// exhausted events are dropped; EventsDropped counts them and the journal
// lists them (D-DROP).
func TestEB1_NoDeadLetterQueueDropsAndCounts(t *testing.T) {
	h, target, bus := startWithTarget(t, always(500, ""))
	sub := h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url, "MaxBatchSize": 2}, "RetryPolicy": m{"MaxRetryAttempts": 1}})
	ids := h.put(bus, m{}, m{})
	h.settle()
	h.advance(time.Minute)
	drops := h.journal(engine.KindDrop, sub.SubscriberArn)
	if len(drops) != 1 || drops[0].Outcome != ExhaustedMaxRetryAttempts || strings.Join(drops[0].EventIDs, ",") != strings.Join(ids, ",") {
		t.Fatalf("drops = %+v", drops)
	}
	if got := h.metrics(sub.SubscriberArn); got.EventsDropped != 2 || got.DeadLetterRecords != 0 {
		t.Fatalf("metrics = %+v", got)
	}
	if queues := h.store.Queues(); len(queues) != 0 {
		t.Fatalf("a record was written without a queue: %v", queues)
	}
}

// TestEB13_EB_D3_HTTPHeadersCarrySystemMetadata checks what an HTTP target
// receives beside the event, and that SYSTEM_METADATA filters see the same.
func TestEB13_EB_D3_HTTPHeadersCarrySystemMetadata(t *testing.T) {
	h, target, bus := startWithTarget(t, always(204, ""))
	sub := h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url},
		"FilterConfiguration": m{"Filters": []m{
			{"Scope": "SYSTEM_METADATA", "Pattern": `{"aws:DeliveryType":["LIVE"],"aws:EventGroupId":[{"prefix":"order-"}]}`},
			{"Scope": "EVENT", "Pattern": `{"source":["orders"]}`},
		}}})
	h.advance(1500 * time.Millisecond)
	ids := h.put(bus, m{"EventGroupId": "order-1001", "DeduplicationId": "d-1"}, m{"EventGroupId": "other"}, m{"EventGroupId": "order-1002", "Source": "billing"})
	h.settle()
	got := target.received()
	if len(got) != 1 {
		t.Fatalf("%d requests, want only the event both filters pass", len(got))
	}
	want := map[string]string{
		"aws-EventId": ids[0], "aws-EventGroupId": "order-1001", "aws-DeduplicationId": "d-1",
		"aws-IngestionTime": "2026-09-16T18:40:01.500Z", "aws-DeliveryType": "LIVE",
		"aws-EventBusArn": bus, "aws-SubscriberArn": sub.SubscriberArn,
	}
	for k, v := range want {
		if g := got[0].Header.Get(k); g != v {
			t.Errorf("header %s = %q, want %q", k, g, v)
		}
	}
	var ev map[string]any
	if err := json.Unmarshal(got[0].Body, &ev); err != nil || ev["id"] != ids[0] || ev["detail-type"] != "OrderPlaced" || ev["account"] != testAccount || ev["time"] != "2026-09-16T18:40:01Z" {
		t.Fatalf("body = %s", got[0].Body)
	}
	if ct := got[0].Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q", ct)
	}
}

// TestEB12_RetentionBoundsReplay: a POINT_IN_TIME subscriber finds only
// events still in the bus's retention period; without an EndPoint it goes on
// with live events, marked LIVE.
func TestEB12_RetentionBoundsReplay(t *testing.T) {
	h := startTest(t)
	target := newHTTPTarget(t, h.clock, always(200, ""))
	var bus eventBusShape
	h.mustCall("CreateEventBus", m{"Name": "orders", "RetentionPeriodInSeconds": 3600}, &bus)
	expired := h.put(bus.EventBusArn, m{})
	h.advance(90 * time.Minute)
	kept := h.put(bus.EventBusArn, m{})
	h.advance(time.Minute)
	h.createSubscriber(m{"Name": "replay", "EventBusArn": bus.EventBusArn, "InvokeConfiguration": m{"TargetArn": target.url},
		"StartingPosition": "POINT_IN_TIME", "PointInTimeConfiguration": m{"PointType": "TIMESTAMP", "StartingPoint": t0.Unix()}})
	h.settle()
	live := h.put(bus.EventBusArn, m{})
	h.settle()
	got := target.received()
	if len(got) != 2 {
		t.Fatalf("%d deliveries, want the kept one and the live one (not %s)", len(got), expired[0])
	}
	if got[0].eventID() != kept[0] || got[0].Header.Get("aws-DeliveryType") != DeliveryReplay {
		t.Fatalf("first = %s %s", got[0].eventID(), got[0].Header.Get("aws-DeliveryType"))
	}
	if got[1].eventID() != live[0] || got[1].Header.Get("aws-DeliveryType") != DeliveryLive {
		t.Fatalf("second = %s %s", got[1].eventID(), got[1].Header.Get("aws-DeliveryType"))
	}
}

// TestEB_D1_DeletingASubscriberDropsWhatItHeld (D-DROP).
func TestEB_D1_DeletingASubscriberDropsWhatItHeld(t *testing.T) {
	h, target, bus := startWithTarget(t, always(500, ""))
	sub := h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url}})
	ids := h.put(bus, m{})
	h.settle()
	h.mustCall("DeleteSubscriber", m{"Name": "s"}, nil)
	drops := h.journal(engine.KindDrop, sub.SubscriberArn)
	if len(drops) != 1 || drops[0].Outcome != engine.ReasonRouteDeleted || drops[0].EventIDs[0] != ids[0] {
		t.Fatalf("drops = %+v", drops)
	}
	h.advance(time.Hour)
	if n := len(target.received()); n != 1 {
		t.Fatalf("%d attempts after delete, want only the first", n)
	}
}
