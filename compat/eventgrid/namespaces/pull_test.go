package namespaces_test

import (
	"context"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/deadletter"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

func newEvent(t testing.TB, eventType string, data any) messaging.CloudEvent {
	t.Helper()
	ev, err := messaging.NewCloudEvent("/gridbridge/tests", eventType, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestPublishReceiveAcknowledgeKeepsTheEventExactly(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	ctx := context.Background()
	ev := newEvent(t, "order.created", "hello world")
	ev.Subject = to.Ptr("orders/1")
	ev.Extensions = map[string]any{"myext": "x", "count": float64(5)}
	if _, err := p.sender.SendEvent(ctx, &ev, nil); err != nil {
		t.Fatal(err)
	}
	got := receiveNow(t, p.receiver, 10)
	if len(got) != 1 {
		t.Fatalf("received %d events", len(got))
	}
	d := got[0]
	if *d.BrokerProperties.DeliveryCount != 1 || *d.BrokerProperties.LockToken == "" {
		t.Fatalf("broker properties %+v", d.BrokerProperties)
	}
	if string(d.Event.Data.([]byte)) != `"hello world"` || d.Event.ID != ev.ID || *d.Event.Subject != "orders/1" ||
		d.Event.Extensions["myext"] != "x" || d.Event.Extensions["count"] != float64(5) || len(d.Event.Extensions) != 2 ||
		!d.Event.Time.Equal(*ev.Time) {
		t.Fatalf("event came back as %+v", d.Event)
	}
	ack, err := p.receiver.AcknowledgeEvents(ctx, []string{*d.BrokerProperties.LockToken}, nil)
	if err != nil || len(ack.SucceededLockTokens) != 1 || len(ack.FailedLockTokens) != 0 {
		t.Fatalf("ack: %v %+v", err, ack)
	}
	again, err := p.receiver.AcknowledgeEvents(ctx, []string{*d.BrokerProperties.LockToken}, nil)
	if err != nil || len(again.SucceededLockTokens) != 0 || len(again.FailedLockTokens) != 1 {
		t.Fatalf("second ack: %v %+v", err, again)
	}
	f := again.FailedLockTokens[0]
	if *f.LockToken != *d.BrokerProperties.LockToken || *f.Error.Code != "TokenLost" || f.Error.Error() != "Token has expired." {
		t.Fatalf("failed token %+v", f)
	}
	h.waitJournal(t, engine.Filter{Kind: engine.KindDelivered, EventID: ev.ID}, 1)
	pub := h.waitJournal(t, engine.Filter{Kind: engine.KindPublish, Labels: map[string]string{"namespace": p.ns.name, "topic": p.topic}}, 1)
	if pub[0].Labels["cloud"] != "eventgrid" || pub[0].EventIDs[0] != ev.ID {
		t.Fatalf("publish entry %+v", pub[0])
	}
}

func TestBatchPublishAndReceiveUpToMaxEvents(t *testing.T) {
	t.Parallel()
	_, p := newQueueHarness(t)
	ctx := context.Background()
	var batch []*messaging.CloudEvent
	for i := 0; i < 5; i++ {
		ev := newEvent(t, "t", map[string]int{"i": i})
		batch = append(batch, &ev)
	}
	if _, err := p.sender.SendEvents(ctx, batch, nil); err != nil {
		t.Fatal(err)
	}
	first := receiveNow(t, p.receiver, 3)
	second := receiveNow(t, p.receiver, 3)
	if len(first) != 3 || len(second) != 2 {
		t.Fatalf("received %d then %d", len(first), len(second))
	}
	if first[0].Event.ID != batch[0].ID || string(first[0].Event.Data.([]byte)) != `{"i":0}` {
		t.Fatalf("first event %+v", first[0].Event)
	}
}

func TestReleaseRedeliversWithAHigherDeliveryCount(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	ctx := context.Background()
	p.send(t, newEvent(t, "t", "x"))
	first := receiveNow(t, p.receiver, 1)[0]
	rel, err := p.receiver.ReleaseEvents(ctx, []string{*first.BrokerProperties.LockToken}, nil)
	if err != nil || len(rel.SucceededLockTokens) != 1 {
		t.Fatalf("release: %v %+v", err, rel)
	}
	second := receiveNow(t, p.receiver, 1)[0]
	if *second.BrokerProperties.DeliveryCount != 2 || *second.BrokerProperties.LockToken == *first.BrokerProperties.LockToken {
		t.Fatalf("redelivery %+v", second.BrokerProperties)
	}

	// A delayed release waits for the emulator clock, not the wall clock.
	_, err = p.receiver.ReleaseEvents(ctx, []string{*second.BrokerProperties.LockToken},
		&aznamespaces.ReleaseEventsOptions{ReleaseDelayInSeconds: to.Ptr(aznamespaces.ReleaseDelayTenMinutes)})
	if err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(9 * time.Minute)
	receiveNothingNow(t, h, p)
	h.clock.Advance(time.Minute)
	third := receiveNow(t, p.receiver, 1)
	if len(third) != 1 || *third[0].BrokerProperties.DeliveryCount != 3 {
		t.Fatalf("after the delay: %+v", third)
	}
}

// receiveNothingNow checks that a receive would find nothing, without
// spending a receive's 10-second minimum wait.
func receiveNothingNow(t *testing.T, h *harness, p pullSetup) {
	t.Helper()
	h.clock.Settle()
	if n := h.queueMetrics(t, p).Available; n != 0 {
		t.Fatalf("%d event(s) available, want none", n)
	}
}

func TestRenewLockKeepsTheEventLocked(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	ctx := context.Background()
	p.send(t, newEvent(t, "t", "x"))
	tok := *receiveNow(t, p.receiver, 1)[0].BrokerProperties.LockToken
	h.clock.Advance(50 * time.Second)
	renew, err := p.receiver.RenewEventLocks(ctx, []string{tok, "not-a-token"}, nil)
	if err != nil || len(renew.SucceededLockTokens) != 1 || *renew.FailedLockTokens[0].Error.Code != "BadToken" {
		t.Fatalf("renew: %v %+v", err, renew)
	}
	h.clock.Advance(50 * time.Second) // 100 s after the receive, 50 s after the renewal
	if ack, err := p.receiver.AcknowledgeEvents(ctx, []string{tok}, nil); err != nil || len(ack.SucceededLockTokens) != 1 {
		t.Fatalf("ack after renewal: %v %+v", err, ack)
	}
}

func TestLockExpiryRedeliversAndOldTokensAreLost(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	ctx := context.Background()
	ev := p.send(t, newEvent(t, "t", "x"))
	first := receiveNow(t, p.receiver, 1)[0]
	h.clock.Advance(60 * time.Second)
	second := receiveNow(t, p.receiver, 1)
	if len(second) != 1 || *second[0].BrokerProperties.DeliveryCount != 2 {
		t.Fatalf("after expiry: %+v", second)
	}
	rej, err := p.receiver.RejectEvents(ctx, []string{*first.BrokerProperties.LockToken}, nil)
	if err != nil || len(rej.FailedLockTokens) != 1 || *rej.FailedLockTokens[0].Error.Code != "TokenLost" {
		t.Fatalf("reject with the expired token: %v %+v", err, rej)
	}
	expired := h.waitJournal(t, engine.Filter{Kind: engine.KindAttempt, Outcome: "LockExpired", EventID: ev.ID}, 1)
	if !expired[0].Time.Equal(start.Add(time.Minute)) || expired[0].Attempt != 1 {
		t.Fatalf("lock-expiry entry %+v", expired[0])
	}
}

func TestFiltersSelectWhatASubscriptionReceives(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	props := queueProps(60, 10, "", nil)
	props.FiltersConfiguration = &armeventgrid.FiltersConfiguration{
		IncludedEventTypes: []*string{to.Ptr("order.created")},
		Filters: []armeventgrid.FilterClassification{
			&armeventgrid.StringBeginsWithFilter{Key: to.Ptr("subject"), OperatorType: to.Ptr(armeventgrid.FilterOperatorTypeStringBeginsWith), Values: []*string{to.Ptr("eu/")}},
			&armeventgrid.NumberGreaterThanFilter{Key: to.Ptr("data.total"), OperatorType: to.Ptr(armeventgrid.FilterOperatorTypeNumberGreaterThan), Value: to.Ptr(100.0)},
		},
	}
	p := h.pull(t, props)
	ctx := context.Background()
	mk := func(typ, subject string, total int) *messaging.CloudEvent {
		ev := newEvent(t, typ, map[string]int{"total": total})
		ev.Subject = to.Ptr(subject)
		return &ev
	}
	want := mk("order.created", "EU/paris", 150) // string comparisons ignore case
	batch := []*messaging.CloudEvent{mk("order.deleted", "eu/x", 150), mk("order.created", "us/x", 150), mk("order.created", "eu/x", 50), want}
	if _, err := p.sender.SendEvents(ctx, batch, nil); err != nil {
		t.Fatal(err)
	}
	got := receiveNow(t, p.receiver, 10)
	if len(got) != 1 || got[0].Event.ID != want.ID {
		t.Fatalf("received %d events, want only %s", len(got), want.ID)
	}
	unmatched := h.waitJournal(t, engine.Filter{Kind: engine.KindDrop, Outcome: "NoMatchingSubscription"}, 1)
	if len(unmatched[0].EventIDs) != 3 {
		t.Fatalf("unmatched events journalled: %+v", unmatched[0])
	}
}

func TestTimeToLiveDeadLettersUnsettledEvents(t *testing.T) {
	t.Parallel() // NS-2: retention/TTL ran out
	h := newHarness(t)
	sink := h.sink
	p := h.pull(t, queueProps(60, 10, "PT5M", blobDeadLetter("acct", "dead")))
	ev := p.send(t, newEvent(t, "t", "x"))
	h.clock.Advance(5 * time.Minute)
	h.waitJournal(t, engine.Filter{Kind: engine.KindDeadLetter, EventID: ev.ID}, 1)
	blobs, err := deadLettersOf(sink, p)
	if err != nil || len(blobs) != 1 {
		t.Fatalf("blobs: %v %d", err, len(blobs))
	}
	rec := blobs[0].Records[0]
	if rec.Reason != deadletter.ReasonTimeToLive || rec.DeliveryAttempts != 0 || rec.DeliveryResult != deadletter.ResultNeverDelivered ||
		!rec.PublishedAt.Equal(start) || !rec.LastDeliveryAttemptAt.IsZero() {
		t.Fatalf("record %+v", rec)
	}
	if blobs[0].Location.Hour != start.Truncate(time.Hour) {
		t.Fatalf("blob folder %v", blobs[0].Location.Hour)
	}
}

func TestRejectWithoutDeadLetterDestinationIsAJournalledDrop(t *testing.T) {
	t.Parallel() // D-DROP
	h, p := newQueueHarness(t)
	ctx := context.Background()
	ev := p.send(t, newEvent(t, "t", "x"))
	tok := *receiveNow(t, p.receiver, 1)[0].BrokerProperties.LockToken
	if _, err := p.receiver.RejectEvents(ctx, []string{tok}, nil); err != nil {
		t.Fatal(err)
	}
	drops := h.waitJournal(t, engine.Filter{Kind: engine.KindDrop, EventID: ev.ID}, 1)
	if drops[0].Outcome != engine.ReasonNoDeadLetterDestination || drops[0].Labels["subscription"] != p.sub {
		t.Fatalf("drop %+v", drops[0])
	}
	// A later receive does not return it.
	receiveNothingNow(t, h, p)
}

func TestDeletingASubscriptionDropsWhatItHeld(t *testing.T) {
	t.Parallel() // D-DROP
	h, p := newQueueHarness(t)
	ctx := context.Background()
	ev := p.send(t, newEvent(t, "t", "x"))
	del, err := h.arm.NewNamespaceTopicEventSubscriptionsClient().BeginDelete(ctx, resourceGroup, p.ns.name, p.topic, p.sub, nil)
	facetest.Await(t, "delete the subscription", del, err)
	drops := h.waitJournal(t, engine.Filter{Kind: engine.KindDrop, EventID: ev.ID}, 1)
	if drops[0].Outcome != "SubscriptionDeleted" {
		t.Fatalf("drop %+v", drops[0])
	}
}

// A queue subscription is accounted without the journal:
// queued = acknowledged + deadLettered + dropped + awaitingDeadLetter +
// available + locked + delayed at every checkpoint.
func TestQueueSubscriptionMetricsAccountForEveryEvent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	p := h.pull(t, queueProps(60, 10, "PT5M", blobDeadLetter("acct", "dead")))
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		p.send(t, newEvent(t, "t", "x"))
	}
	metrics := func(when string) namespaces.QueueMetrics {
		t.Helper()
		all := h.face.QueueMetrics()
		if len(all) != 1 || all[0].Labels["subscription"] != p.sub {
			t.Fatalf("%s: queue metrics %+v, want the one subscription", when, all)
		}
		m := all[0]
		held := m.Acknowledged + m.DeadLettered + m.Dropped + uint64(m.AwaitingDeadLetter) + uint64(m.Available+m.Locked+m.Delayed)
		if m.Queued != held || m.Ended != m.DeadLettered+m.Dropped+uint64(m.AwaitingDeadLetter) {
			t.Fatalf("%s: the books do not balance: %+v", when, m)
		}
		return m
	}
	got := receiveNow(t, p.receiver, 3)
	if len(got) != 3 {
		t.Fatalf("received %d, want 3", len(got))
	}
	token := func(i int) []string { return []string{*got[i].BrokerProperties.LockToken} }
	if m := metrics("after receiving 3"); m.Queued != 5 || m.Available != 2 || m.Locked != 3 || m.Received != 3 {
		t.Fatalf("after receiving 3: %+v", m)
	}
	if _, err := p.receiver.AcknowledgeEvents(ctx, token(0), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.receiver.RejectEvents(ctx, token(1), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.receiver.ReleaseEvents(ctx, token(2),
		&aznamespaces.ReleaseEventsOptions{ReleaseDelayInSeconds: to.Ptr(aznamespaces.ReleaseDelayTenMinutes)}); err != nil {
		t.Fatal(err)
	}
	h.waitJournal(t, engine.Filter{Kind: engine.KindDeadLetter, Route: metrics("settled").Route}, 1)
	if m := metrics("settled"); m.Acknowledged != 1 || m.Rejected != 1 || m.Released != 1 || m.Delayed != 1 || m.DeadLettered != 1 || m.Available != 2 {
		t.Fatalf("after settling: %+v", m)
	}
	h.clock.Advance(5 * time.Minute) // the TTL ends the other three
	h.waitJournal(t, engine.Filter{Kind: engine.KindDeadLetter, Route: metrics("expired").Route}, 4)
	if m := metrics("expired"); m.Expired != 3 || m.DeadLettered != 4 || m.Available+m.Locked+m.Delayed != 0 || m.AwaitingDeadLetter != 0 {
		t.Fatalf("after the TTL: %+v", m)
	}
}
