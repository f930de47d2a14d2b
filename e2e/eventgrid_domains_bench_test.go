package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/testkit"
)

// domainBenchEvents is benchEvents with each event naming one of ten
// domain topics.
func domainBenchEvents(first, n int) []byte {
	return jsonArray(n, func(b *bytes.Buffer, i int) {
		fmt.Fprintf(b, `{"id":"ev-%d","topic":"tenant-%d","eventType":"Orders.Placed","subject":"orders/%d","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1.0","data":{"orderId":%d,"total":42.5,"currency":"EUR"}}`,
			first+i, (first+i)%10, first+i, first+i)
	})
}

// A domain's routing by topic, measured as BenchmarkEventGridThroughputBatch100
// measures a topic: 1,000-event requests naming ten domain topics, one
// subscription on the domain with maxEventsPerBatch 100, against a bare
// client posting the same 100-event batches to a bare server.
func BenchmarkEventGridDomainThroughputBatch100(b *testing.B) {
	emu := testkit.Start(b, testkit.WithRealClock(), testkit.WithJournalLimits(10_000, 0))
	hook := newBenchWebhook(b, false)
	emu.CreateDomain("bench", nil)
	dest := testkit.WebHookDestination(hook.srv.URL)
	dest.Properties.MaxEventsPerBatch = to.Ptr[int32](100)
	emu.CreateScopedEventSubscription(testkit.DomainID("bench"), "sink", armeventgrid.EventSubscriptionProperties{Destination: dest})
	keys, err := emu.ARM().NewDomainsClient().ListSharedAccessKeys(context.Background(), testkit.ResourceGroup, "bench", nil)
	if err != nil {
		b.Fatal(err)
	}
	domain := benchTopic{client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}},
		url: emu.URL() + "/domains/bench/api/events?api-version=2018-01-01", key: *keys.Key1}
	measureBatch100Throughput(b, hook, domain, domainBenchEvents)
}
