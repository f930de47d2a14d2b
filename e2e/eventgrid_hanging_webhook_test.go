package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// hangingEvents is how many events the hanging-webhook test and benchmark
// publish: four rounds of a route's 16 attempts in flight.
const hangingEvents = 64

// startDefaultSettle is testkit.Start with the binary's default settle
// bound (1 s) instead of testkit's generous 3 s.
func startDefaultSettle(t testing.TB) *testkit.Emulator {
	return testkit.Start(t, testkit.WithSettleTimeout(0))
}

// publishToHook makes topic "orders" with subscription "hook" to url and
// publishes n events to it; it returns their ids.
func publishToHook(t testing.TB, emu *testkit.Emulator, url string, n int) []string {
	t.Helper()
	emu.CreateTopic("orders", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	emu.CreateEventSubscription("orders", "hook", armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(url)})
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("o-%d", i)
	}
	if _, err := emu.EventGridPublisher("orders").PublishEvents(context.Background(), egEvents(ids...), nil); err != nil {
		t.Fatalf("publishing: %v", err)
	}
	return ids
}

// EG-5 on the virtual clock: an hour's advance over events whose webhook
// never answers is driven by the 30 s response timeouts, on the clock, not
// by real time: with the default settle bound every attempt times out, is
// retried on the schedule, and the advance ends at +1 h. (An attempt whose
// request is written tells the clock it waits outside the emulator; the
// wall time is in BenchmarkEventGridAdvanceOverHangingWebhook.)
func TestEG5_HangingWebhookTimesOutEveryAttemptOverAnHour(t *testing.T) {
	t.Parallel()
	emu := startDefaultSettle(t)
	hook := fakes.NewWebhook(t, fakes.NoAnswer())
	start := emu.Now()
	ids := publishToHook(t, emu, hook.URL(), hangingEvents)

	if now := emu.Advance(time.Hour); !now.Equal(start.Add(time.Hour)) {
		t.Fatalf("advance ended at %s, want %s", now, start.Add(time.Hour))
	}
	attempts := emu.Deliveries(testkit.Filter{Subscription: "hook"})
	perEvent := map[string]int{}
	for _, a := range attempts {
		if a.Outcome != "TimedOut" {
			t.Fatalf("attempt %+v, want every attempt TimedOut", a)
		}
		for _, id := range a.EventIDs {
			perEvent[id]++
		}
	}
	for _, id := range ids {
		// 0 s, then 10 s, 30 s, 1 m, 5 m and 10 m after each timeout: at
		// least 5 attempts within the hour even for the last events, which
		// wait for the first three rounds to time out.
		if perEvent[id] < 5 {
			t.Fatalf("event %s: %d TimedOut attempts within the hour, want at least 5 (%d attempts in all)", id, perEvent[id], len(attempts))
		}
	}
	if got := len(hook.Deliveries()); got < len(attempts) {
		t.Fatalf("the webhook saw %d requests, fewer than the %d attempts journalled", got, len(attempts))
	}
	m := emu.RouteMetrics(testkit.Filter{Topic: "orders", Subscription: "hook"})
	if m.Delivered != 0 || m.DeadLettered != 0 || m.Queued != hangingEvents {
		t.Fatalf("metrics %+v, want %d queued, none delivered or dead-lettered", m, hangingEvents)
	}
}

// BenchmarkEventGridAdvanceOverHangingWebhook is the wall time of the
// hour's advance above, with the default settle bound, beside the same
// advance over a webhook that answers 200 at once (the baseline).
func BenchmarkEventGridAdvanceOverHangingWebhook(b *testing.B) {
	for _, c := range []struct {
		name  string
		reply []fakes.Option
	}{{"answering", nil}, {"hanging", []fakes.Option{fakes.NoAnswer()}}} {
		for _, n := range []int{hangingEvents, 4 * hangingEvents} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					emu := startDefaultSettle(b)
					hook := fakes.NewWebhook(b, c.reply...)
					publishToHook(b, emu, hook.URL(), n)
					b.StartTimer()
					emu.Advance(time.Hour)
				}
			})
		}
	}
}

// A webhook that hangs once and then answers, inside one hour's advance:
// the clock stops waiting for it after the hang, but still gives the retry
// its chance to answer before the retry's own timeout, so the retry
// succeeds at +40 s rather than timing out for the clock's haste.
func TestEG5_WebhookThatAnswersAgainWithinOneAdvance(t *testing.T) {
	t.Parallel()
	emu := startDefaultSettle(t)
	hook := fakes.NewWebhook(t, fakes.Script(fakes.NoAnswer()))
	start := emu.Now()
	publishToHook(t, emu, hook.URL(), 1)
	emu.Advance(time.Hour)
	attempts := emu.Deliveries(testkit.Filter{Subscription: "hook"})
	if len(attempts) != 2 || attempts[0].Outcome != "TimedOut" || attempts[1].Outcome != "Success" || attempts[1].Time.Sub(start) != 40*time.Second {
		t.Fatalf("attempts %+v, want TimedOut then Success at +40 s", attempts)
	}
}
