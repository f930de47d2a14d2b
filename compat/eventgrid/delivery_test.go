package eventgrid_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
)

// The Event Grid schema path end to end: the subscription's webhook answers
// the validation handshake, GET masks the URL and secrets as Azure does,
// and a published event arrives with the service's headers and an array
// body (EG-2) carrying topic, dataVersion and metadataVersion.
func TestEventGridSchemaHandshakeAndDelivery(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.TLS())

	dest := webhook(hook.URL() + "?code=s3cret")
	dest.Properties.DeliveryAttributeMappings = []armeventgrid.DeliveryAttributeMappingClassification{
		&armeventgrid.StaticDeliveryAttributeMapping{Name: to.Ptr("X-Static"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
			Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr("topsecret"), IsSecret: to.Ptr(true)}},
		&armeventgrid.DynamicDeliveryAttributeMapping{Name: to.Ptr("X-Order"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeDynamic),
			Properties: &armeventgrid.DynamicDeliveryAttributeMappingProperties{SourceField: to.Ptr("data.order")}},
	}
	created := h.subscribe("orders", "mySub", armeventgrid.EventSubscriptionProperties{Destination: dest})
	if *created.Properties.ProvisioningState != armeventgrid.EventSubscriptionProvisioningStateSucceeded {
		t.Fatalf("provisioningState = %s", *created.Properties.ProvisioningState)
	}

	handshake := hook.Requests()
	if len(handshake) != 1 || handshake[0].Kind != fakes.KindValidation || handshake[0].RawQuery != "code=s3cret" {
		t.Fatalf("want one validation handshake to the full URL, got %+v", handshake)
	}
	if got := handshake[0].Header.Get("aeg-subscription-name"); got != "MYSUB" {
		t.Fatalf("handshake aeg-subscription-name = %q", got)
	}

	// GET masks: endpointUrl null, endpointBaseUrl without the query, secret "Hidden".
	got, err := h.topicSubs().Get(ctx(t), resourceGroup, "orders", "mySub", nil)
	if err != nil {
		t.Fatal(err)
	}
	wh := got.Properties.Destination.(*armeventgrid.WebHookEventSubscriptionDestination)
	if wh.Properties.EndpointURL != nil || *wh.Properties.EndpointBaseURL != hook.URL() {
		t.Fatalf("GET endpointUrl=%v endpointBaseUrl=%v", wh.Properties.EndpointURL, *wh.Properties.EndpointBaseURL)
	}
	static := wh.Properties.DeliveryAttributeMappings[0].(*armeventgrid.StaticDeliveryAttributeMapping)
	if *static.Properties.Value != "Hidden" {
		t.Fatalf("secret shown on GET: %q", *static.Properties.Value)
	}
	if *wh.Properties.MaxEventsPerBatch != 1 || *wh.Properties.PreferredBatchSizeInKilobytes != 64 {
		t.Fatalf("batch defaults %d/%d", *wh.Properties.MaxEventsPerBatch, *wh.Properties.PreferredBatchSizeInKilobytes)
	}
	if *got.Properties.EventDeliverySchema != armeventgrid.EventDeliverySchemaEventGridSchema ||
		*got.Properties.RetryPolicy.MaxDeliveryAttempts != 30 || *got.Properties.RetryPolicy.EventTimeToLiveInMinutes != 1440 {
		t.Fatalf("defaults: %s %+v", *got.Properties.EventDeliverySchema, got.Properties.RetryPolicy)
	}
	full, err := h.topicSubs().GetFullURL(ctx(t), resourceGroup, "orders", "mySub", nil)
	if err != nil || *full.EndpointURL != hook.URL()+"?code=s3cret" {
		t.Fatalf("getFullUrl = %v, %v", full.EndpointURL, err)
	}
	attrs, err := h.topicSubs().GetDeliveryAttributes(ctx(t), resourceGroup, "orders", "mySub", nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := *attrs.Value[0].(*armeventgrid.StaticDeliveryAttributeMapping).Properties.Value; v != "topsecret" {
		t.Fatalf("getDeliveryAttributes secret = %q", v)
	}

	_, err = h.publisher("orders").PublishEvents(ctx(t), []azeventgrid.Event{{
		ID: to.Ptr("e1"), EventType: to.Ptr("Order.Created"), Subject: to.Ptr("/orders/1"),
		EventTime: to.Ptr(start), DataVersion: to.Ptr("2.0"), Data: map[string]any{"order": 42},
	}}, nil)
	if err != nil {
		t.Fatalf("publish: %v", err)
	}
	deliveries, err := hook.WaitForDeliveries(ctx(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	d := deliveries[0]
	wantHeaders := map[string]string{
		"Content-Type": "application/json; charset=utf-8", "aeg-event-type": "Notification",
		"aeg-subscription-name": "MYSUB", "aeg-delivery-count": "0", "aeg-data-version": "2.0",
		"aeg-metadata-version": "1", "X-Static": "topsecret", "X-Order": "42",
	}
	for k, v := range wantHeaders {
		if got := d.Header.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	if d.RawQuery != "code=s3cret" {
		t.Errorf("delivery query = %q: the URL is used exactly as stored", d.RawQuery)
	}
	var body []map[string]any
	if err := json.Unmarshal(d.Body, &body); err != nil || len(body) != 1 {
		t.Fatalf("body %s: want an array of one event", d.Body)
	}
	ev := body[0]
	if ev["id"] != "e1" || ev["topic"] != topicID("orders") || ev["metadataVersion"] != "1" || ev["dataVersion"] != "2.0" ||
		ev["eventType"] != "Order.Created" || ev["subject"] != "/orders/1" {
		t.Fatalf("delivered event %v", ev)
	}
	h.settle()
	if a := h.attempts("mySub"); len(a) != 1 || a[0].Outcome != "Success" || a[0].Request == nil || a[0].Request.Header.Get("aeg-event-type") != "Notification" {
		t.Fatalf("journal attempts %+v", a)
	}
	if p := h.entries("publish", ""); len(p) != 1 || p[0].Labels["topic"] != "orders" || p[0].Labels["cloud"] != "eventgrid" {
		t.Fatalf("journal publish entries %+v", p)
	}
}

// A CloudEvents topic validates with the OPTIONS abuse-protection
// handshake and delivers each event as one object (structured mode), as
// published.
func TestCloudEventsHandshakeAndDelivery(t *testing.T) {
	t.Parallel()
	h, hook := newTopicHarness(t, "ce-topic", armeventgrid.InputSchemaCloudEventSchemaV10)

	// The extension-resource URL form (EventSubscriptionsClient).
	poller, err := h.eventSubs().BeginCreateOrUpdate(ctx(t), topicID("ce-topic"), "ceSub",
		armeventgrid.EventSubscription{Properties: &armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := poller.PollUntilDone(ctx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if *res.ID != topicID("ce-topic")+"/providers/Microsoft.EventGrid/eventSubscriptions/ceSub" ||
		*res.Properties.EventDeliverySchema != armeventgrid.EventDeliverySchemaCloudEventSchemaV10 {
		t.Fatalf("scope-form subscription %s schema %s", *res.ID, *res.Properties.EventDeliverySchema)
	}
	if r := hook.Requests(); len(r) != 1 || r[0].Kind != fakes.KindAbuseProtection || r[0].Header.Get("WebHook-Request-Origin") != "eventgrid.azure.net" {
		t.Fatalf("want the OPTIONS handshake, got %+v", r)
	}

	ce, err := messaging.NewCloudEvent("/my/source", "Thing.Happened", map[string]string{"k": "v"}, &messaging.CloudEventOptions{
		Subject: to.Ptr("things/1"), Extensions: map[string]any{"myext": "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.publisher("ce-topic").PublishCloudEvents(ctx(t), []messaging.CloudEvent{ce}, nil); err != nil {
		t.Fatalf("publish: %v", err)
	}
	deliveries, err := hook.WaitForDeliveries(ctx(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	d := deliveries[0]
	if ct := d.Header.Get("Content-Type"); ct != "application/cloudevents+json; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	var got messaging.CloudEvent
	if err := json.Unmarshal(d.Body, &got); err != nil {
		t.Fatalf("body %s is not one CloudEvent: %v", d.Body, err)
	}
	if got.ID != ce.ID || got.Source != "/my/source" || got.Type != "Thing.Happened" || got.Extensions["myext"] != "x" {
		t.Fatalf("delivered %+v", got)
	}
}

// An Event Grid schema topic can deliver CloudEvents: source is the topic
// id, type the eventType, time the eventTime.
func TestEventGridToCloudEventsDelivery(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	h.subscribe("orders", "ceSub", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(hook.URL()), EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaCloudEventSchemaV10)})

	if _, err := h.publisher("orders").PublishEvents(ctx(t), []azeventgrid.Event{{
		ID: to.Ptr("e1"), EventType: to.Ptr("Order.Created"), Subject: to.Ptr("/orders/1"),
		EventTime: to.Ptr(start), DataVersion: to.Ptr("1.0"), Data: map[string]any{"n": 1},
	}}, nil); err != nil {
		t.Fatal(err)
	}
	deliveries, err := hook.WaitForDeliveries(ctx(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	var got messaging.CloudEvent
	if err := json.Unmarshal(deliveries[0].Body, &got); err != nil {
		t.Fatalf("%s: %v", deliveries[0].Body, err)
	}
	if got.ID != "e1" || got.Source != topicID("orders") || got.Type != "Order.Created" || *got.Subject != "/orders/1" || !got.Time.Equal(start) {
		t.Fatalf("converted event %+v", got)
	}
}

// A custom-schema topic maps fields with its inputSchemaMapping: an Event
// Grid subscriber gets the mapped envelope with the whole object as data;
// a CustomInputSchema subscriber gets the object unchanged.
func TestCustomSchemaMappingAndDelivery(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	egHook, rawHook := newHook(t, h), newHook(t, h)
	h.createTopic("custom", armeventgrid.InputSchemaCustomEventSchema, &armeventgrid.JSONInputSchemaMapping{
		InputSchemaMappingType: to.Ptr(armeventgrid.InputSchemaMappingTypeJSON),
		Properties: &armeventgrid.JSONInputSchemaMappingProperties{
			ID:          &armeventgrid.JSONField{SourceField: to.Ptr("myId")},
			EventType:   &armeventgrid.JSONFieldWithDefault{SourceField: to.Ptr("myEventTypeField")},
			Subject:     &armeventgrid.JSONFieldWithDefault{DefaultValue: to.Ptr("DefaultSubject")},
			DataVersion: &armeventgrid.JSONFieldWithDefault{DefaultValue: to.Ptr("1.0")},
		},
	})
	got, err := h.topics().Get(ctx(t), resourceGroup, "custom", nil)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := got.Properties.InputSchemaMapping.(*armeventgrid.JSONInputSchemaMapping); !ok || *m.Properties.ID.SourceField != "myId" {
		t.Fatalf("inputSchemaMapping not echoed: %#v", got.Properties.InputSchemaMapping)
	}
	h.subscribe("custom", "egSub", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(egHook.URL()), EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaEventGridSchema)})
	h.subscribe("custom", "rawSub", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(rawHook.URL()), EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaCustomInputSchema)})

	published := map[string]any{"myId": "c1", "myEventTypeField": "Created", "resource": "Users/1"}
	if _, err := h.publisher("custom").PublishCustomEventEvents(ctx(t), []any{published}, nil); err != nil {
		t.Fatal(err)
	}
	egDeliveries, err := egHook.WaitForDeliveries(ctx(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	var eg []map[string]any
	if err := json.Unmarshal(egDeliveries[0].Body, &eg); err != nil {
		t.Fatal(err)
	}
	e := eg[0]
	data, _ := e["data"].(map[string]any)
	if e["id"] != "c1" || e["eventType"] != "Created" || e["subject"] != "DefaultSubject" || e["dataVersion"] != "1.0" ||
		e["metadataVersion"] != "1" || e["topic"] != topicID("custom") || data["resource"] != "Users/1" {
		t.Fatalf("mapped event %v", e)
	}
	rawDeliveries, err := rawHook.WaitForDeliveries(ctx(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	if string(rawDeliveries[0].Body) != `[{"myEventTypeField":"Created","myId":"c1","resource":"Users/1"}]` {
		t.Fatalf("custom delivery %s", rawDeliveries[0].Body)
	}
}

// Only events passing includedEventTypes and the subject filters (case
// folded unless isSubjectCaseSensitive) reach the subscriber.
func TestBasicFilter(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	h.subscribe("orders", "filtered", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(hook.URL()),
		Filter: &armeventgrid.EventSubscriptionFilter{
			IncludedEventTypes: []*string{to.Ptr("Order.Created")},
			SubjectBeginsWith:  to.Ptr("/Orders/"), SubjectEndsWith: to.Ptr(".json"),
		},
	})
	event := func(id, typ, subject string) azeventgrid.Event {
		return azeventgrid.Event{ID: to.Ptr(id), EventType: to.Ptr(typ), Subject: to.Ptr(subject), EventTime: to.Ptr(start), DataVersion: to.Ptr("1")}
	}
	if _, err := h.publisher("orders").PublishEvents(ctx(t), []azeventgrid.Event{
		event("wrong-type", "Order.Deleted", "/orders/1.json"),
		event("wrong-prefix", "Order.Created", "/invoices/1.json"),
		event("match", "order.created", "/orders/1.JSON"),
	}, nil); err != nil {
		t.Fatal(err)
	}
	h.settle()
	events := hook.Events()
	if len(events) != 1 || events[0].ID != "match" {
		t.Fatalf("delivered %+v, want only 'match'", events)
	}
	p := h.entries("publish", "")
	if len(p) != 3 || !strings.Contains(p[0].Message, "no event subscription matched") {
		t.Fatalf("publish entries %+v", p)
	}
	// An event no subscription took keeps its body in its publish entry
	// (the dashboard shows its type); a matched one is shown by its
	// deliveries and is not stored twice.
	var unmatched struct{ ID, EventType, Subject string }
	if err := json.Unmarshal(p[0].Body, &unmatched); err != nil || unmatched.ID != "wrong-type" || unmatched.EventType != "Order.Deleted" || unmatched.Subject != "/orders/1.json" {
		t.Errorf("the unmatched event's publish entry holds %s (%v), want the event as published", p[0].Body, err)
	}
	if len(p[2].Body) != 0 {
		t.Errorf("the matched event's publish entry holds a body: %s", p[2].Body)
	}
}

// Azure-resource destinations are captured: recorded in the journal as
// delivered, never silently lost (D-DROP).
func TestAzureResourceDestinationIsCaptured(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	queue := "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct"
	h.subscribe("orders", "toQueue", armeventgrid.EventSubscriptionProperties{
		Destination: &armeventgrid.StorageQueueEventSubscriptionDestination{
			EndpointType: to.Ptr(armeventgrid.EndpointTypeStorageQueue),
			Properties:   &armeventgrid.StorageQueueEventSubscriptionDestinationProperties{ResourceID: to.Ptr(queue), QueueName: to.Ptr("orders-q")},
		},
	})
	got, err := h.topicSubs().Get(ctx(t), resourceGroup, "orders", "toQueue", nil)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := got.Properties.Destination.(*armeventgrid.StorageQueueEventSubscriptionDestination); !ok || *d.Properties.QueueName != "orders-q" {
		t.Fatalf("destination not echoed: %#v", got.Properties.Destination)
	}
	if _, err := h.publisher("orders").PublishEvents(ctx(t), []azeventgrid.Event{{ID: to.Ptr("e1"), EventType: to.Ptr("T"),
		Subject: to.Ptr("s"), EventTime: to.Ptr(start)}}, nil); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if d := h.entries("delivered", "toQueue"); len(d) != 1 {
		t.Fatalf("delivered entries %+v", d)
	}
}
