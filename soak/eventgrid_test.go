package soak

import (
	"context"
	"fmt"
	"net/url"
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

// subscribe creates topic "orders" and subscription sub to url with the
// default retry policy (30 attempts, 24 h), dead-lettering into container of
// the development storage account (in memory unless Azurite is configured).
func subscribe(t *testing.T, emu *testkit.Emulator, sub, url, container string) {
	t.Helper()
	emu.CreateTopic("orders", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	emu.CreateEventSubscription("orders", sub, armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(url),
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				ResourceID: to.Ptr(testkit.StorageAccountID(azblobsink.DevAccountName)), BlobContainerName: to.Ptr(container),
			},
		},
	})
}

// publishEG publishes one event per id to topic "orders", 100 per request.
func publishEG(t *testing.T, emu *testkit.Emulator, ids []string) {
	t.Helper()
	publisher := emu.EventGridPublisher("orders")
	data := map[string]any{"order": "a modest order of about three hundred bytes", "lines": []int{1, 2, 3, 4, 5, 6, 7, 8}}
	for from := 0; from < len(ids); from += 100 {
		batch := make([]azeventgrid.Event, 0, 100)
		for _, id := range ids[from:min(from+100, len(ids))] {
			batch = append(batch, azeventgrid.Event{ID: to.Ptr(id), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/" + id),
				DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: data})
		}
		if _, err := publisher.PublishEvents(context.Background(), batch, nil); err != nil {
			t.Fatalf("publishing: %v", err)
		}
	}
}

// advanceUntilEnded moves the clock in steps, checking the books after
// each, until every event of the subscription ended or limit passed.
func advanceUntilEnded(t *testing.T, emu *testkit.Emulator, f testkit.Filter, step, limit time.Duration) {
	t.Helper()
	start := emu.Now()
	for emu.Now().Sub(start) < limit {
		emu.Advance(step)
		m := emu.RouteMetrics(f)
		accounted(t, fmt.Sprintf("%s after %s", f, emu.Now().Sub(start)), m)
		if ended(m) {
			return
		}
	}
	m := emu.RouteMetrics(f)
	t.Fatalf("%s: not every event ended within %s: %+v", f, limit, m)
}

// EG-12 … EG-14, EG-17, EG-18: 10,000 events on an endpoint that answers 500
// to everything, with the binary's defaults. Every event is dead-lettered
// (TimeToLiveExceeded, the default TTL being 24 h) by TTL plus one retry
// interval, however delayed delivery and probation held the subscription.
func TestSoakEventGrid10000EventsOnAnAlways500Endpoint(t *testing.T) {
	t.Parallel()
	// The test reads all 10,000 dead letters back from the journal, which
	// keeps about 28,000 attempt entries by default: it gets room for the
	// ~90,000 attempts beside them (the journal's bound changes no delivery).
	emu := start(t, 0, testkit.WithJournalLimits(200_000, 256<<20))
	hook := fakes.NewWebhook(t)
	f := testkit.Filter{Topic: "orders", Subscription: "audit"}
	subscribe(t, emu, "audit", hook.URL(), "dead")
	// The endpoint's 500 is a fault rule on the route: the engine sees the
	// same failure, outcome and probation as from a real answer, without an
	// HTTP round trip for each of the ~90,000 attempts (the e2e backlog test
	// makes them against the built binary).
	emu.FailDeliveries(f, 500, 0)
	all := ids("order", 10_000)
	publishEG(t, emu, all)
	accounted(t, "after publishing", emu.RouteMetrics(f))
	// TTL (24 h) + the longest step (12 h) + the dead-letter delay (EG-21).
	advanceUntilEnded(t, emu, f, time.Hour, 37*time.Hour)
	m := emu.RouteMetrics(f)
	if m.Queued != uint64(len(all)) || m.DeadLettered != uint64(len(all)) || m.Delivered != 0 {
		t.Fatalf("queued %d, dead-lettered %d, delivered %d; want all %d queued and dead-lettered", m.Queued, m.DeadLettered, m.Delivered, len(all))
	}
	onceEach(t, "dead letters", eventIDs(emu.DeadLetters(f)), all)
}

