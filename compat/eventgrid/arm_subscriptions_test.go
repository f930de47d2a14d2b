package eventgrid_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// Out-of-range settings are refused with 400 at create (EG-11, EG-12,
// EG-15, EG-26, schema compatibility, expiration in the past).
func TestSubscriptionRangeValidation(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	batch := func(events, kb int32) *armeventgrid.WebHookEventSubscriptionDestination {
		d := webhook(hook.URL())
		d.Properties.MaxEventsPerBatch, d.Properties.PreferredBatchSizeInKilobytes = to.Ptr(events), to.Ptr(kb)
		return d
	}
	headers := func(n int, size int) *armeventgrid.WebHookEventSubscriptionDestination {
		d := webhook(hook.URL())
		for i := range n {
			d.Properties.DeliveryAttributeMappings = append(d.Properties.DeliveryAttributeMappings, &armeventgrid.StaticDeliveryAttributeMapping{
				Name: to.Ptr("X-H" + string(rune('a'+i))), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
				Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr(strings.Repeat("v", size))}})
		}
		return d
	}
	cases := []struct {
		name  string
		props armeventgrid.EventSubscriptionProperties
	}{
		{"EG-11 maxDeliveryAttempts 0", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL()), RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](0)}}},
		{"EG-11 maxDeliveryAttempts 31", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL()), RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](31)}}},
		{"EG-12 TTL 0", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL()), RetryPolicy: &armeventgrid.RetryPolicy{EventTimeToLiveInMinutes: to.Ptr[int32](0)}}},
		{"EG-12 TTL 1441", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL()), RetryPolicy: &armeventgrid.RetryPolicy{EventTimeToLiveInMinutes: to.Ptr[int32](1441)}}},
		{"EG-15 maxEventsPerBatch 5001", armeventgrid.EventSubscriptionProperties{Destination: batch(5001, 64)}},
		{"EG-15 maxEventsPerBatch -1", armeventgrid.EventSubscriptionProperties{Destination: batch(-1, 64)}},
		{"EG-15 preferredBatchSizeInKilobytes 1025", armeventgrid.EventSubscriptionProperties{Destination: batch(10, 1025)}},
		{"EG-26 eleven headers", armeventgrid.EventSubscriptionProperties{Destination: headers(11, 1)}},
		{"EG-26 value over 4096 bytes", armeventgrid.EventSubscriptionProperties{Destination: headers(1, 4097)}},
		{"no destination", armeventgrid.EventSubscriptionProperties{}},
		{"relative endpoint URL", armeventgrid.EventSubscriptionProperties{Destination: webhook("/relative")}},
		{"CustomInputSchema on an Event Grid topic", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL()),
			EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaCustomInputSchema)}},
		{"expiration in the past", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL()), ExpirationTimeUTC: to.Ptr(start.Add(-time.Hour))}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.topicSubs().BeginCreateOrUpdate(ctx(t), resourceGroup, "orders", "bad", armeventgrid.EventSubscription{Properties: &tc.props}, nil)
			if status, code := responseErrorCode(t, err); status != http.StatusBadRequest || code == "" {
				t.Fatalf("got %d %q, want 400", status, code)
			}
		})
	}
	// The limits themselves are accepted.
	h.subscribe("orders", "at-limits", armeventgrid.EventSubscriptionProperties{
		Destination: headers(10, 4096),
		RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](30), EventTimeToLiveInMinutes: to.Ptr[int32](1440)},
	})
}

