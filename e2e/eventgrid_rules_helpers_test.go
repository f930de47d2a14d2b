package e2e

import (
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
	"github.com/gridbridge/gridbridge/testkit"
)

// The Event Grid rule tests (eventgrid_rules_*_test.go) drive GridBridge
// only through the official SDKs (armeventgrid, azeventgrid, azblob,
// azqueue) and the testkit, on the virtual clock: each proves one rule of
// docs/behaviour.md, named in the test.

// egTopic creates an Event Grid topic with the given input schema.
func egTopic(t *testing.T, emu *testkit.Emulator, name string, schema armeventgrid.InputSchema) armeventgrid.Topic {
	t.Helper()
	return emu.CreateTopic(name, &armeventgrid.TopicProperties{InputSchema: to.Ptr(schema)})
}

// egOrdersTopic starts an emulator with the topic most rule tests publish
// to: "orders", in the Event Grid schema.
func egOrdersTopic(t *testing.T, opts ...testkit.Option) *testkit.Emulator {
	t.Helper()
	emu := testkit.Start(t, opts...)
	egTopic(t, emu, "orders", armeventgrid.InputSchemaEventGridSchema)
	return emu
}

// egEvents are Event Grid events with the given ids, published "now" on
// the testkit clock, with data {"id": <id>}.
func egEvents(ids ...string) []azeventgrid.Event {
	out := make([]azeventgrid.Event, len(ids))
	for i, id := range ids {
		out[i] = azeventgrid.Event{ID: to.Ptr(id), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/" + id),
			DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(testkit.DefaultStart()), Data: map[string]any{"id": id}}
	}
	return out
}

// egPublish publishes events to topic in one request with azeventgrid.
func egPublish(t *testing.T, emu *testkit.Emulator, topic string, events ...azeventgrid.Event) {
	t.Helper()
	if _, err := emu.EventGridPublisher(topic).PublishEvents(context.Background(), events, nil); err != nil {
		t.Fatalf("publishing to %s: %v", topic, err)
	}
}

// egPublishSensorReading publishes to a CloudEvents topic, with
// azeventgrid, the event the CloudEvents tests follow: a sensor reading
// with a "site" extension attribute. It returns the event sent.
func egPublishSensorReading(t *testing.T, emu *testkit.Emulator, topic string) messaging.CloudEvent {
	t.Helper()
	ev, err := messaging.NewCloudEvent("/sensors/7", "Sensor.Read", map[string]any{"celsius": 21.5},
		&messaging.CloudEventOptions{Extensions: map[string]any{"site": "north"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emu.EventGridPublisher(topic).PublishCloudEvents(context.Background(), []messaging.CloudEvent{ev}, nil); err != nil {
		t.Fatal(err)
	}
	return ev
}

// egSubscribe creates an event subscription delivering to a webhook.
func egSubscribe(t *testing.T, emu *testkit.Emulator, topic, name, url string, props armeventgrid.EventSubscriptionProperties) {
	t.Helper()
	props.Destination = testkit.WebHookDestination(url)
	emu.CreateEventSubscription(topic, name, props)
}

// egRetry is a retryPolicy.
func egRetry(attempts, ttlMinutes int32) *armeventgrid.RetryPolicy {
	return &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr(attempts), EventTimeToLiveInMinutes: to.Ptr(ttlMinutes)}
}

// egDeadLetterTo dead-letters into container of the storage account.
func egDeadLetterTo(account, container string) *armeventgrid.StorageBlobDeadLetterDestination {
	return &armeventgrid.StorageBlobDeadLetterDestination{
		EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
		Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
			ResourceID: to.Ptr(testkit.StorageAccountID(account)), BlobContainerName: to.Ptr(container),
		},
	}
}

// egOffsets is when each entry happened, relative to from.
func egOffsets(entries []testkit.Entry, from time.Time) []time.Duration {
	out := make([]time.Duration, len(entries))
	for i, e := range entries {
		out[i] = e.Time.Sub(from)
	}
	return out
}

// egBody decodes a delivery body that must be a JSON array of events.
func egBody(t *testing.T, r fakes.Request) []map[string]any {
	t.Helper()
	var events []map[string]any
	if err := json.Unmarshal(r.Body, &events); err != nil {
		t.Fatalf("delivery body %s is not a JSON array: %v", r.Body, err)
	}
	return events
}

// egARMStatus is the HTTP status of an ARM error (0 for nil).
func egARMStatus(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("not an ARM error: %v", err)
	}
	return re.StatusCode
}

// egWantARM400 fails unless err is ARM's 400 InvalidRequest.
func egWantARM400(t *testing.T, what string, err error) {
	t.Helper()
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusBadRequest || re.ErrorCode != "InvalidRequest" {
		t.Errorf("%s: got %v, want ARM 400 InvalidRequest", what, err)
	}
}
