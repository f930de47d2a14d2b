package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// egBatching is a WebHook destination with batching settings (nil: unset).
func egBatching(url string, maxEvents, preferredKB *int32) *armeventgrid.WebHookEventSubscriptionDestination {
	d := testkit.WebHookDestination(url)
	d.Properties.MaxEventsPerBatch, d.Properties.PreferredBatchSizeInKilobytes = maxEvents, preferredKB
	return d
}

// EG-15: maxEventsPerBatch is never exceeded: 7 events available at once
// go out as batches of 3, 3 and 1.
func TestEG15_MaxEventsPerBatchIsNeverExceeded(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t)
	emu.CreateEventSubscription("orders", "batched", armeventgrid.EventSubscriptionProperties{Destination: egBatching(hook.URL(), to.Ptr[int32](3), nil)})
	egPublish(t, emu, "orders", egEvents("1", "2", "3", "4", "5", "6", "7")...)
	emu.WaitForDeliveries(testkit.Filter{Subscription: "batched"}, 3)
	emu.Settle()

	var sizes []int
	for _, d := range hook.Deliveries() {
		sizes = append(sizes, len(egBody(t, d)))
	}
	slices.Sort(sizes)
	if !slices.Equal(sizes, []int{1, 3, 3}) {
		t.Fatalf("batch sizes %v, want 3, 3 and 1", sizes)
	}
}

// EG-15: preferredBatchSizeInKilobytes is a target, not a limit: batches
// stay within 1 KB, except that an event larger than that goes alone in its
// own batch, never dropped.
func TestEG15_PreferredBatchSizeIsATargetAndAnOversizeEventGoesAlone(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t)
	emu.CreateEventSubscription("orders", "batched", armeventgrid.EventSubscriptionProperties{
		Destination: egBatching(hook.URL(), to.Ptr[int32](10), to.Ptr[int32](1))})
	events := egEvents("s1", "s2", "s3", "big", "s4")
	for i := range events {
		pad := 300
		if *events[i].ID == "big" {
			pad = 3000
		}
		events[i].Data = map[string]any{"pad": strings.Repeat("x", pad)}
	}
	egPublish(t, emu, "orders", events...)
	emu.WaitForDeliveries(testkit.Filter{Subscription: "batched"}, 3)
	emu.Settle()

	delivered := 0
	for _, d := range hook.Deliveries() {
		batch := egBody(t, d)
		delivered += len(batch)
		if len(batch) > 1 && len(d.Body) > 1024 {
			t.Errorf("a batch of %d events is %d bytes, over the preferred 1 KB", len(batch), len(d.Body))
		}
		for _, ev := range batch {
			if ev["id"] == "big" && len(batch) != 1 {
				t.Errorf("the 3 KB event shared a batch of %d", len(batch))
			}
		}
	}
	if delivered != 5 || len(hook.Deliveries()) < 3 {
		t.Fatalf("%d events in %d batches, want all 5 in at least 3", delivered, len(hook.Deliveries()))
	}
}

