package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// One batch to a domain naming two domain topics: only the subscribed
// topic's event is delivered, and its topic is the domain topic's id. The
// shipped binary, armeventgrid and azeventgrid, unmodified.
func TestDomainRoutesEachEventByItsTopicAgainstBinary(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	emu := testkit.Connect(t, proc.Endpoints["http"])
	ctx := context.Background()

	domain := emu.CreateDomain("tenants", nil)
	if *domain.Properties.ProvisioningState != armeventgrid.DomainProvisioningStateSucceeded ||
		!*domain.Properties.AutoCreateTopicWithFirstSubscription || !*domain.Properties.AutoDeleteTopicWithLastSubscription {
		t.Fatalf("domain as created: %+v", *domain.Properties)
	}
	topic := emu.CreateDomainTopic("tenants", "contoso")
	if *topic.ID != testkit.DomainTopicID("tenants", "contoso") {
		t.Fatalf("domain topic id %s", *topic.ID)
	}
	hook := fakes.NewWebhook(t)
	subs := emu.ARM().NewDomainTopicEventSubscriptionsClient()
	poller, err := subs.BeginCreateOrUpdate(ctx, testkit.ResourceGroup, "tenants", "contoso", "audit",
		armeventgrid.EventSubscription{Properties: &armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL())}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := poller.PollUntilDone(ctx, nil); err != nil {
		t.Fatal(err)
	}

	now := emu.Now()
	_, err = emu.DomainPublisher("tenants").PublishEvents(ctx, []azeventgrid.Event{
		{ID: to.Ptr("c-1"), Topic: to.Ptr("contoso"), EventType: to.Ptr("Tenant.Updated"), Subject: to.Ptr("t/1"), DataVersion: to.Ptr("1"), EventTime: &now, Data: map[string]any{"n": 1}},
		{ID: to.Ptr("f-1"), Topic: to.Ptr("fabrikam"), EventType: to.Ptr("Tenant.Updated"), Subject: to.Ptr("t/2"), DataVersion: to.Ptr("1"), EventTime: &now, Data: map[string]any{"n": 2}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 1)
	emu.Settle()
	events := hook.Events()
	if len(events) != 1 || events[0].ID != "c-1" || events[0].Topic != testkit.DomainTopicID("tenants", "contoso") {
		t.Fatalf("delivered %+v; want only c-1 with topic %s", events, testkit.DomainTopicID("tenants", "contoso"))
	}
	if n := len(emu.Deliveries(testkit.Filter{EventID: "f-1"})); n != 0 {
		t.Fatalf("f-1, for a topic nobody subscribed to, had %d attempts", n)
	}
}

// A subscription on the domain sees every domain topic's events; one on a
// domain topic that does not exist creates it (autoCreate…), and deleting
// its last subscription deletes it (autoDelete…).
func TestDomainSubscriptionsAndAutoManagedTopics(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	ctx := context.Background()
	emu.CreateDomain("tenants", nil)
	all, one := fakes.NewWebhook(t), fakes.NewWebhook(t)
	emu.CreateScopedEventSubscription(testkit.DomainID("tenants"), "everything",
		armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(all.URL())})
	emu.CreateScopedEventSubscription(testkit.DomainTopicID("tenants", "contoso"), "contoso-only",
		armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(one.URL())})

	topics := emu.ARM().NewDomainTopicsClient()
	if _, err := topics.Get(ctx, testkit.ResourceGroup, "tenants", "contoso", nil); err != nil {
		t.Fatalf("the first subscription did not create the domain topic: %v", err)
	}

	now := emu.Now()
	_, err := emu.DomainPublisher("tenants").PublishEvents(ctx, []azeventgrid.Event{
		{ID: to.Ptr("c-1"), Topic: to.Ptr("contoso"), EventType: to.Ptr("T"), Subject: to.Ptr("s"), DataVersion: to.Ptr("1"), EventTime: &now, Data: 1},
		{ID: to.Ptr("f-1"), Topic: to.Ptr(testkit.DomainTopicID("tenants", "fabrikam")), EventType: to.Ptr("T"), Subject: to.Ptr("s"), DataVersion: to.Ptr("1"), EventTime: &now, Data: 2},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "everything"}, 2)
	emu.WaitForDeliveries(testkit.Filter{Subscription: "contoso-only"}, 1)
	emu.Settle()
	got := map[string]string{}
	for _, ev := range all.Events() {
		got[ev.ID] = ev.Topic
	}
	if got["c-1"] != testkit.DomainTopicID("tenants", "contoso") || got["f-1"] != testkit.DomainTopicID("tenants", "fabrikam") || len(got) != 2 {
		t.Fatalf("the domain subscription got %v", got)
	}
	if ev := one.Events(); len(ev) != 1 || ev[0].ID != "c-1" {
		t.Fatalf("the domain topic subscription got %+v", ev)
	}

	del, err := emu.ARM().NewEventSubscriptionsClient().BeginDelete(ctx, testkit.DomainTopicID("tenants", "contoso"), "contoso-only", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := del.PollUntilDone(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var re *azcore.ResponseError
	if _, err := topics.Get(ctx, testkit.ResourceGroup, "tenants", "contoso", nil); !errors.As(err, &re) || re.StatusCode != http.StatusNotFound {
		t.Fatalf("after its last subscription went, the domain topic is still there: %v", err)
	}

	// Self-managed topics: a subscription needs its topic first.
	emu.CreateDomain("manual", &armeventgrid.DomainProperties{AutoCreateTopicWithFirstSubscription: to.Ptr(false)})
	poller, err := emu.ARM().NewDomainTopicEventSubscriptionsClient().BeginCreateOrUpdate(ctx, testkit.ResourceGroup, "manual", "nope", "sub1",
		armeventgrid.EventSubscription{Properties: &armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(all.URL())}}, nil)
	if err == nil {
		_, err = poller.PollUntilDone(ctx, nil)
	}
	if !errors.As(err, &re) || re.StatusCode != http.StatusNotFound {
		t.Fatalf("subscription on a missing self-managed domain topic: %v", err)
	}
}

// What a domain endpoint refuses, whole batch at a time: an event without
// a topic, a topic that does not exist in a self-managed domain, a bad
// topic name; CloudEvents route by source.
func TestDomainPublishRefusals(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	ctx := context.Background()
	emu.CreateDomain("manual", &armeventgrid.DomainProperties{AutoCreateTopicWithFirstSubscription: to.Ptr(false)})
	emu.CreateDomainTopic("manual", "known")
	hook := fakes.NewWebhook(t)
	emu.CreateScopedEventSubscription(testkit.DomainTopicID("manual", "known"), "known",
		armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL())})
	pub := emu.DomainPublisher("manual")
	now := emu.Now()
	ev := func(id string, topic *string) azeventgrid.Event {
		return azeventgrid.Event{ID: to.Ptr(id), Topic: topic, EventType: to.Ptr("T"), Subject: to.Ptr("s"), DataVersion: to.Ptr("1"), EventTime: &now, Data: 1}
	}
	for name, batch := range map[string][]azeventgrid.Event{
		"no topic":      {ev("a", to.Ptr("known")), ev("b", nil)},
		"unknown topic": {ev("a", to.Ptr("known")), ev("b", to.Ptr("unknown"))},
		"bad name":      {ev("a", to.Ptr("x"))},
	} {
		_, err := pub.PublishEvents(ctx, batch, nil)
		var re *azcore.ResponseError
		if !errors.As(err, &re) || re.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %v, want 400", name, err)
		}
	}
	emu.Settle()
	if n := len(hook.Deliveries()); n != 0 {
		t.Fatalf("%d deliveries from refused batches", n)
	}

	// The topic endpoint of a domain is not a topic's.
	resp, err := emu.HTTPClient().Post(emu.TLSURL()+"/topics/manual/api/events", "application/json", bytes.NewReader([]byte("[]")))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a domain's name under /topics/: %d", resp.StatusCode)
	}

	// CloudEvents domains route by source.
	emu.CreateDomain("clouds", &armeventgrid.DomainProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaCloudEventSchemaV10)})
	emu.CreateScopedEventSubscription(testkit.DomainTopicID("clouds", "orders"), "orders",
		armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL()),
			EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaCloudEventSchemaV10)})
	keys, err := emu.ARM().NewDomainsClient().ListSharedAccessKeys(ctx, testkit.ResourceGroup, "clouds", nil)
	if err != nil {
		t.Fatal(err)
	}
	clouds, err := emu.ARM().NewDomainsClient().Get(ctx, testkit.ResourceGroup, "clouds", nil)
	if err != nil {
		t.Fatal(err)
	}
	pubCE, err := azeventgrid.NewClientWithSharedKeyCredential(*clouds.Properties.Endpoint, azcore.NewKeyCredential(*keys.Key1),
		&azeventgrid.ClientOptions{ClientOptions: emu.AzureClientOptions()})
	if err != nil {
		t.Fatal(err)
	}
	ce1, _ := messaging.NewCloudEvent("orders", "Order.Placed", map[string]int{"n": 1}, nil)
	ce2, _ := messaging.NewCloudEvent("returns", "Order.Returned", map[string]int{"n": 2}, nil)
	if _, err := pubCE.PublishCloudEvents(ctx, []messaging.CloudEvent{ce1, ce2}, nil); err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "orders"}, 1)
	emu.Settle()
	var types []string
	for _, d := range hook.Deliveries() {
		var m map[string]any
		_ = json.Unmarshal(d.Body, &m)
		types = append(types, m["type"].(string))
	}
	if len(types) != 1 || types[0] != "Order.Placed" {
		t.Fatalf("CloudEvents deliveries %v", types)
	}
}

