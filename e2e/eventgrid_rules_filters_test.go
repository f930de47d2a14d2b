package e2e

import (
	"fmt"
	"slices"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// Filters end to end: each subscription's filter, set through ARM, picks
// the events it receives, with Azure's rules for subject case, missing
// keys (StringNotIn matches, StringNotContains does not) and arrays (no
// match unless enableAdvancedFilteringOnArrays).
func TestFilters_SelectWhatEachSubscriptionReceives(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t)
	key := to.Ptr("data.note")
	filters := map[string]*armeventgrid.EventSubscriptionFilter{
		"types":       {IncludedEventTypes: []*string{to.Ptr("Orders.Placed")}},
		"prefix-ci":   {SubjectBeginsWith: to.Ptr("/shop/orders/")},
		"prefix-cs":   {SubjectBeginsWith: to.Ptr("/shop/orders/"), IsSubjectCaseSensitive: to.Ptr(true)},
		"suffix":      {SubjectEndsWith: to.Ptr(".json")},
		"in-range":    {AdvancedFilters: []armeventgrid.AdvancedFilterClassification{&armeventgrid.NumberInRangeAdvancedFilter{Key: to.Ptr("data.amount"), OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeNumberInRange), Values: [][]*float64{{to.Ptr(10.0), to.Ptr(100.0)}}}}},
		"not-in":      {AdvancedFilters: []armeventgrid.AdvancedFilterClassification{&armeventgrid.StringNotInAdvancedFilter{Key: key, OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeStringNotIn), Values: []*string{to.Ptr("x")}}}},
		"not-contain": {AdvancedFilters: []armeventgrid.AdvancedFilterClassification{&armeventgrid.StringNotContainsAdvancedFilter{Key: key, OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeStringNotContains), Values: []*string{to.Ptr("zzz")}}}},
		"array-off":   {AdvancedFilters: []armeventgrid.AdvancedFilterClassification{vipTag()}},
		"array-on":    {EnableAdvancedFilteringOnArrays: to.Ptr(true), AdvancedFilters: []armeventgrid.AdvancedFilterClassification{vipTag()}},
		"bool":        {AdvancedFilters: []armeventgrid.AdvancedFilterClassification{&armeventgrid.BoolEqualsAdvancedFilter{Key: to.Ptr("data.flag"), OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeBoolEquals), Value: to.Ptr(true)}}},
		"null":        {AdvancedFilters: []armeventgrid.AdvancedFilterClassification{&armeventgrid.IsNullOrUndefinedAdvancedFilter{Key: to.Ptr("data.flag"), OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeIsNullOrUndefined)}}},
	}
	for name, f := range filters {
		egSubscribe(t, emu, "orders", name, hook.URL(), armeventgrid.EventSubscriptionProperties{Filter: f})
	}
	events := egEvents("e1", "e2", "e3")
	events[0].Subject, events[0].Data = to.Ptr("/Shop/Orders/1.json"), map[string]any{"amount": 15, "tags": []string{"vip", "eu"}, "note": "rush order", "flag": true}
	events[1].EventType, events[1].Subject, events[1].Data = to.Ptr("Orders.Cancelled"), to.Ptr("/shop/orders/2.xml"), map[string]any{"amount": 150, "tags": []string{"us"}, "flag": false}
	events[2].Subject, events[2].Data = to.Ptr("/shop/returns/3.json"), map[string]any{"amount": 5}
	egPublish(t, emu, "orders", events...)
	emu.Settle()

	want := map[string][]string{
		"types": {"e1", "e3"}, "prefix-ci": {"e1", "e2"}, "prefix-cs": {"e2"}, "suffix": {"e1", "e3"},
		"in-range": {"e1"}, "not-in": {"e1", "e2", "e3"}, "not-contain": {"e1"},
		"array-off": nil, "array-on": {"e1"}, "bool": {"e1"}, "null": {"e3"},
	}
	for name, ids := range want {
		var got []string
		for _, a := range emu.Deliveries(testkit.Filter{Subscription: name}) {
			got = append(got, a.EventIDs...)
		}
		slices.Sort(got)
		if !slices.Equal(got, ids) {
			t.Errorf("%s received %v, want %v", name, got, ids)
		}
	}
}

func vipTag() *armeventgrid.StringInAdvancedFilter {
	return &armeventgrid.StringInAdvancedFilter{Key: to.Ptr("data.tags"), OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeStringIn), Values: []*string{to.Ptr("VIP")}}
}

// Filters: at most 25 advanced filters per subscription; ARM refuses more
// with 400, and stores and echoes what it accepts with canonical casing.
func TestFilters_LimitsAndEcho(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t)
	many := make([]armeventgrid.AdvancedFilterClassification, 26)
	for i := range many {
		many[i] = &armeventgrid.IsNotNullAdvancedFilter{Key: to.Ptr(fmt.Sprintf("data.k%d", i)), OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeIsNotNull)}
	}
	_, err := emu.TryCreateEventSubscription("orders", "too-many", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()), Filter: &armeventgrid.EventSubscriptionFilter{AdvancedFilters: many}})
	egWantARM400(t, "26 advanced filters", err)

	got := emu.CreateEventSubscription("orders", "at-limit", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()), Filter: &armeventgrid.EventSubscriptionFilter{AdvancedFilters: many[:25]}})
	if n := len(got.Properties.Filter.AdvancedFilters); n != 25 {
		t.Fatalf("%d advanced filters echoed, want 25", n)
	}
	if _, ok := got.Properties.Filter.AdvancedFilters[0].(*armeventgrid.IsNotNullAdvancedFilter); !ok {
		t.Fatalf("filter echoed as %T, want the typed IsNotNull filter", got.Properties.Filter.AdvancedFilters[0])
	}
}
