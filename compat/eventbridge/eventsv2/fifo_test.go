package eventsv2

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fifoDLQ makes a subscriber FIFO (EB-4, EB-10) whatever its target.
const fifoDLQ = "arn:aws:sqs:us-east-1:111122223333:orders-dlq.fifo"

// eventsOf returns the (group, n) of the events one request carried.
func eventsOf(t *testing.T, r targetRequest) []string {
	t.Helper()
	body := r.Body
	if len(body) > 0 && body[0] == '{' {
		body = append(append([]byte("["), body...), ']')
	}
	var events []struct {
		Detail struct {
			Name string `json:"name"`
		} `json:"detail"`
	}
	if err := json.Unmarshal(body, &events); err != nil {
		t.Fatalf("request body: %v: %s", err, r.Body)
	}
	names := make([]string, len(events))
	for i, ev := range events {
		names[i] = ev.Detail.Name
	}
	return names
}

// grouped returns PutEvents entries named like "A1": group A, detail name A1.
func grouped(names ...string) []m {
	out := make([]m, len(names))
	for i, n := range names {
		out[i] = m{"EventGroupId": n[:1], "Detail": `{"name":"` + n + `"}`}
	}
	return out
}

func TestEB4_FailingEventBlocksItsGroupWhileOthersFlow(t *testing.T) {
	h := startTest(t)
	var failA atomic.Bool
	failA.Store(true)
	target := newHTTPTarget(t, h.clock, func(r targetRequest) (int, string) {
		if r.Header.Get("aws-EventGroupId") == "A" && failA.Load() {
			return 503, ""
		}
		return 200, ""
	})
	bus := h.createBus("orders")
	h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url},
		"RetryPolicy": m{"MaxRetryAttempts": 10}, "OnFailureConfiguration": m{"Arn": fifoDLQ}})
	h.put(bus, grouped("A1", "B1", "A2", "B2")...)
	h.settle()
	h.advance(time.Second)
	seen := func() (names []string) {
		for _, r := range target.received() {
			names = append(names, strings.Join(eventsOf(t, r), "+"))
		}
		return names
	}
	before := seen()
	if strings.Contains(strings.Join(before, ","), "A2") {
		t.Fatalf("A2 was tried while A1 was retrying: %v", before)
	}
	if n := strings.Count(strings.Join(before, ","), "A1"); n != 2 || !contains(before, "B1") || !contains(before, "B2") {
		t.Fatalf("before recovery: %v (want A1 twice, B1 and B2 delivered)", before)
	}
	if i, j := index(before, "B1"), index(before, "B2"); i > j {
		t.Fatalf("group B out of order: %v", before)
	}

	failA.Store(false)
	h.advance(2 * time.Second) // A1's second retry, at +3 s
	got := target.received()
	last := got[len(got)-2:]
	if names := eventsOf(t, last[0]); names[0] != "A1" || !last[0].At.Equal(t0.Add(3*time.Second)) {
		t.Fatalf("A1 recovered as %v at %s", names, last[0].At.Sub(t0))
	}
	if names := eventsOf(t, last[1]); names[0] != "A2" || !last[1].At.Equal(t0.Add(3*time.Second)) {
		t.Fatalf("A2 followed as %v at %s", names, last[1].At.Sub(t0))
	}
}

// TestEB4_EB10_GroupRecordsKeepOrder: each failed event of a group waits
// for the record of the one before it, and every record's MessageGroupId
// is the group.
func TestEB4_EB10_GroupRecordsKeepOrder(t *testing.T) {
	h := startTest(t)
	target := newHTTPTarget(t, h.clock, func(r targetRequest) (int, string) {
		if r.Header.Get("aws-EventGroupId") == "A" {
			return 400, `{"message":"rejected"}`
		}
		return 200, ""
	})
	bus := h.createBus("orders")
	h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url},
		"RetryPolicy": m{"MaxRetryAttempts": 0}, "OnFailureConfiguration": m{"Arn": fifoDLQ}})
	ids := h.put(bus, grouped("A1", "A2", "B1", "A3")...)
	h.settle()
	recs, letters := h.records(fifoDLQ)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	for i, want := range []string{ids[0], ids[1], ids[3]} {
		if recs[i].FailedMessages[0].EventID != want || letters[i].MessageGroupID != "A" || *recs[i].FailedMessages[0].EventGroupID != "A" {
			t.Errorf("record %d: event %s group %q, want %s in A", i, recs[i].FailedMessages[0].EventID, letters[i].MessageGroupID, want)
		}
		if letters[i].DeduplicationID == "" {
			t.Errorf("record %d has no deduplication id for the FIFO queue", i)
		}
	}
}

// TestEB4_BatchesNeverMixGroups: a FIFO subscriber's batch holds one
// group's events, in order.
func TestEB4_BatchesNeverMixGroups(t *testing.T) {
	h, target, bus := startWithTarget(t, always(200, ""))
	h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url, "MaxBatchSize": 3},
		"OnFailureConfiguration": m{"Arn": fifoDLQ}})
	h.put(bus, grouped("A1", "B1", "A2", "A3", "A4", "B2")...)
	h.settle()
	var batches []string
	for _, r := range target.received() {
		batches = append(batches, strings.Join(eventsOf(t, r), "+"))
	}
	want := map[string]bool{"A1+A2+A3": true, "B1+B2": true, "A4": true}
	if len(batches) != 3 {
		t.Fatalf("batches %v", batches)
	}
	for _, b := range batches {
		if !want[b] {
			t.Fatalf("batches %v, want %v", batches, want)
		}
	}
	if index(batches, "A1+A2+A3") > index(batches, "A4") {
		t.Fatalf("group A out of order: %v", batches)
	}
}

func contains(list []string, s string) bool { return index(list, s) >= 0 }

func index(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}
