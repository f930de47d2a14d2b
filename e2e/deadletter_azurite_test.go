package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/tcpswitch"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// containerSeq makes container names unique across the parallel tests of
// this process (Azurite is shared).
var containerSeq atomic.Int64

// azurite is the real Azurite the test script started, seen through the
// official azblob SDK the way a user's dead-letter reader sees it.
type azurite struct {
	conn   string
	client *azblob.Client
}

func newAzurite(t *testing.T) azurite {
	t.Helper()
	conn := testenv.AzureStorage(t)
	client, err := azblob.NewClientFromConnectionString(conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	return azurite{conn: conn, client: client}
}

func (a azurite) newContainer(t *testing.T) string {
	t.Helper()
	name := fmt.Sprintf("dl-%d-%d", time.Now().UnixNano()%1e9, containerSeq.Add(1))
	if _, err := a.client.CreateContainer(context.Background(), name, nil); err != nil {
		t.Fatal(err)
	}
	return name
}

// blobs lists a container the way a user's reader would, and parses each
// blob as the JSON array of records Azure writes (EG-23).
func (a azurite) blobs(t *testing.T, container string) map[string][]map[string]any {
	t.Helper()
	ctx := context.Background()
	out := map[string][]map[string]any{}
	pager := a.client.NewListBlobsFlatPager(container, nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range page.Segment.BlobItems {
			resp, err := a.client.DownloadStream(ctx, container, *item.Name, nil)
			if err != nil {
				t.Fatal(err)
			}
			var records []map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&records); err != nil {
				t.Fatalf("blob %s is not a JSON array of records: %v", *item.Name, err)
			}
			resp.Body.Close()
			out[*item.Name] = records
		}
	}
	return out
}