// PATCH (201 in the Go SDK) replaces what it names and keeps the rest. As
// the CLI does, it may send the destination back without endpointUrl and
// with "Hidden" secrets: the stored values are kept.
func TestSubscriptionPatch(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	dest := webhook(hook.URL() + "?code=abc")
	dest.Properties.DeliveryAttributeMappings = []armeventgrid.DeliveryAttributeMappingClassification{
		&armeventgrid.StaticDeliveryAttributeMapping{Name: to.Ptr("X-Secret"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
			Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr("s3"), IsSecret: to.Ptr(true)}}}
	h.subscribe("orders", "patched", armeventgrid.EventSubscriptionProperties{Destination: dest, Labels: []*string{to.Ptr("a")}})

	got, err := h.eventSubs().Get(ctx(t), topicID("orders"), "patched", nil)
	if err != nil {
		t.Fatal(err)
	}
	masked := got.Properties.Destination.(*armeventgrid.WebHookEventSubscriptionDestination)
	poller, err := h.eventSubs().BeginUpdate(ctx(t), topicID("orders"), "patched", armeventgrid.EventSubscriptionUpdateParameters{
		Destination: masked, // endpointUrl null, secret "Hidden": as read
		RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](5), EventTimeToLiveInMinutes: to.Ptr[int32](60)},
		Filter:      &armeventgrid.EventSubscriptionFilter{SubjectBeginsWith: to.Ptr("/orders")},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := poller.PollUntilDone(ctx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Properties
	if *p.RetryPolicy.MaxDeliveryAttempts != 5 || *p.Filter.SubjectBeginsWith != "/orders" || *p.Labels[0] != "a" {
		t.Fatalf("patch result %+v", p)
	}
	full, err := h.eventSubs().GetFullURL(ctx(t), topicID("orders"), "patched", nil)
	if err != nil || *full.EndpointURL != hook.URL()+"?code=abc" {
		t.Fatalf("full URL after patch %v %v", full.EndpointURL, err)
	}
	attrs, err := h.eventSubs().GetDeliveryAttributes(ctx(t), topicID("orders"), "patched", nil)
	if err != nil || *attrs.Value[0].(*armeventgrid.StaticDeliveryAttributeMapping).Properties.Value != "s3" {
		t.Fatalf("secret after patch: %v", err)
	}
	if n := len(hook.Requests()); n != 1 {
		t.Fatalf("%d handshakes: an unchanged endpoint is not validated again", n)
	}
}

// DELETE (204) removes the subscription: GET is 404, deliveries stop.
// Deleting the topic deletes its subscriptions.
func TestDeleteStopsDelivery(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	h.subscribe("orders", "gone", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())})
	h.subscribe("orders", "kept", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())})

	del, err := h.topicSubs().BeginDelete(ctx(t), resourceGroup, "orders", "gone", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := del.PollUntilDone(ctx(t), nil); err != nil {
		t.Fatal(err)
	}
	_, err = h.topicSubs().Get(ctx(t), resourceGroup, "orders", "gone", nil)
	if status, code := responseErrorCode(t, err); status != 404 || code != "ResourceNotFound" {
		t.Fatalf("get after delete: %d %s", status, code)
	}
	h.publishOne("orders")
	if len(h.attempts("gone")) != 0 || len(h.attempts("kept")) != 1 {
		t.Fatalf("attempts gone=%d kept=%d", len(h.attempts("gone")), len(h.attempts("kept")))
	}

	tdel, err := h.topics().BeginDelete(ctx(t), resourceGroup, "orders", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tdel.PollUntilDone(ctx(t), nil); err != nil {
		t.Fatal(err)
	}
	if len(h.engine.Routes()) != 0 {
		t.Fatalf("routes left after topic delete: %v", h.engine.Routes())
	}
	// A topic of the same name starts with no subscriptions.
	h.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	pager := h.topicSubs().NewListPager(resourceGroup, "orders", nil)
	page, err := pager.NextPage(ctx(t))
	if err != nil || len(page.Value) != 0 {
		t.Fatalf("subscriptions of the recreated topic: %d, %v", len(page.Value), err)
	}
}

// Both URL forms list the same store; the global lists by Azure
// subscription are empty (no subscription-scope event subscriptions), the
// topic-type and regional ones list the topics' subscriptions.
func TestSubscriptionLists(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	for _, name := range []string{"one", "two", "three"} {
		h.subscribe("orders", name, armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())})
	}
	names := func(subs []*armeventgrid.EventSubscription) string {
		var out []string
		for _, s := range subs {
			out = append(out, *s.Name)
		}
		return strings.Join(out, ",")
	}
	var nested []*armeventgrid.EventSubscription
	pager := h.topicSubs().NewListPager(resourceGroup, "orders", &armeventgrid.TopicEventSubscriptionsClientListOptions{Top: to.Ptr[int32](2)})
	for pager.More() {
		page, err := pager.NextPage(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		nested = append(nested, page.Value...)
	}
	if names(nested) != "one,three,two" || !strings.HasSuffix(*nested[0].ID, "/topics/orders/eventSubscriptions/one") {
		t.Fatalf("nested list %s (%s)", names(nested), *nested[0].ID)
	}
	byResource := h.eventSubs().NewListByResourcePager(resourceGroup, "Microsoft.EventGrid", "topics", "orders", nil)
	page, err := byResource.NextPage(ctx(t))
	if err != nil || names(page.Value) != "one,three,two" || *page.Value[0].Type != "Microsoft.EventGrid/eventSubscriptions" {
		t.Fatalf("list by resource %v %v", names(page.Value), err)
	}
	global := h.eventSubs().NewListGlobalBySubscriptionPager(nil)
	gpage, err := global.NextPage(ctx(t))
	if err != nil || len(gpage.Value) != 0 {
		t.Fatalf("global list %d %v", len(gpage.Value), err)
	}
	regional := h.eventSubs().NewListRegionalByResourceGroupForTopicTypePager(resourceGroup, "West US 2", "Microsoft.EventGrid.Topics", nil)
	rpage, err := regional.NextPage(ctx(t))
	if err != nil || len(rpage.Value) != 3 {
		t.Fatalf("regional list %d %v", len(rpage.Value), err)
	}
}

