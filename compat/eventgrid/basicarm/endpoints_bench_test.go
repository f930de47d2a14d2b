package basicarm

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// The cost of routing by table: an event-subscription GET (deep in the
// table, in the extension-resource form) through Matches and ServeHTTP,
// beside the same answer written by a handler called directly.
const benchPath = "/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/topics/t1/providers/Microsoft.EventGrid/eventSubscriptions/e1"

func BenchmarkEndpointsRouteThroughTable(b *testing.B) {
	table := probeTable()
	req := httptest.NewRequest(http.MethodGet, benchPath, nil)
	b.ReportAllocs()
	for b.Loop() {
		if !table.Matches(req) {
			b.Fatal("not claimed")
		}
		table.ServeHTTP(httptest.NewRecorder(), req)
	}
}

func BenchmarkEndpointsBaselineDirectHandler(b *testing.B) {
	req := httptest.NewRequest(http.MethodGet, benchPath, nil)
	tg := target{SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", EventSub: "e1", ScopeForm: true}
	b.ReportAllocs()
	for b.Loop() {
		arm.Write(httptest.NewRecorder(), arm.OK(tg))
		_ = req
	}
}
