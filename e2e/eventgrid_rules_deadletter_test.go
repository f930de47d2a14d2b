package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// EG-19: dead-lettering is off by default (a give-up is a journalled drop)
// and on with deadLetterDestination or deadLetterWithResourceIdentity.
func TestEG19_DeadLetteringOffByDefaultOnWithADestination(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t, fakes.Always(400))
	egSubscribe(t, emu, "orders", "plain", hook.URL(), armeventgrid.EventSubscriptionProperties{})
	egSubscribe(t, emu, "orders", "with-dest", hook.URL(), armeventgrid.EventSubscriptionProperties{
		DeadLetterDestination: egDeadLetterTo("devstoreaccount1", "dead")})
	egSubscribe(t, emu, "orders", "with-identity", hook.URL(), armeventgrid.EventSubscriptionProperties{
		DeadLetterWithResourceIdentity: &armeventgrid.DeadLetterWithResourceIdentity{
			Identity:              &armeventgrid.EventSubscriptionIdentity{Type: to.Ptr(armeventgrid.EventSubscriptionIdentityTypeSystemAssigned)},
			DeadLetterDestination: egDeadLetterTo("devstoreaccount1", "dead"),
		}})
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()
	emu.Advance(5 * time.Minute)

	if drops, dead := emu.Drops(testkit.Filter{Subscription: "plain"}), emu.DeadLetters(testkit.Filter{Subscription: "plain"}); len(drops) != 1 || len(dead) != 0 {
		t.Errorf("without a destination: drops %+v, dead letters %+v; want one drop", drops, dead)
	}
	for _, sub := range []string{"with-dest", "with-identity"} {
		dead := emu.DeadLetters(testkit.Filter{Subscription: sub})
		if len(dead) != 1 || !strings.HasPrefix(dead[0].Destination, "devstoreaccount1/dead/"+strings.ToUpper(sub)+"/") {
			t.Errorf("%s: dead letters %+v", sub, dead)
		}
	}
}

// EG-20: an event is dead-lettered when (a) its TTL runs out, (b) its
// attempts are used up, (c) the endpoint answered a never-retried code;
// the reason says which.
func TestEG20_TheThreeWaysToBeDeadLettered(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	failing, refusing := fakes.NewWebhook(t, fakes.Always(500)), fakes.NewWebhook(t, fakes.Always(413))
	dl := egDeadLetterTo("devstoreaccount1", "dead")
	egSubscribe(t, emu, "orders", "ttl", failing.URL(), armeventgrid.EventSubscriptionProperties{RetryPolicy: egRetry(30, 1), DeadLetterDestination: dl})
	egSubscribe(t, emu, "orders", "attempts", failing.URL(), armeventgrid.EventSubscriptionProperties{RetryPolicy: egRetry(2, 1440), DeadLetterDestination: dl})
	egSubscribe(t, emu, "orders", "client-error", refusing.URL(), armeventgrid.EventSubscriptionProperties{DeadLetterDestination: dl})
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()
	emu.Advance(time.Hour)

	for sub, reason := range map[string]string{"ttl": "TimeToLiveExceeded", "attempts": "MaxDeliveryAttemptsExceeded",
		"client-error": "UndeliverableDueToClientError"} {
		dead := emu.EventGridDeadLetters(testkit.Filter{Subscription: sub})
		if len(dead) != 1 || dead[0].DeadLetterReason != reason || dead[0].ID != "o-1" {
			t.Errorf("%s: dead letters %+v, want one with reason %s", sub, dead, reason)
		}
	}
}

