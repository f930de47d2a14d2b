package armpath

import "testing"

func TestParse(t *testing.T) {
	t.Parallel()
	const base = "/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/topics/t1"
	cases := []struct {
		path string
		want Target
	}{
		{"/subscriptions/s1/providers/Microsoft.EventGrid", Target{Kind: Provider, SubscriptionID: "s1"}},
		{"/subscriptions/s1/providers/Microsoft.EventGrid/register", Target{Kind: Provider, SubscriptionID: "s1", Action: "register"}},
		{"/subscriptions/s1/providers/Microsoft.EventGrid/topics", Target{Kind: Topics, SubscriptionID: "s1"}},
		{"/subscriptions/s1/resourcegroups/rg1/providers/microsoft.eventgrid/topics", Target{Kind: Topics, SubscriptionID: "s1", ResourceGroup: "rg1"}},
		{base, Target{Kind: Topic, SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1"}},
		{base + "/LISTKEYS", Target{Kind: Topic, SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", Action: "listKeys"}},
		{base + "/regenerateKey", Target{Kind: Topic, SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", Action: "regenerateKey"}},
		{base + "/providers/Microsoft.EventGrid/eventTypes", Target{Kind: TopicEventTypes, SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1"}},
		{base + "/eventSubscriptions", Target{Kind: TopicSubscriptions, SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1"}},
		{base + "/eventSubscriptions/e1", Target{Kind: Subscription, SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", EventSub: "e1"}},
		{base + "/eventSubscriptions/e1/getFullUrl", Target{Kind: Subscription, SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", EventSub: "e1", Action: "getFullUrl"}},
		{base + "/providers/Microsoft.EventGrid/eventSubscriptions", Target{Kind: TopicSubscriptions, SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", ScopeForm: true}},
		{"//" + base[1:] + "//providers/Microsoft.EventGrid/eventSubscriptions/e1/getDeliveryAttributes",
			Target{Kind: Subscription, SubscriptionID: "s1", ResourceGroup: "rg1", Topic: "t1", EventSub: "e1", Action: "getDeliveryAttributes", ScopeForm: true}},
		{"/subscriptions/s1/providers/Microsoft.EventGrid/eventSubscriptions", Target{Kind: GlobalSubscriptions, SubscriptionID: "s1"}},
		{"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/locations/West%20US/topicTypes/Microsoft.EventGrid.Topics/eventSubscriptions",
			Target{Kind: GlobalSubscriptions, SubscriptionID: "s1", ResourceGroup: "rg1", Location: "West US", TopicType: "Microsoft.EventGrid.Topics"}},
		{"/subscriptions/s1/providers/Microsoft.EventGrid/topicTypes/Microsoft.EventGrid.Topics/eventSubscriptions",
			Target{Kind: GlobalSubscriptions, SubscriptionID: "s1", TopicType: "Microsoft.EventGrid.Topics"}},
	}
	for _, tc := range cases {
		got, ok := Parse(tc.path)
		if !ok || got != tc.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tc.path, got, ok, tc.want)
		}
	}
}

// Paths of other providers and Event Grid resource types are left to other
// handlers.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, p := range []string{
		"/", "/topics/t1/api/events", "/subscriptions/s1",
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.Storage/storageAccounts/a",
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/namespaces/n1",
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/domains/d1/topics/t1",
		"/subscriptions/s1/providers/Microsoft.EventGrid/topics/t1", // a topic needs a resource group
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/topics/t1/eventSubscriptions/e1/other",
		"/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.EventGrid/topics/%zz",
	} {
		if got, ok := Parse(p); ok {
			t.Errorf("Parse(%q) = %+v, want refused", p, got)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("/subscriptions/s/resourceGroups/r/providers/Microsoft.EventGrid/topics/t/eventSubscriptions/e")
	f.Add("/subscriptions/s/providers/Microsoft.EventGrid/locations/l/eventSubscriptions")
	f.Fuzz(func(t *testing.T, p string) { Parse(p) })
}