// subscribeWithDeadLetters creates topic "orders" and subscription name
// delivering to hook, dead-lettering into container of devstoreaccount1.
func subscribeWithDeadLetters(t *testing.T, emu *testkit.Emulator, name, hookURL, container string, maxAttempts int32) {
	t.Helper()
	ctx := context.Background()
	topic := emu.CreateTopic("orders", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	poller, err := emu.ARM().NewEventSubscriptionsClient().BeginCreateOrUpdate(ctx, *topic.ID, name, armeventgrid.EventSubscription{
		Properties: &armeventgrid.EventSubscriptionProperties{
			Destination: &armeventgrid.WebHookEventSubscriptionDestination{
				EndpointType: to.Ptr(armeventgrid.EndpointTypeWebHook),
				Properties:   &armeventgrid.WebHookEventSubscriptionDestinationProperties{EndpointURL: to.Ptr(hookURL)},
			},
			RetryPolicy: &armeventgrid.RetryPolicy{MaxDeliveryAttempts: to.Ptr(maxAttempts), EventTimeToLiveInMinutes: to.Ptr[int32](1440)},
			DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
				EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
				Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
					ResourceID:        to.Ptr("/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/storage/providers/Microsoft.Storage/storageAccounts/" + azblobsink.DevAccountName),
					BlobContainerName: to.Ptr(container),
				},
			},
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := poller.PollUntilDone(ctx, nil); err != nil {
		t.Fatal(err)
	}
}

func publish(t *testing.T, emu *testkit.Emulator, ids ...string) {
	t.Helper()
	events := make([]azeventgrid.Event, len(ids))
	for i, id := range ids {
		events[i] = azeventgrid.Event{ID: to.Ptr(id), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/" + id),
			DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: map[string]any{"id": id}}
	}
	if _, err := emu.EventGridPublisher("orders").PublishEvents(context.Background(), events, nil); err != nil {
		t.Fatal(err)
	}
}

// EG-6, EG-20, EG-21, EG-23: a 400 is never retried; five minutes later the
// event is a blob in Azurite at <SUB-UPPER>/<yyyy>/<M>/<d>/<H>/<guid>.json.
func TestEG23_DeadLetterBlobInAzurite(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	container := az.newContainer(t)
	emu := testkit.Start(t, testkit.WithAzureStorage(az.conn))
	hook := fakes.NewWebhook(t, fakes.Always(400))
	subscribeWithDeadLetters(t, emu, "audit-orders", hook.URL(), container, 30)
	publish(t, emu, "order-7")
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit-orders", Outcome: "BadRequest"}, 1)

	emu.Advance(5*time.Minute - time.Second)
	if got := az.blobs(t, container); len(got) != 0 {
		t.Fatalf("dead letter written before the 5-minute delay (EG-21): %v", got)
	}
	emu.Advance(time.Second)
	blobs := az.blobs(t, container)
	if len(blobs) != 1 {
		t.Fatalf("blobs = %v, want one", blobs)
	}
	for name, records := range blobs {
		// The testkit clock starts at 2026-01-01T00:00:00Z: not zero-padded.
		if !strings.HasPrefix(name, "AUDIT-ORDERS/2026/1/1/0/") || !strings.HasSuffix(name, ".json") {
			t.Errorf("blob name %q, want AUDIT-ORDERS/2026/1/1/0/<guid>.json", name)
		}
		r := records[0]
		if len(records) != 1 || r["id"] != "order-7" || r["deadLetterReason"] != "UndeliverableDueToClientError" ||
			r["lastDeliveryOutcome"] != "BadRequest" || r["deliveryAttempts"] != float64(1) || r["lastHttpStatusCode"] != float64(400) {
			t.Errorf("record = %v", r)
		}
		for _, field := range []string{"publishTime", "lastDeliveryAttemptTime", "eventTime", "data"} {
			if _, ok := r[field]; !ok {
				t.Errorf("record lacks %q: %v", field, r)
			}
		}
	}
	if dl := emu.DeadLetters(testkit.Filter{Subscription: "audit-orders"}); len(dl) != 1 || !strings.HasPrefix(dl[0].Destination, "devstoreaccount1/"+container+"/AUDIT-ORDERS/") {
		t.Fatalf("inspection API dead letters = %+v", dl)
	}
}

// EG-22: while Azurite is down the write is retried; once it is back the
// blob is written. Down for 4 hours, the event is dropped and listed.
func TestEG22_AzuriteDownThenBackThenDownForGood(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	container := az.newContainer(t)
	acct, err := azblobsink.ParseConnectionString(az.conn)
	if err != nil {
		t.Fatal(err)
	}
	blobURL, err := url.Parse(acct.BlobEndpoint)
	if err != nil {
		t.Fatal(err)
	}
	proxy := tcpswitch.New(t, blobURL.Host)
	viaProxy := fmt.Sprintf("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;BlobEndpoint=http://%s%s;",
		acct.Name, acct.Key, proxy.Addr(), blobURL.Path)

	emu := testkit.Start(t, testkit.WithAzureStorage(viaProxy))
	hook := fakes.NewWebhook(t, fakes.Always(400))
	subscribeWithDeadLetters(t, emu, "audit", hook.URL(), container, 30)

	proxy.SetDown(true)
	publish(t, emu, "survives")
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 1)
	emu.Advance(30 * time.Minute) // the first write and several retries fail
	if got := az.blobs(t, container); len(got) != 0 {
		t.Fatalf("written while down: %v", got)
	}
	if drops := emu.Drops(testkit.Filter{Subscription: "audit"}); len(drops) != 0 {
		t.Fatalf("dropped after 30 minutes of outage: %+v", drops)
	}
	proxy.SetDown(false)
	emu.Advance(10 * time.Minute)
	if got := az.blobs(t, container); len(got) != 1 {
		t.Fatalf("after Azurite came back: blobs %v, want one", got)
	}

	proxy.SetDown(true)
	publish(t, emu, "lost")
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit", EventID: "lost"}, 1)
	emu.Advance(5*time.Minute + 4*time.Hour)
	drops := emu.Drops(testkit.Filter{Subscription: "audit"})
	if len(drops) != 1 || drops[0].EventIDs[0] != "lost" || drops[0].Outcome != "DeadLetterDestinationUnavailable" {
		t.Fatalf("drops after 4 hours down = %+v", drops)
	}
}

// EG-22: a container that does not exist drops the event at once, listed.
func TestEG22_MissingContainerDropsAndLists(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	emu := testkit.Start(t, testkit.WithAzureStorage(az.conn))
	hook := fakes.NewWebhook(t, fakes.Always(413))
	subscribeWithDeadLetters(t, emu, "audit", hook.URL(), "no-such-container", 30)
	publish(t, emu, "order-1")
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit", Outcome: "PayloadTooLarge"}, 1)
	emu.Advance(5 * time.Minute)
	drops := emu.Drops(testkit.Filter{Subscription: "audit"})
	if len(drops) != 1 || drops[0].Outcome != "DeadLetterDestinationNotFound" {
		t.Fatalf("drops = %+v", drops)
	}
}