// A domain topic's subscription has what a topic's has: an advanced filter,
// CloudEvents delivery, batching, a delivery property, and a dead letter
// after its attempts run out (EG-11, EG-15, EG-19, EG-26).
func TestDomainTopicSubscriptionDeliveryFeatures(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	ctx := context.Background()
	emu.CreateDomain("tenants", nil)
	hook := fakes.NewWebhook(t, fakes.Always(400))
	emu.CreateScopedEventSubscription(testkit.DomainTopicID("tenants", "contoso"), "big-orders", armeventgrid.EventSubscriptionProperties{
		Destination: &armeventgrid.WebHookEventSubscriptionDestination{
			EndpointType: to.Ptr(armeventgrid.EndpointTypeWebHook),
			Properties: &armeventgrid.WebHookEventSubscriptionDestinationProperties{
				EndpointURL: to.Ptr(hook.URL()), MaxEventsPerBatch: to.Ptr[int32](10), PreferredBatchSizeInKilobytes: to.Ptr[int32](64),
				DeliveryAttributeMappings: []armeventgrid.DeliveryAttributeMappingClassification{&armeventgrid.StaticDeliveryAttributeMapping{
					Name: to.Ptr("X-Tenant"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
					Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr("contoso")},
				}},
			},
		},
		EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaCloudEventSchemaV10),
		Filter: &armeventgrid.EventSubscriptionFilter{AdvancedFilters: []armeventgrid.AdvancedFilterClassification{
			&armeventgrid.NumberGreaterThanAdvancedFilter{Key: to.Ptr("data.total"), OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeNumberGreaterThan), Value: to.Ptr[float64](100)},
		}},
		RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr[int32](1), EventTimeToLiveInMinutes: to.Ptr[int32](60)},
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				ResourceID: to.Ptr(testkit.StorageAccountID("devstoreaccount1")), BlobContainerName: to.Ptr("dead")},
		},
	})
	now := emu.Now()
	ev := func(id string, total int) azeventgrid.Event {
		return azeventgrid.Event{ID: to.Ptr(id), Topic: to.Ptr("contoso"), EventType: to.Ptr("Order.Placed"), Subject: to.Ptr("o"),
			DataVersion: to.Ptr("1"), EventTime: &now, Data: map[string]int{"total": total}}
	}
	if _, err := emu.DomainPublisher("tenants").PublishEvents(ctx, []azeventgrid.Event{ev("small", 5), ev("big-1", 500), ev("big-2", 900)}, nil); err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "big-orders"}, 1)
	emu.Settle()
	deliveries := hook.Deliveries()
	if len(deliveries) != 1 {
		t.Fatalf("%d delivery requests, want one batch", len(deliveries))
	}
	d := deliveries[0]
	var batch []map[string]any
	if err := json.Unmarshal(d.Body, &batch); err != nil || len(batch) != 2 || batch[0]["id"] != "big-1" || batch[1]["id"] != "big-2" ||
		batch[0]["source"] != testkit.DomainTopicID("tenants", "contoso") || batch[0]["specversion"] != "1.0" {
		t.Fatalf("batch %s (%v)", d.Body, err)
	}
	if d.Header.Get("X-Tenant") != "contoso" {
		t.Errorf("delivery property X-Tenant = %q", d.Header.Get("X-Tenant"))
	}
	emu.Advance(5 * time.Minute) // EG-21
	dead := emu.WaitForEventGridDeadLetters(testkit.Filter{Subscription: "big-orders"}, 1)
	if len(dead) != 2 || dead[0].DeadLetterReason != "UndeliverableDueToClientError" || dead[0].LastDeliveryOutcome != "BadRequest" {
		t.Fatalf("dead letters %+v", dead)
	}
}