// EG-5: a webhook that holds every request past 30 s: each attempt times out
// on the clock, is retried, and every event is dead-lettered at its TTL.
func TestSoakEventGridWebhookThatHangsPast30s(t *testing.T) {
	t.Parallel()
	emu := start(t, 100*time.Millisecond)
	hook := fakes.NewWebhook(t, fakes.NoAnswer())
	f := testkit.Filter{Topic: "orders", Subscription: "slow"}
	subscribe(t, emu, "slow", hook.URL(), "dead")
	all := ids("slow", 50)
	publishEG(t, emu, all)
	if _, err := hook.WaitForDeliveries(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	m := emu.RouteMetrics(f)
	accounted(t, "while the first attempts hang", m)
	if m.InFlight == 0 {
		t.Fatalf("no attempt in flight while the webhook hangs: %+v", m)
	}
	emu.Advance(30 * time.Second)
	if timedOut := emu.Deliveries(testkit.Filter{Topic: "orders", Subscription: "slow", Outcome: "TimedOut"}); len(timedOut) == 0 {
		t.Fatal("no attempt timed out after 30 s")
	}
	accounted(t, "after 30 s", emu.RouteMetrics(f))
	advanceUntilEnded(t, emu, f, time.Hour, 37*time.Hour)
	if m := emu.RouteMetrics(f); m.DeadLettered != uint64(len(all)) {
		t.Fatalf("dead-lettered %d of %d: %+v", m.DeadLettered, len(all), m)
	}
	onceEach(t, "dead letters", eventIDs(emu.DeadLetters(f)), all)
}

// EG-21, EG-22 with the real Azurite behind a TCP proxy: dead letters wait
// out a 1-hour outage and are written when it ends; an outage of more than
// 4 hours drops them, listed with their reason, and counted as dropped.
func TestSoakEventGridAzuriteDown(t *testing.T) {
	t.Parallel()
	conn := testenv.AzureStorage(t)
	acct, err := azblobsink.ParseConnectionString(conn)
	if err != nil {
		t.Fatal(err)
	}
	blobURL, err := url.Parse(acct.BlobEndpoint)
	if err != nil {
		t.Fatal(err)
	}
	client, err := azblob.NewClientFromConnectionString(conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	container := fmt.Sprintf("soak-%d", time.Now().UnixNano()%1e9)
	if _, err := client.CreateContainer(context.Background(), container, nil); err != nil {
		t.Fatal(err)
	}
	proxy := tcpswitch.New(t, blobURL.Host)
	viaProxy := fmt.Sprintf("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;BlobEndpoint=http://%s%s;",
		acct.Name, acct.Key, proxy.Addr(), blobURL.Path)
	emu := start(t, 0, testkit.WithAzureStorage(viaProxy))
	// 400 is never retried (EG-6): each event is given up at once and waits
	// only for its dead letter.
	hook := fakes.NewWebhook(t, fakes.Always(400))
	f := testkit.Filter{Topic: "orders", Subscription: "audit"}
	subscribe(t, emu, "audit", hook.URL(), container)

	proxy.SetDown(true)
	short := ids("short", 20)
	publishEG(t, emu, short)
	emu.WaitForDeliveries(testkit.Filter{Topic: "orders", Subscription: "audit", Outcome: "BadRequest"}, len(short))
	for range 6 {
		emu.Advance(10 * time.Minute)
		m := emu.RouteMetrics(f)
		accounted(t, "Azurite down", m)
		if m.AwaitingDeadLetter != len(short) {
			t.Fatalf("Azurite down: %d awaiting their dead letter, want %d: %+v", m.AwaitingDeadLetter, len(short), m)
		}
	}
	proxy.SetDown(false)
	advanceUntilEnded(t, emu, f, 10*time.Minute, time.Hour)
	if m := emu.RouteMetrics(f); m.DeadLettered != uint64(len(short)) {
		t.Fatalf("after a 1 h outage: %+v, want all %d dead-lettered", m, len(short))
	}
	onceEach(t, "dead letters after a 1 h outage", eventIDs(emu.DeadLetters(f)), short)
	onceEach(t, "records in Azurite", blobRecords(t, conn, container), short)

	proxy.SetDown(true)
	long := ids("long", 20)
	publishEG(t, emu, long)
	// The first of these failures puts the subscription on delayed
	// delivery (EG-17): the rest are attempted when it ends, and each
	// dead letter is given up on 4 hours after its own first write.
	advanceUntilEnded(t, emu, f, 30*time.Minute, 8*time.Hour)
	m := emu.RouteMetrics(f)
	if m.DeadLettered != uint64(len(short)) || m.Dropped != uint64(len(long)) || m.DeadLetterFailed != uint64(len(long)) {
		t.Fatalf("after a 4 h+ outage: %+v, want %d dead-lettered and %d dropped (dead letter failed)", m, len(short), len(long))
	}
	drops := emu.Drops(f)
	for _, d := range drops {
		if d.Outcome != "DeadLetterDestinationUnavailable" {
			t.Fatalf("drop %+v, want DeadLetterDestinationUnavailable", d)
		}
	}
	onceEach(t, "drops", eventIDs(drops), long)
	proxy.SetDown(false)
	onceEach(t, "records in Azurite after the long outage", blobRecords(t, conn, container), short)
}

// blobRecords reads every dead-letter record of container the way a user's
// reader would, and returns their event ids.
func blobRecords(t *testing.T, conn, container string) []string {
	t.Helper()
	records, err := testkit.ReadDeadLetterBlobs(context.Background(), conn, container)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(records))
	for i, r := range records {
		out[i] = r.ID
	}
	return out
}
