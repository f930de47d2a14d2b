package engine_test

import (
	"context"
	"net/http"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// webhookLike reports each attempt as an Event Grid webhook delivery does:
// a fresh body (the event in a JSON array) and a fresh header map whose
// delivery count changes per attempt.
func webhookLike(ctx context.Context, a *engine.Attempt) engine.Outcome {
	body := append([]byte{'['}, a.Batch.Items[0].Body...)
	body = append(body, ']')
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Aeg-Event-Type", "Notification")
	h.Set("Aeg-Subscription-Name", "AUDIT")
	h.Set("Aeg-Delivery-Count", strconv.Itoa(a.Number-1))
	h.Set("Aeg-Data-Version", "1.0")
	h.Set("Aeg-Metadata-Version", "1")
	return engine.Outcome{Name: "Busy", Status: 500, Message: "HTTP 500 Internal Server Error",
		Request:     &engine.RecordedRequest{Method: http.MethodPost, URL: "http://127.0.0.1:8080/webhook", Header: h, Body: body},
		Destination: "http://127.0.0.1:8080/webhook"}
}

// BenchmarkJournalBytesPerAttempt: live heap per journalled delivery attempt
// of a ~300-byte event to a webhook, beyond the event's own state: 2,000
// events retried every minute, 10 attempts each (20,000 attempt entries).
func BenchmarkJournalBytesPerAttempt(b *testing.B) {
	const events, attempts = 2000, 10
	body := []byte(`{"id":"order-00000","eventType":"Orders.Placed","subject":"orders/00000","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1.0","metadataVersion":"1","topic":"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.EventGrid/topics/orders","data":{"order":"a modest order","lines":[1,2,3,4,5,6,7,8]}}`)
	var perEntry float64
	for b.Loop() {
		clock := engine.NewVirtualClock(t0, 0)
		e := engine.New(clock, engine.NewJournalBytes(1_000_000, 1<<40))
		e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Minute, attempts}, Destination: engine.DestinationFunc(webhookLike)})
		items := make([]*engine.Item, events)
		for i := range items {
			items[i] = &engine.Item{ID: "order-" + strconv.Itoa(i), Body: append([]byte(nil), body...), PublishedAt: t0}
		}
		before := liveHeap()
		_ = e.Enqueue("r", items...)
		clock.Advance(time.Duration(attempts) * time.Minute)
		after := liveHeap()
		if n := e.Journal().Stats().Counts[engine.KindAttempt]; n != events*attempts {
			b.Fatalf("%d attempts, want %d", n, events*attempts)
		}
		perEntry = float64(after-before) / float64(events*attempts)
		runtime.KeepAlive(items)
		runtime.KeepAlive(e)
	}
	b.ReportMetric(perEntry, "B/attempt-entry")
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
