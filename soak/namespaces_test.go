package soak

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/facetest"
	"github.com/gridbridge/gridbridge/testkit"
)

// namespaceTopic creates namespace "shop" and its CloudEvents topic "orders".
func namespaceTopic(t *testing.T, emu *testkit.Emulator) {
	t.Helper()
	facetest.CreateNamespaceTopic(t, emu.ARM(), testkit.ResourceGroup, "shop", "orders")
}

func namespaceSubscription(t *testing.T, emu *testkit.Emulator, name string, delivery *armeventgrid.DeliveryConfiguration) {
	t.Helper()
	sub, err := emu.ARM().NewNamespaceTopicEventSubscriptionsClient().BeginCreateOrUpdate(context.Background(), testkit.ResourceGroup, "shop", "orders", name,
		armeventgrid.Subscription{Properties: &armeventgrid.SubscriptionProperties{DeliveryConfiguration: delivery}}, nil)
	facetest.Await(t, "creating the namespace subscription", sub, err)
}

// devDeadLetters dead-letters into container "dead" of the development
// storage account (in memory here).
func devDeadLetters() *armeventgrid.DeadLetterWithResourceIdentity {
	return &armeventgrid.DeadLetterWithResourceIdentity{DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
		EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
		Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
			ResourceID: to.Ptr(testkit.StorageAccountID(azblobsink.DevAccountName)), BlobContainerName: to.Ptr("dead"),
		},
	}}
}

// sendCloudEvents sends n CloudEvents to shop/orders, 100 per request, and
// returns their ids.
func sendCloudEvents(t *testing.T, emu *testkit.Emulator, prefix string, n int) []string {
	t.Helper()
	sender := emu.NamespaceSender("shop", "orders")
	all := ids(prefix, n)
	for from := 0; from < n; from += 100 {
		var batch []*messaging.CloudEvent
		for _, id := range all[from:min(from+100, n)] {
			ev, err := messaging.NewCloudEvent("/shop", "Order.Placed", map[string]any{"id": id}, nil)
			if err != nil {
				t.Fatal(err)
			}
			ev.ID = id
			batch = append(batch, &ev)
		}
		if _, err := sender.SendEvents(context.Background(), batch, nil); err != nil {
			t.Fatalf("sending: %v", err)
		}
	}
	return all
}

// NS-3, NS-4: a push subscription whose webhook answers 500 to everything,
// with maxDeliveryCount 5: every event is dead-lettered exactly once.
func TestSoakNamespacePushSubscriptionAlwaysFails(t *testing.T) {
	t.Parallel()
	emu := start(t, 0)
	hook := fakes.NewWebhook(t, fakes.Always(500))
	namespaceTopic(t, emu)
	namespaceSubscription(t, emu, "push", &armeventgrid.DeliveryConfiguration{
		DeliveryMode: to.Ptr(armeventgrid.DeliveryModePush),
		Push: &armeventgrid.PushInfo{
			MaxDeliveryCount: to.Ptr[int32](5), EventTimeToLive: to.Ptr("PT1H"),
			DeadLetterDestinationWithResourceIdentity: devDeadLetters(),
			Destination: &armeventgrid.WebHookEventSubscriptionDestination{
				EndpointType: to.Ptr(armeventgrid.EndpointTypeWebHook),
				Properties:   &armeventgrid.WebHookEventSubscriptionDestinationProperties{EndpointURL: to.Ptr(hook.URL())},
			},
		},
	})
	all := sendCloudEvents(t, emu, "push", 500)
	f := testkit.Filter{Labels: map[string]string{"namespace": "shop", "subscription": "push"}}
	accounted(t, "after sending", emu.RouteMetrics(f))
	advanceUntilEnded(t, emu, f, 5*time.Minute, 2*time.Hour)
	// The face writes push dead letters itself (NS-7); the route counts them
	// awaiting until the writer reports them written.
	if m := emu.RouteMetrics(f); m.Delivered != 0 || m.DeadLettered != uint64(len(all)) {
		t.Fatalf("%+v, want all %d dead-lettered", m, len(all))
	}
	onceEach(t, "dead letters", eventIDs(emu.DeadLetters(f)), all)
}

