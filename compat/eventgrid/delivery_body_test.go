package eventgrid

import (
	"bytes"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
)

// A queued Event Grid event holds no rendered copy of itself; its
// body, rendered on demand, is byte for byte what rendering it at accept
// gives, however often and from however many goroutines it is asked for.
func TestQueuedEventRendersItsBodyOnDemand(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		input, delivery egevent.Schema
		body            string
	}{
		{egevent.EventGridSchema, egevent.EventGridSchema, `[{"id":"a","eventType":"T","subject":"s/1","eventTime":"2026-03-10T08:00:00Z","data":{"n": 1.50},"dataVersion":"1.0","extra":true}]`},
		{egevent.EventGridSchema, egevent.CloudEventSchemaV10, `[{"id":"a","eventType":"T","subject":"s/1","eventTime":"2026-03-10T08:00:00Z","data":{"n":1},"dataVersion":"1.0"}]`},
		{egevent.CloudEventSchemaV10, egevent.CloudEventSchemaV10, `[{"specversion":"1.0","id":"a","source":"src","type":"T","data":{"n":  1}}]`},
	} {
		ct := "application/json"
		if c.input == egevent.CloudEventSchemaV10 {
			ct = "application/cloudevents-batch+json"
		}
		h := http.Header{}
		h.Set("Content-Type", ct)
		events, derr := schema.Decode(schema.Topic{ID: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.EventGrid/topics/t", Name: "t", Input: c.input},
			schema.Request{Header: h, Body: []byte(c.body), MaxEventBytes: 1 << 20, Now: now, NewID: func() string { return "generated" }})
		if derr != nil || len(events) != 1 {
			t.Fatalf("%s: decoding: %v", c.input, derr)
		}
		want, err := schema.Render(events[0], c.delivery)
		if err != nil {
			t.Fatal(err)
		}
		item, err := newDeliveryItem(events[0], c.delivery)
		if err != nil {
			t.Fatal(err)
		}
		if item.Body != nil || item.Size != len(want) || item.Len() != len(want) {
			t.Fatalf("%s→%s: item holds %d body bytes, size %d; want none held, size %d", c.input, c.delivery, len(item.Body), item.Size, len(want))
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got := item.Bytes(); !bytes.Equal(got, want) {
					t.Errorf("%s→%s: rendered on demand\n%s\nwant\n%s", c.input, c.delivery, got, want)
				}
			}()
		}
		wg.Wait()
		if got := item.AppendBody([]byte("[")); !bytes.Equal(got, append([]byte("["), want...)) {
			t.Fatalf("%s→%s: appended %s", c.input, c.delivery, got)
		}
	}
	if _, err := newDeliveryItem(&egevent.Event{Schema: egevent.CloudEventSchemaV10, ID: "x", Raw: []byte(`{}`)}, egevent.EventGridSchema); err == nil {
		t.Fatal("a CloudEvents event queued for Event Grid delivery: want the render error at accept")
	}
}
