package e2e

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// Schemas: an Event Grid event delivered to a CloudEventSchemaV1_0
// subscription is converted (source = topic, type = eventType, time =
// eventTime) and sent alone as application/cloudevents+json after the
// CloudEvents OPTIONS handshake.
func TestSchemas_EventGridToCloudEventsDelivery(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	topic := egTopic(t, emu, "orders", armeventgrid.InputSchemaEventGridSchema)
	hook := fakes.NewWebhook(t)
	egSubscribe(t, emu, "orders", "as-cloudevents", hook.URL(), armeventgrid.EventSubscriptionProperties{
		EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaCloudEventSchemaV10)})
	if n := countKind(hook.Requests(), fakes.KindAbuseProtection); n != 1 {
		t.Fatalf("%d OPTIONS handshakes, want 1", n)
	}
	egPublish(t, emu, "orders", egEvents("o-1")...)
	got, err := hook.WaitForDeliveries(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if ct := got[0].Header.Get("Content-Type"); ct != "application/cloudevents+json; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	var ce messaging.CloudEvent
	if err := json.Unmarshal(got[0].Body, &ce); err != nil {
		t.Fatalf("body %s is not one CloudEvent: %v", got[0].Body, err)
	}
	if ce.ID != "o-1" || ce.Source != *topic.ID || ce.Type != "Orders.Placed" || ce.Subject == nil || *ce.Subject != "orders/o-1" ||
		ce.Time == nil || !ce.Time.Equal(testkit.DefaultStart()) || string(ce.Data.([]byte)) != `{"id":"o-1"}` {
		t.Fatalf("converted event %+v (data %s)", ce, ce.Data)
	}
}

// Schemas: a CloudEvents topic delivers each event as published, extension
// attributes included; ARM refuses an Event Grid delivery schema for it.
func TestSchemas_CloudEventsTopicDeliversAsPublished(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	egTopic(t, emu, "telemetry", armeventgrid.InputSchemaCloudEventSchemaV10)
	hook := fakes.NewWebhook(t)
	egSubscribe(t, emu, "telemetry", "raw", hook.URL(), armeventgrid.EventSubscriptionProperties{})
	_, err := emu.TryCreateEventSubscription("telemetry", "as-eventgrid", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()), EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaEventGridSchema)})
	egWantARM400(t, "Event Grid delivery of a CloudEvents topic", err)

	ev := egPublishSensorReading(t, emu, "telemetry")
	got, err := hook.WaitForDeliveries(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(got[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body["id"] != ev.ID || body["source"] != "/sensors/7" || body["site"] != "north" || body["topic"] != nil {
		t.Fatalf("delivered %v, want the CloudEvent as published", body)
	}
}

// Schemas: a custom-schema topic maps each published object by its
// inputSchemaMapping; an Event Grid subscription receives the mapped
// envelope (data = the object), a CustomInputSchema one the object itself.
func TestSchemas_CustomInputMapping(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	topic := emu.CreateTopic("legacy", &armeventgrid.TopicProperties{
		InputSchema: to.Ptr(armeventgrid.InputSchemaCustomEventSchema), InputSchemaMapping: legacyMapping()})
	mapped, raw := fakes.NewWebhook(t), fakes.NewWebhook(t)
	egSubscribe(t, emu, "legacy", "mapped", mapped.URL(), armeventgrid.EventSubscriptionProperties{
		EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaEventGridSchema)})
	egSubscribe(t, emu, "legacy", "raw", raw.URL(), armeventgrid.EventSubscriptionProperties{
		EventDeliverySchema: to.Ptr(armeventgrid.EventDeliverySchemaCustomInputSchema)})
	published := `{"orderId":"ord-9","kind":"Created","amount":12.50}`
	if _, err := emu.EventGridPublisher("legacy").PublishCustomEventEvents(context.Background(), []any{json.RawMessage(published)}, nil); err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "mapped"}, 1)
	emu.WaitForDeliveries(testkit.Filter{Subscription: "raw"}, 1)

	env := egBody(t, mapped.Deliveries()[0])[0]
	want := map[string]any{"id": "ord-9", "eventType": "Created", "subject": "orders", "dataVersion": "2.0", "metadataVersion": "1", "topic": *topic.ID}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("mapped %s = %v, want %v", k, env[k], v)
		}
	}
	if data, _ := json.Marshal(env["data"]); string(data) != `{"amount":12.5,"kind":"Created","orderId":"ord-9"}` {
		t.Errorf("mapped data %s, want the whole published object", data)
	}
	if got := string(raw.Deliveries()[0].Body); got != "["+published+"]" {
		t.Errorf("CustomInputSchema delivery %s, want [%s]", got, published)
	}
}