// NS-2, NS-4: a queue subscription with maxDeliveryCount 3 and a 1-hour
// TTL. A consumer receives and releases half the events until their
// deliveries are used up; the other half is never received and expires.
// Every event is dead-lettered exactly once, for the right reason.
func TestSoakNamespaceQueueMaxDeliveryCountAndTTL(t *testing.T) {
	t.Parallel()
	emu := start(t, 0)
	namespaceTopic(t, emu)
	namespaceSubscription(t, emu, "queue", &armeventgrid.DeliveryConfiguration{
		DeliveryMode: to.Ptr(armeventgrid.DeliveryModeQueue),
		Queue: &armeventgrid.QueueInfo{
			ReceiveLockDurationInSeconds: to.Ptr[int32](60), MaxDeliveryCount: to.Ptr[int32](3), EventTimeToLive: to.Ptr("PT1H"),
			DeadLetterDestinationWithResourceIdentity: devDeadLetters(),
		},
	})
	f := testkit.Filter{Labels: map[string]string{"namespace": "shop", "subscription": "queue"}}
	ctx := context.Background()
	released := sendCloudEvents(t, emu, "released", 500)
	receiver := emu.NamespaceReceiver("shop", "orders", "queue")
	// Receive every "released" event three times, releasing it each time.
	for round := 1; round <= 3; round++ {
		seen := 0
		for seen < len(released) {
			got, err := receiver.ReceiveEvents(ctx, &aznamespaces.ReceiveEventsOptions{MaxEvents: to.Ptr[int32](100), MaxWaitTime: to.Ptr[int32](10)})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Details) == 0 {
				t.Fatalf("round %d: received %d of %d", round, seen, len(released))
			}
			tokens := make([]string, len(got.Details))
			for i, d := range got.Details {
				if c := *d.BrokerProperties.DeliveryCount; c != int32(round) {
					t.Fatalf("round %d: event %s has delivery count %d", round, d.Event.ID, c)
				}
				tokens[i] = *d.BrokerProperties.LockToken
			}
			seen += len(got.Details)
			if _, err := receiver.ReleaseEvents(ctx, tokens, nil); err != nil {
				t.Fatal(err)
			}
		}
		checkQueueBooks(t, emu, f, fmt.Sprintf("after round %d", round))
	}
	expiring := sendCloudEvents(t, emu, "expiring", 500)
	for range 4 {
		emu.Advance(20 * time.Minute)
		checkQueueBooks(t, emu, f, "while events expire")
	}
	dead := emu.DeadLetters(f)
	byReason := map[string][]string{}
	for _, e := range dead {
		byReason[e.Outcome] = append(byReason[e.Outcome], e.EventIDs...)
	}
	onceEach(t, "dead letters: delivery count used up", byReason["Maximum delivery attempts was exceeded."], released)
	onceEach(t, "dead letters: time to live", byReason["Time to live exceeded."], expiring)
	if drops := emu.Drops(f); len(drops) != 0 {
		t.Fatalf("dropped: %+v", drops)
	}
	m := checkQueueBooks(t, emu, f, "at the end")
	if m.Queued != uint64(len(released)+len(expiring)) || m.DeadLettered != m.Queued || m.EndedMaxDeliveries != uint64(len(released)) || m.Expired != uint64(len(expiring)) {
		t.Fatalf("at the end: %+v, want %d ended on their last delivery and %d expired, all dead-lettered", m, len(released), len(expiring))
	}
}

// checkQueueBooks checks a queue subscription's books in /_emulator/metrics
// (D-DROP): queued = acknowledged + deadLettered + dropped +
// awaitingDeadLetter + available + locked + delayed, and every event that
// left the queue unacknowledged is dead-lettered, dropped or awaiting its
// dead letter.
func checkQueueBooks(t *testing.T, emu *testkit.Emulator, f testkit.Filter, when string) testkit.QueueMetrics {
	t.Helper()
	view, err := emu.Inspector().Metrics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var found []testkit.QueueMetrics
	for _, m := range view.Queues {
		if m.Labels["namespace"] == f.Labels["namespace"] && m.Labels["subscription"] == f.Labels["subscription"] {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s: %d queue metrics for %s, want one: %+v", when, len(found), f, view.Queues)
	}
	m := found[0]
	held := m.Acknowledged + m.DeadLettered + m.Dropped + uint64(m.AwaitingDeadLetter) + uint64(m.Available+m.Locked+m.Delayed)
	if m.Queued != held || m.Ended != m.DeadLettered+m.Dropped+uint64(m.AwaitingDeadLetter) {
		t.Fatalf("%s: the books do not balance: %+v", when, m)
	}
	return m
}