// A custom-schema domain routes by the mapped topic field.
func TestCustomSchemaDomainRoutesByTheMappedTopic(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	ctx := context.Background()
	emu.CreateDomain("custom", &armeventgrid.DomainProperties{
		InputSchema: to.Ptr(armeventgrid.InputSchemaCustomEventSchema),
		InputSchemaMapping: &armeventgrid.JSONInputSchemaMapping{
			InputSchemaMappingType: to.Ptr(armeventgrid.InputSchemaMappingTypeJSON),
			Properties: &armeventgrid.JSONInputSchemaMappingProperties{
				Topic:     &armeventgrid.JSONField{SourceField: to.Ptr("tenant")},
				EventType: &armeventgrid.JSONFieldWithDefault{SourceField: to.Ptr("kind")},
				Subject:   &armeventgrid.JSONFieldWithDefault{DefaultValue: to.Ptr("none")},
			},
		},
	})
	hook := fakes.NewWebhook(t)
	emu.CreateScopedEventSubscription(testkit.DomainTopicID("custom", "contoso"), "contoso-custom",
		armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL()),
			EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaEventGridSchema)})
	pub := emu.DomainPublisher("custom")
	if _, err := pub.PublishCustomEventEvents(ctx, []any{
		map[string]any{"tenant": "contoso", "kind": "Made", "n": 1},
		map[string]any{"tenant": "fabrikam", "kind": "Made", "n": 2},
	}, nil); err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "contoso-custom"}, 1)
	emu.Settle()
	events := hook.Events()
	if len(events) != 1 || events[0].Topic != testkit.DomainTopicID("custom", "contoso") || events[0].Type != "Made" {
		t.Fatalf("events %+v", events)
	}
	var data map[string]any
	_ = json.Unmarshal(events[0].Data, &data)
	if data["n"] != 1.0 {
		t.Fatalf("data %v", data)
	}
	// An event without the mapped topic field refuses the request.
	_, err := pub.PublishCustomEventEvents(ctx, []any{map[string]any{"kind": "Made"}}, nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusBadRequest {
		t.Fatalf("custom event without a topic: %v", err)
	}
}
