package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azqueue"

	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// newQueueName names a queue no other test of this process uses (Azurite
// is shared).
func newQueueName() string {
	return fmt.Sprintf("eg-%d-%d", time.Now().UnixNano()%1e9, containerSeq.Add(1))
}

func createQueue(t *testing.T, conn, name string) {
	t.Helper()
	svc, err := azqueue.NewServiceClientFromConnectionString(conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateQueue(context.Background(), name, nil); err != nil {
		t.Fatal(err)
	}
}

// storageQueue is a Storage Queue destination in account (any name: the
// emulator falls back to Azurite's devstoreaccount1).
func storageQueue(account, queue string, ttlSeconds *int64) *armeventgrid.StorageQueueEventSubscriptionDestination {
	return &armeventgrid.StorageQueueEventSubscriptionDestination{
		EndpointType: to.Ptr(armeventgrid.EndpointTypeStorageQueue),
		Properties: &armeventgrid.StorageQueueEventSubscriptionDestinationProperties{
			ResourceID: to.Ptr(testkit.StorageAccountID(account)), QueueName: to.Ptr(queue), QueueMessageTimeToLiveInSeconds: ttlSeconds,
		},
	}
}

// Storage Queue destination: each event becomes one message in Azurite's
// queue service, its text the event's JSON base64-encoded, living
// queueMessageTimeToLiveInSeconds; read back with the official azqueue SDK.
func TestStorageQueue_EachEventIsABase64MessageInAzurite(t *testing.T) {
	t.Parallel()
	conn := testenv.AzureStorage(t)
	queue := newQueueName()
	createQueue(t, conn, queue)
	emu := testkit.Start(t, testkit.WithAzureStorage(conn))
	topic := egTopic(t, emu, "orders", armeventgrid.InputSchemaEventGridSchema)
	got := emu.CreateEventSubscription("orders", "to-queue", armeventgrid.EventSubscriptionProperties{
		Destination: storageQueue("prodorders", queue, to.Ptr[int64](300))})
	if d := got.Properties.Destination.(*armeventgrid.StorageQueueEventSubscriptionDestination); *d.Properties.QueueName != queue ||
		*d.Properties.QueueMessageTimeToLiveInSeconds != 300 {
		t.Fatalf("destination echoed as %+v", d.Properties)
	}
	egPublish(t, emu, "orders", egEvents("o-1", "o-2")...)
	attempts := emu.WaitForDeliveries(testkit.Filter{Subscription: "to-queue"}, 2)

	messages, err := testkit.DrainStorageQueue(context.Background(), conn, queue)
	if err != nil {
		t.Fatal(err)
	}
	if len(messages) != 2 {
		t.Fatalf("%d messages in the queue, want 2", len(messages))
	}
	for _, m := range messages {
		var ev map[string]any
		if err := json.Unmarshal(m.Event, &ev); err != nil {
			t.Fatalf("message %s is not one JSON event: %v", m.Event, err)
		}
		if ev["topic"] != *topic.ID || ev["eventType"] != "Orders.Placed" || ev["metadataVersion"] != "1" || ev["dataVersion"] != "1.0" {
			t.Errorf("queued event %v", ev)
		}
		if ttl := m.Expires.Sub(m.Inserted); ttl != 300*time.Second {
			t.Errorf("message lives %v, want queueMessageTimeToLiveInSeconds 300", ttl)
		}
	}
	for _, a := range attempts {
		// The journal shows the message text as sent: base64.
		var text string
		if err := json.Unmarshal(a.Request.Body, &text); err != nil || !json.Valid(mustDecodeBase64(t, []byte(text))) ||
			a.Outcome != "Success" || !strings.Contains(a.Request.URL, "/"+queue+"/messages") {
			t.Errorf("attempt %+v", a)
		}
	}
}

// EG-7 for an Azure resource: a queue that does not exist is NotFound
// (404), retried no sooner than 5 minutes; once the queue exists the event
// is delivered.
func TestEG7_StorageQueueNotFoundRetriedAfterFiveMinutes(t *testing.T) {
	t.Parallel()
	conn := testenv.AzureStorage(t)
	queue := newQueueName()
	emu := egOrdersTopic(t, testkit.WithAzureStorage(conn))
	emu.CreateEventSubscription("orders", "to-queue", armeventgrid.EventSubscriptionProperties{Destination: storageQueue("devstoreaccount1", queue, nil)})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	first := emu.WaitForDeliveries(testkit.Filter{Subscription: "to-queue"}, 1)[0]
	if first.Outcome != "NotFound" || first.Status != 404 || first.NextAttemptAt == nil || first.NextAttemptAt.Sub(start) != 5*time.Minute {
		t.Fatalf("first attempt %+v, want NotFound 404 retried at +5m", first)
	}
	createQueue(t, conn, queue)
	emu.Advance(5 * time.Minute)
	if got := emu.Deliveries(testkit.Filter{Subscription: "to-queue"}); len(got) != 2 || got[1].Outcome != "Success" {
		t.Fatalf("attempts %+v, want the retry delivered", got)
	}
	if messages, err := testkit.DrainStorageQueue(context.Background(), conn, queue); err != nil || len(messages) != 1 {
		t.Fatalf("queue holds %d messages (%v), want 1", len(messages), err)
	}
}

// EG-6 for an Azure resource: the queue service refusing an event too big
// for a message (over 64 KB) is a never-retried code: dead-lettered at once.
func TestEG6_StorageQueueRefusesAnOversizeMessageNeverRetried(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	container, queue := az.newContainer(t), newQueueName()
	createQueue(t, az.conn, queue)
	emu := egOrdersTopic(t, testkit.WithAzureStorage(az.conn))
	emu.CreateEventSubscription("orders", "to-queue", armeventgrid.EventSubscriptionProperties{
		Destination: storageQueue("devstoreaccount1", queue, nil), DeadLetterDestination: egDeadLetterTo("devstoreaccount1", container)})
	big := egEvents("big")
	big[0].Data = map[string]any{"blob": strings.Repeat("x", 60_000)}
	egPublish(t, emu, "orders", big...)
	emu.Settle()
	emu.Advance(5 * time.Minute)

	attempts := emu.Deliveries(testkit.Filter{Subscription: "to-queue"})
	if len(attempts) != 1 || (attempts[0].Status != 400 && attempts[0].Status != 413) {
		t.Fatalf("attempts %+v, want one refused with 400 or 413", attempts)
	}
	dead := emu.EventGridDeadLetters(testkit.Filter{Subscription: "to-queue"})
	if len(dead) != 1 || dead[0].DeadLetterReason != "UndeliverableDueToClientError" || dead[0].LastHTTPStatusCode != attempts[0].Status {
		t.Fatalf("dead letters %+v", dead)
	}
}

// Storage Queue destinations are checked by ARM: a queue name Azure
// Storage would refuse, or a message time to live of 0, is a 400.
func TestStorageQueue_ARMRefusesBadQueueSettings(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	for what, d := range map[string]*armeventgrid.StorageQueueEventSubscriptionDestination{
		"queue name with capitals": storageQueue("acct", "Orders", nil),
		"message TTL 0":            storageQueue("acct", "orders", to.Ptr[int64](0)),
		"message TTL -2":           storageQueue("acct", "orders", to.Ptr[int64](-2)),
	} {
		_, err := emu.TryCreateEventSubscription("orders", "bad-queue", armeventgrid.EventSubscriptionProperties{Destination: d})
		egWantARM400(t, what, err)
	}
	if _, err := emu.TryCreateEventSubscription("orders", "forever", armeventgrid.EventSubscriptionProperties{
		Destination: storageQueue("acct", "orders", to.Ptr[int64](-1))}); err != nil {
		t.Fatalf("a TTL of -1 (never expires) is allowed: %v", err)
	}
}

// Service Bus, Event Hubs, Azure Function and Hybrid Connection
// destinations are accepted by ARM and captured (journal and inspection
// API); faults make them fail so their retry rules show: 503 retried after
// 30 s, 403 never retried, 401 retried after 5 minutes (Azure resources,
// EG-6, EG-7), a TimedOut retried on the schedule.
func TestCapturedDestinationsFailThroughFaults(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	res := "/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/" + testkit.ResourceGroup + "/providers/"
	emu.CreateEventSubscription("orders", "to-bus", armeventgrid.EventSubscriptionProperties{Destination: serviceBusQueue("orders")})
	emu.CreateEventSubscription("orders", "to-hub", armeventgrid.EventSubscriptionProperties{Destination: &armeventgrid.EventHubEventSubscriptionDestination{
		EndpointType: to.Ptr(armeventgrid.EndpointTypeEventHub),
		Properties:   &armeventgrid.EventHubEventSubscriptionDestinationProperties{ResourceID: to.Ptr(res + "Microsoft.EventHub/namespaces/ns/eventhubs/orders")}}})
	emu.CreateEventSubscription("orders", "to-func", armeventgrid.EventSubscriptionProperties{Destination: &armeventgrid.AzureFunctionEventSubscriptionDestination{
		EndpointType: to.Ptr(armeventgrid.EndpointTypeAzureFunction),
		Properties:   &armeventgrid.AzureFunctionEventSubscriptionDestinationProperties{ResourceID: to.Ptr(res + "Microsoft.Web/sites/app/functions/onOrder")}}})
	emu.CreateEventSubscription("orders", "to-relay", armeventgrid.EventSubscriptionProperties{Destination: &armeventgrid.HybridConnectionEventSubscriptionDestination{
		EndpointType: to.Ptr(armeventgrid.EndpointTypeHybridConnection),
		Properties:   &armeventgrid.HybridConnectionEventSubscriptionDestinationProperties{ResourceID: to.Ptr(res + "Microsoft.Relay/namespaces/ns/hybridConnections/orders")}}})
	postFault(t, emu, `{"match":{"subscription":"to-bus"},"status":503,"count":2}`)
	emu.FailDeliveries(testkit.Filter{Subscription: "to-hub"}, 403, 1)
	emu.FailDeliveries(testkit.Filter{Topic: "orders", Subscription: "to-func"}, 401, 1)
	emu.FailDeliveriesWithOutcome(testkit.Filter{Subscription: "to-relay"}, "TimedOut", 1)
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("o-1")...)
	emu.Settle()
	emu.Advance(10 * time.Minute)

	for sub, want := range map[string][]string{
		"to-bus":   {"0s Busy", "30s Busy", "1m0s Success"},
		"to-hub":   {"0s Forbidden"},
		"to-func":  {"0s Unauthorized", "5m0s Success"},
		"to-relay": {"0s TimedOut", "10s Success"},
	} {
		var got []string
		for _, a := range emu.Deliveries(testkit.Filter{Subscription: sub}) {
			got = append(got, fmt.Sprintf("%v %s", a.Time.Sub(start), a.Outcome))
			if a.Outcome == "Success" && (a.Request == nil || a.Request.Method != "CAPTURE" || !strings.Contains(string(a.Request.Body), `"o-1"`)) {
				t.Errorf("%s: the successful attempt captured %+v", sub, a.Request)
			}
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s: attempts %v, want %v", sub, got, want)
		}
	}
	if drops := emu.Drops(testkit.Filter{Subscription: "to-hub"}); len(drops) != 1 {
		t.Errorf("to-hub drops %+v, want the 403 given up at once", drops)
	}
}

// postFault installs a fault rule as a test in any language would: JSON
// posted to /_emulator/faults.
func postFault(t *testing.T, emu *testkit.Emulator, rule string) {
	t.Helper()
	resp, err := emu.HTTPClient().Post(emu.URL()+"/_emulator/faults", "application/json", strings.NewReader(rule))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /_emulator/faults %s: %s", rule, resp.Status)
	}
}

func mustDecodeBase64(t *testing.T, b []byte) []byte {
	t.Helper()
	out, err := base64.StdEncoding.DecodeString(string(b))
	if err != nil {
		t.Fatalf("%q is not base64: %v", b, err)
	}
	return out
}