// EG-23: a CloudEvents subscription's dead letter is the CloudEvent plus
// the lower-case deadletterreason, deliveryattempts, lastdeliveryoutcome
// and publishtime, as a blob in the real Azurite.
func TestEG23_CloudEventsRecordInAzurite(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	container := az.newContainer(t)
	emu := testkit.Start(t, testkit.WithAzureStorage(az.conn))
	egTopic(t, emu, "telemetry", armeventgrid.InputSchemaCloudEventSchemaV10)
	hook := fakes.NewWebhook(t, fakes.Always(403))
	egSubscribe(t, emu, "telemetry", "cloud-audit", hook.URL(), armeventgrid.EventSubscriptionProperties{
		DeadLetterDestination: egDeadLetterTo("devstoreaccount1", container)})
	ev := egPublishSensorReading(t, emu, "telemetry")
	emu.Settle()
	emu.Advance(5 * time.Minute)

	blobs := az.blobs(t, container)
	if len(blobs) != 1 {
		t.Fatalf("blobs %v, want one", blobs)
	}
	for name, records := range blobs {
		r := records[0]
		if !strings.HasPrefix(name, "CLOUD-AUDIT/2026/1/1/0/") || len(records) != 1 {
			t.Fatalf("blob %s holds %d records", name, len(records))
		}
		if r["deadletterreason"] != "UndeliverableDueToClientError" || r["deliveryattempts"] != float64(1) ||
			r["lastdeliveryoutcome"] != "Forbidden" || r["publishtime"] == nil || r["deadLetterReason"] != nil {
			t.Errorf("record %v, want the lower-case CloudEvents fields", r)
		}
		if r["id"] != ev.ID || r["specversion"] != "1.0" || r["source"] != "/sensors/7" || r["site"] != "north" {
			t.Errorf("record %v does not hold the CloudEvent as published", r)
		}
	}
	records, err := testkit.ReadDeadLetterBlobs(context.Background(), az.conn, container)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 1 || records[0].Format != testkit.DeadLetterCloudEventSchema || records[0].Subscription != "CLOUD-AUDIT" ||
		records[0].LastDeliveryOutcome != "Forbidden" || records[0].DeliveryAttempts != 1 || !records[0].PublishTime.Equal(testkit.DefaultStart()) {
		t.Fatalf("typed records %+v", records)
	}
	var event map[string]any
	if err := json.Unmarshal(records[0].Event, &event); err != nil || event["deadletterreason"] != nil || event["type"] != "Sensor.Read" {
		t.Fatalf("record's Event %s: %v", records[0].Event, err)
	}
}

// EG-23: a custom-schema subscription's dead letter is an Event Grid
// envelope (id, eventTime, eventType, dataVersion, metadataVersion, topic,
// subject — mapped), the dead-letter fields, and data holding the custom
// event exactly as published.
func TestEG23_CustomSchemaRecordInAzurite(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	container := az.newContainer(t)
	emu := testkit.Start(t, testkit.WithAzureStorage(az.conn))
	topic := emu.CreateTopic("legacy", &armeventgrid.TopicProperties{
		InputSchema:        to.Ptr(armeventgrid.InputSchemaCustomEventSchema),
		InputSchemaMapping: legacyMapping(),
	})
	hook := fakes.NewWebhook(t, fakes.Always(400))
	egSubscribe(t, emu, "legacy", "legacy-audit", hook.URL(), armeventgrid.EventSubscriptionProperties{
		DeadLetterDestination: egDeadLetterTo("devstoreaccount1", container)})
	published := `{"orderId":"ord-9","kind":"Created","amount":12.50}`
	if _, err := emu.EventGridPublisher("legacy").PublishCustomEventEvents(context.Background(), []any{json.RawMessage(published)}, nil); err != nil {
		t.Fatal(err)
	}
	emu.Settle()
	emu.Advance(5 * time.Minute)

	records, err := testkit.ReadDeadLetterBlobs(context.Background(), az.conn, container)
	if err != nil || len(records) != 1 {
		t.Fatalf("records %+v: %v", records, err)
	}
	r := records[0]
	if r.Format != testkit.DeadLetterEventGridSchema || r.ID != "ord-9" || r.DeadLetterReason != "UndeliverableDueToClientError" ||
		r.LastHTTPStatusCode != 400 || string(r.Data) != published {
		t.Fatalf("record %+v (data %s), want the mapped envelope and the event unchanged in data", r, r.Data)
	}
	var env map[string]any
	if err := json.Unmarshal(r.Event, &env); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": "ord-9", "eventType": "Created", "subject": "orders", "dataVersion": "2.0",
		"metadataVersion": "1", "topic": *topic.ID}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("envelope %s = %v, want %v", k, env[k], v)
		}
	}
	if _, ok := env["eventTime"]; !ok {
		t.Errorf("envelope has no eventTime: %v", env)
	}
}