// EG-15: setting one of the two batching settings leaves the other at its
// default (maxEventsPerBatch 1, preferredBatchSizeInKilobytes 64); values
// out of range (1..5000, 1..1024) are ARM 400s.
func TestEG15_BatchingDefaultsAndRanges(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t)
	onlyMax := emu.CreateEventSubscription("orders", "only-max", armeventgrid.EventSubscriptionProperties{Destination: egBatching(hook.URL(), to.Ptr[int32](50), nil)})
	onlyKB := emu.CreateEventSubscription("orders", "only-kb", armeventgrid.EventSubscriptionProperties{Destination: egBatching(hook.URL(), nil, to.Ptr[int32](512))})
	props := func(s armeventgrid.EventSubscription) *armeventgrid.WebHookEventSubscriptionDestinationProperties {
		return s.Properties.Destination.(*armeventgrid.WebHookEventSubscriptionDestination).Properties
	}
	if p := props(onlyMax); *p.MaxEventsPerBatch != 50 || *p.PreferredBatchSizeInKilobytes != 64 {
		t.Errorf("only maxEventsPerBatch: %d, %d KB; want 50, 64 KB", *p.MaxEventsPerBatch, *p.PreferredBatchSizeInKilobytes)
	}
	if p := props(onlyKB); *p.MaxEventsPerBatch != 1 || *p.PreferredBatchSizeInKilobytes != 512 {
		t.Errorf("only preferredBatchSizeInKilobytes: %d, %d KB; want 1, 512 KB", *p.MaxEventsPerBatch, *p.PreferredBatchSizeInKilobytes)
	}
	for _, bad := range []struct{ max, kb int32 }{{0, 64}, {5001, 64}, {10, 0}, {10, 1025}} {
		_, err := emu.TryCreateEventSubscription("orders", "bad", armeventgrid.EventSubscriptionProperties{
			Destination: egBatching(hook.URL(), to.Ptr(bad.max), to.Ptr(bad.kb))})
		egWantARM400(t, fmt.Sprintf("maxEventsPerBatch %d, preferredBatchSizeInKilobytes %d", bad.max, bad.kb), err)
	}
}

// EG-16: Event Grid never waits to fill a batch: one event available goes
// at once, alone, though 10 would fit.
func TestEG16_NeverWaitsToFillABatch(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t)
	emu.CreateEventSubscription("orders", "batched", armeventgrid.EventSubscriptionProperties{Destination: egBatching(hook.URL(), to.Ptr[int32](10), nil)})
	start := emu.Now()
	egPublish(t, emu, "orders", egEvents("alone")...)
	got := emu.WaitForDeliveries(testkit.Filter{Subscription: "batched"}, 1)
	if got[0].Time != start || len(got[0].EventIDs) != 1 || got[0].Outcome != "Success" {
		t.Fatalf("attempt %+v, want the lone event delivered at once", got[0])
	}
	if d, err := hook.WaitForDeliveries(context.Background(), 1); err != nil || len(egBody(t, d[0])) != 1 {
		t.Fatalf("delivery %v: %v", d, err)
	}
}

// EG-16: a batch succeeds or fails as a whole: a failed batch is retried
// with the same events, and given up as one dead-letter blob.
func TestEG16_BatchIsAllOrNone(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	retried := fakes.NewWebhook(t, fakes.Script(fakes.Status(500)))
	refused := fakes.NewWebhook(t, fakes.Always(400))
	emu.CreateEventSubscription("orders", "retried", armeventgrid.EventSubscriptionProperties{Destination: egBatching(retried.URL(), to.Ptr[int32](5), nil)})
	emu.CreateEventSubscription("orders", "refused", armeventgrid.EventSubscriptionProperties{
		Destination: egBatching(refused.URL(), to.Ptr[int32](5), nil), DeadLetterDestination: egDeadLetterTo("devstoreaccount1", "dead")})
	egPublish(t, emu, "orders", egEvents("a", "b", "c")...)
	emu.Settle()
	emu.Advance(5 * time.Minute)

	attempts := emu.Deliveries(testkit.Filter{Subscription: "retried"})
	if len(attempts) != 2 || attempts[0].Outcome != "Busy" || attempts[1].Outcome != "Success" ||
		!slices.Equal(attempts[0].EventIDs, []string{"a", "b", "c"}) || !slices.Equal(attempts[1].EventIDs, attempts[0].EventIDs) {
		t.Fatalf("attempts %+v, want the batch of a, b, c failed then retried whole", attempts)
	}
	writes := emu.DeadLetters(testkit.Filter{Subscription: "refused"})
	records := emu.EventGridDeadLetters(testkit.Filter{Subscription: "refused"})
	if len(writes) != 1 || len(records) != 3 || records[0].ID != "a" || records[2].ID != "c" {
		t.Fatalf("%d dead-letter blobs holding %+v, want one blob with a, b, c", len(writes), records)
	}
}
