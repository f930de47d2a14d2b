package webhook

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/outbound"
)

// BenchmarkDeliver is one attempt of one Event Grid event to a webhook over
// the emulator's own transport: its allocations are the attempt path's.
func BenchmarkDeliver(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	b.Cleanup(srv.Close)
	fallback := http.DefaultTransport.(*http.Transport).Clone()
	client := NoRedirects(&http.Client{Transport: outbound.New(fallback, nil, nil, 8)})
	d := &Destination{Client: client, URL: srv.URL + "/api/updates?code=secret", SubscriptionName: "bench", Schema: egevent.EventGridSchema}
	ev := &egevent.Event{Schema: egevent.EventGridSchema, DataVersion: "1.0"}
	item := &engine.Item{Body: []byte(`{"id":"1","eventType":"Order.Placed","subject":"/orders/1","eventTime":"2026-01-02T03:04:05Z","data":{"orderId":1},"dataVersion":"1.0","metadataVersion":"1","topic":"/subscriptions/x/resourceGroups/rg/providers/Microsoft.EventGrid/topics/t"}`), Meta: ev}
	a := attempt(1, item)
	b.ReportAllocs()
	for b.Loop() {
		if o := d.Deliver(context.Background(), a); !o.OK {
			b.Fatal(o)
		}
	}
}