// A subscription is deleted when its expirationTimeUtc passes on the
// emulator clock.
func TestSubscriptionExpires(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	sub := h.subscribe("orders", "brief", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(hook.URL()), ExpirationTimeUTC: to.Ptr(start.Add(time.Hour))})
	if !sub.Properties.ExpirationTimeUTC.Equal(start.Add(time.Hour)) {
		t.Fatalf("expiration echoed as %v", sub.Properties.ExpirationTimeUTC)
	}
	h.clock.Advance(59 * time.Minute)
	if _, err := h.topicSubs().Get(ctx(t), resourceGroup, "orders", "brief", nil); err != nil {
		t.Fatalf("expired early: %v", err)
	}
	h.clock.Advance(time.Minute)
	_, err := h.topicSubs().Get(ctx(t), resourceGroup, "orders", "brief", nil)
	if status, _ := responseErrorCode(t, err); status != 404 {
		t.Fatalf("after expiry: %d", status)
	}
}

// Reset forgets every resource and route; two Services never share state.
func TestResetAndIndependence(t *testing.T) {
	t.Parallel()
	a, b := newHarness(t), newHarness(t)
	hook := newHook(t, a)
	a.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	a.subscribe("orders", "sub1", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())})
	// The same name in another Service is no conflict.
	b.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	if _, err := b.topicSubs().Get(ctx(t), resourceGroup, "orders", "sub1", nil); err == nil {
		t.Fatal("a subscription leaked into another face")
	}

	a.face.Reset()
	if _, err := a.topics().Get(ctx(t), resourceGroup, "orders", nil); err == nil {
		t.Fatal("topic survived Reset")
	}
	if len(a.engine.Routes()) != 0 {
		t.Fatalf("routes survived Reset: %v", a.engine.Routes())
	}
	if _, err := b.topics().Get(ctx(t), resourceGroup, "orders", nil); err != nil {
		t.Fatalf("Reset of one face touched another: %v", err)
	}
}