// legacyMapping maps a custom schema: id from orderId, eventType from kind,
// subject and dataVersion by default.
func legacyMapping() *armeventgrid.JSONInputSchemaMapping {
	return &armeventgrid.JSONInputSchemaMapping{
		InputSchemaMappingType: to.Ptr(armeventgrid.InputSchemaMappingTypeJSON),
		Properties: &armeventgrid.JSONInputSchemaMappingProperties{
			ID:          &armeventgrid.JSONField{SourceField: to.Ptr("orderId")},
			EventType:   &armeventgrid.JSONFieldWithDefault{SourceField: to.Ptr("kind"), DefaultValue: to.Ptr("Unknown")},
			Subject:     &armeventgrid.JSONFieldWithDefault{DefaultValue: to.Ptr("orders")},
			DataVersion: &armeventgrid.JSONFieldWithDefault{DefaultValue: to.Ptr("2.0")},
		},
	}
}

// EG-24: each way an attempt can fail is named as lastDeliveryOutcome
// names it: 400 BadRequest, 401 Unauthorized, 403 Forbidden, 404 NotFound,
// 413 PayloadTooLarge, 429 and 503 Busy, refused connection SocketError.
func TestEG24_OutcomeNames(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	want := map[string]string{"s400": "BadRequest", "s401": "Unauthorized", "s403": "Forbidden", "s404": "NotFound",
		"s413": "PayloadTooLarge", "s429": "Busy", "s503": "Busy", "closed": "SocketError"}
	for _, code := range []int{400, 401, 403, 404, 413, 429, 503} {
		egSubscribe(t, emu, "orders", fmt.Sprintf("s%d", code), fakes.NewWebhook(t, fakes.Always(code)).URL(), armeventgrid.EventSubscriptionProperties{})
	}
	gone := fakes.NewWebhook(t)
	egSubscribe(t, emu, "orders", "closed", gone.URL(), armeventgrid.EventSubscriptionProperties{})
	gone.Close()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()
	for sub, outcome := range want {
		got := emu.WaitForDeliveries(testkit.Filter{Subscription: sub}, 1)
		if got[0].Outcome != outcome {
			t.Errorf("%s: outcome %s, want %s", sub, got[0].Outcome, outcome)
		}
	}
}

// NS-10 (the rehydrate use case) for basic topics: dead letters read back
// from Azurite with azblob are re-published to the topic and delivered
// once the endpoint is fixed, the same events.
func TestEG23_DeadLettersReadFromAzuriteAreRepublished(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	container := az.newContainer(t)
	emu := egOrdersTopic(t, testkit.WithAzureStorage(az.conn))
	broken, fixed := fakes.NewWebhook(t, fakes.Always(400)), fakes.NewWebhook(t)
	egSubscribe(t, emu, "orders", "audit", broken.URL(), armeventgrid.EventSubscriptionProperties{
		DeadLetterDestination: egDeadLetterTo("devstoreaccount1", container)})
	egPublish(t, emu, "orders", egEvents("o-1", "o-2")...)
	emu.Settle()
	emu.Advance(5 * time.Minute)
	records, err := testkit.ReadDeadLetterBlobs(context.Background(), az.conn, container)
	if err != nil || len(records) != 2 {
		t.Fatalf("records %+v: %v", records, err)
	}

	egSubscribe(t, emu, "orders", "audit", fixed.URL(), armeventgrid.EventSubscriptionProperties{}) // the fix
	emu.RepublishDeadLetters("orders", records)
	emu.Settle()
	got := map[string]string{}
	for _, ev := range fixed.Events() {
		got[ev.ID] = string(ev.Data)
	}
	if got["o-1"] != `{"id":"o-1"}` || got["o-2"] != `{"id":"o-2"}` || len(got) != 2 {
		t.Fatalf("re-published deliveries %v, want o-1 and o-2 with their data", got)
	}
}
