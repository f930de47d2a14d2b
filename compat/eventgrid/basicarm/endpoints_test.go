package basicarm

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

func TestEndpointsBindTheTargets(t *testing.T) {
	t.Parallel()
	const base = "/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/topics/t1"
	// "METHOD path" → the target its handler is given.
	cases := map[string]target{
		"GET /subscriptions/s1/providers/Microsoft.EventGrid":                           {SubscriptionID: "s1"},
		"POST /subscriptions/s1/providers/Microsoft.EventGrid/register":                 {SubscriptionID: "s1"},
		"GET /subscriptions/s1/providers/Microsoft.EventGrid/topics":                    {SubscriptionID: "s1"},
		"GET /subscriptions/s1/resourcegroups/rg1/providers/microsoft.eventgrid/topics": {SubscriptionID: "s1", ResourceGroup: "rg1"},
		"PUT " + base:                     {SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1"},
		"POST " + base + "/LISTKEYS":      {SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1"},
		"POST " + base + "/regenerateKey": {SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1"},
		"GET " + base + "/providers/Microsoft.EventGrid/eventTypes":                                          {SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1"},
		"GET " + base + "/eventSubscriptions":                                                                {SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1"},
		"GET " + base + "/eventSubscriptions/e1":                                                             {SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", EventSub: "e1"},
		"POST " + base + "/eventSubscriptions/e1/getFullUrl":                                                 {SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", EventSub: "e1"},
		"GET " + base + "/providers/Microsoft.EventGrid/eventSubscriptions":                                  {SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", ScopeForm: true},
		"POST //" + base[1:] + "//providers/Microsoft.EventGrid/eventSubscriptions/e1/getDeliveryAttributes": {SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", EventSub: "e1", ScopeForm: true},
		"GET /subscriptions/s1/providers/Microsoft.EventGrid/eventSubscriptions":                             {SubscriptionID: "s1"},
		"GET /subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/locations/West%20US/topicTypes/Microsoft.EventGrid.Topics/eventSubscriptions": {SubscriptionID: "s1", ResourceGroup: "rg1", Location: "West US", TopicType: "Microsoft.EventGrid.Topics"},
		"GET /subscriptions/s1/providers/Microsoft.EventGrid/topicTypes/Microsoft.EventGrid.Topics/eventSubscriptions":                                        {SubscriptionID: "s1", TopicType: "Microsoft.EventGrid.Topics"},
		"PUT /subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/domains/d1":                                                                   {SubscriptionID: "s1", ResourceGroup: "rg1", Domain: "d1"},
		"POST /subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/domains/d1/listKeys":                                                         {SubscriptionID: "s1", ResourceGroup: "rg1", Domain: "d1"},
		"GET /subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/domains/d1/topics":                                                            {SubscriptionID: "s1", ResourceGroup: "rg1", Domain: "d1"},
		"PUT /subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/domains/d1/topics/t1":                                                         {SubscriptionID: "s1", ResourceGroup: "rg1", Domain: "d1", Topic: "t1"},
		"PUT /subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/domains/d1/eventSubscriptions/e1":                                             {SubscriptionID: "s1", ResourceGroup: "rg1", Domain: "d1", EventSub: "e1"},
		"GET /subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/domains/d1/topics/t1/providers/Microsoft.EventGrid/eventSubscriptions/e1":     {SubscriptionID: "s1", ResourceGroup: "rg1", Domain: "d1", Topic: "t1", EventSub: "e1", ScopeForm: true},
		"GET /subscriptions/s1/providers/Microsoft.EventGrid/systemTopics":                                                                                    {SubscriptionID: "s1"},
		"PUT /subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/systemTopics/st1/eventSubscriptions/e1":                                       {SubscriptionID: "s1", ResourceGroup: "rg1", SystemTopic: "st1", EventSub: "e1"},
	}
	table := probeTable()
	for request, want := range cases {
		method, path, _ := strings.Cut(request, " ")
		req := httptest.NewRequest(method, path, nil)
		if !table.Matches(req) {
			t.Errorf("%s: not claimed", request)
			continue
		}
		rec := httptest.NewRecorder()
		table.ServeHTTP(rec, req)
		var got target
		if err := json.Unmarshal(rec.Body.Bytes(), &got); rec.Code != http.StatusOK || err != nil || got != want {
			t.Errorf("%s: %d %s; want %+v", request, rec.Code, rec.Body, want)
		}
	}
}

// Paths of other providers and Event Grid resource types are left to other
// handlers.
func TestEndpointsLeaveOtherPaths(t *testing.T) {
	t.Parallel()
	table := probeTable()
	for _, p := range []string{
		"/", "/topics/t1/api/events", "/subscriptions/s1",
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.Storage/storageAccounts/a",
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/namespaces/n1",
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/partnerTopics/p1",
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/domains/d1/topics/t1/other",
		"/subscriptions/s1/providers/Microsoft.EventGrid/topics/t1", // a topic needs a resource group
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/topics/t1/eventSubscriptions/e1/other",
	} {
		if table.Matches(httptest.NewRequest(http.MethodGet, p, nil)) {
			t.Errorf("%q was claimed", p)
		}
	}
}

// A served path with a method no row has answers 405 in ARM's error shape,
// naming the methods it allows.
func TestEndpointsRefuseOtherMethods(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	probeTable().ServeHTTP(rec, httptest.NewRequest(http.MethodDelete, "/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/topics/t1/listKeys", nil))
	var body struct {
		Error struct{ Code, Message string }
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	if rec.Code != http.StatusMethodNotAllowed || body.Error.Code != "MethodNotAllowed" || rec.Header().Get("Allow") != "POST" {
		t.Fatalf("%d %s %v", rec.Code, rec.Body, rec.Header())
	}
}

// probeTable is the real table with every handler answering the target
// it was given.
func probeTable() *arm.Table {
	h := &Handler{}
	probe := func(_ *arm.Request, tg target) (arm.Response, *arm.Error) { return arm.OK(tg), nil }
	return arm.NewTable(arm.Options{}, h.endpoints(func(scopeForm bool, _ handlerAt) arm.Handler { return atForm(scopeForm, probe) })...)
}
