package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// The backlog reproduction: the built binary with its default flags (jitter
// and probation on), a webhook that answers 500 to every notification, a
// dead-letter container, 10,000 events published in batches of 100, then
// 48 cloud hours in 1-hour steps. Every event must end — dead-lettered,
// since the default TTL is 24 h (EG-12..EG-14) — however delayed delivery
// and probation held the subscription (EG-17, EG-18).
func TestBacklogOnAFailingWebhookEndsWithDefaultFlags(t *testing.T) {
	t.Parallel()
	backlogEndsWithin48h(t, "--clock", "virtual")
}

func TestBacklogOnAFailingWebhookEndsWithoutProbation(t *testing.T) {
	t.Parallel()
	backlogEndsWithin48h(t, "--clock", "virtual", "--no-probation")
}

const backlogEvents = 10_000

func backlogEndsWithin48h(t *testing.T, args ...string) {
	proc := testbinary.Start(t, args...)
	emu := testkit.Connect(t, proc.Endpoints["http"])
	hook := fakes.NewWebhook(t, fakes.Always(500))
	startBacklog(t, emu, hook.URL(), backlogEvents)
	start := emu.Now()
	var m engine.RouteMetrics
	for h := 1; h <= 48; h++ {
		emu.Advance(time.Hour)
		m = emu.RouteMetrics(testkit.Filter{Topic: "orders", Subscription: "audit"})
		assertAccounted(t, fmt.Sprintf("after %d h", h), m)
		if m.DeadLettered+m.Dropped == backlogEvents {
			t.Logf("every event ended by %d h of cloud time (%d attempts)", h, m.Attempts)
			break
		}
	}
	if m.DeadLettered != backlogEvents {
		t.Fatalf("after %s: %d dead-lettered, %d dropped, %d pending, %d retrying, %d awaiting dead letter; want all %d dead-lettered",
			emu.Now().Sub(start), m.DeadLettered, m.Dropped, m.Pending, m.Retrying, m.AwaitingDeadLetter, backlogEvents)
	}
}

// startBacklog creates topic "orders" with subscription "audit" to url,
// dead-lettering to the development storage account, and publishes n events
// in batches of 100.
func startBacklog(t testing.TB, emu *testkit.Emulator, url string, n int) {
	emu.CreateTopic("orders", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(url),
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				ResourceID: to.Ptr(testkit.StorageAccountID("devstoreaccount1")), BlobContainerName: to.Ptr("dead"),
			},
		},
	})
	publisher := emu.EventGridPublisher("orders")
	data := map[string]any{"order": "a modest order of about three hundred bytes", "lines": []int{1, 2, 3, 4, 5, 6, 7, 8}}
	for sent := 0; sent < n; {
		batch := make([]azeventgrid.Event, 0, 100)
		for ; len(batch) < 100 && sent < n; sent++ {
			id := fmt.Sprintf("order-%05d", sent)
			batch = append(batch, azeventgrid.Event{ID: to.Ptr(id), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/" + id),
				DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: data})
		}
		if _, err := publisher.PublishEvents(context.Background(), batch, nil); err != nil {
			t.Fatalf("publishing: %v", err)
		}
	}
}

// assertAccounted checks the route's books balance: every queued event is in
// exactly one place (issue 10's invariant).
func assertAccounted(t testing.TB, when string, m engine.RouteMetrics) {
	t.Helper()
	sum := m.Delivered + m.DeadLettered + m.Dropped + uint64(m.Pending) + uint64(m.Retrying) + uint64(m.InFlight) + uint64(m.AwaitingDeadLetter)
	if m.Queued != sum {
		t.Fatalf("%s: queued %d ≠ delivered %d + deadLettered %d + dropped %d + pending %d + retrying %d + inFlight %d + awaitingDeadLetter %d",
			when, m.Queued, m.Delivered, m.DeadLettered, m.Dropped, m.Pending, m.Retrying, m.InFlight, m.AwaitingDeadLetter)
	}
}
