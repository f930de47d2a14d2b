package eventgrid_test

import (
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// Advanced filters (compat/eventgrid/filter) apply to deliveries, and a
// filter Azure refuses is a 400 at create.
func TestAdvancedFilters(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	h.subscribe("orders", "big-orders", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(hook.URL()),
		Filter: &armeventgrid.EventSubscriptionFilter{AdvancedFilters: []armeventgrid.AdvancedFilterClassification{
			&armeventgrid.NumberGreaterThanAdvancedFilter{OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeNumberGreaterThan),
				Key: to.Ptr("data.total"), Value: to.Ptr(100.0)},
			&armeventgrid.StringInAdvancedFilter{OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeStringIn),
				Key: to.Ptr("topic"), Values: []*string{to.Ptr(topicID("orders"))}},
		}},
	})
	got, err := h.topicSubs().Get(ctx(t), resourceGroup, "orders", "big-orders", nil)
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := got.Properties.Filter.AdvancedFilters[0].(*armeventgrid.NumberGreaterThanAdvancedFilter); !ok || *f.Value != 100 {
		t.Fatalf("advanced filter not echoed: %#v", got.Properties.Filter.AdvancedFilters)
	}
	order := func(id string, total int) azeventgrid.Event {
		return azeventgrid.Event{ID: to.Ptr(id), EventType: to.Ptr("Order"), Subject: to.Ptr("o"), EventTime: to.Ptr(start), Data: map[string]int{"total": total}}
	}
	if _, err := h.publisher("orders").PublishEvents(ctx(t), []azeventgrid.Event{order("small", 5), order("big", 500)}, nil); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if events := hook.Events(); len(events) != 1 || events[0].ID != "big" {
		t.Fatalf("delivered %+v, want only 'big'", events)
	}

	var many []armeventgrid.AdvancedFilterClassification
	for range 26 {
		many = append(many, &armeventgrid.IsNotNullAdvancedFilter{OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeIsNotNull), Key: to.Ptr("id")})
	}
	_, err = h.topicSubs().BeginCreateOrUpdate(ctx(t), resourceGroup, "orders", "too-many", armeventgrid.EventSubscription{
		Properties: &armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL()),
			Filter: &armeventgrid.EventSubscriptionFilter{AdvancedFilters: many}}}, nil)
	if status, code := responseErrorCode(t, err); status != 400 || code != "InvalidRequest" {
		t.Fatalf("26 advanced filters: %d %s", status, code)
	}
}
