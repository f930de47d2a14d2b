package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// fullJournalEvents events, each published, tried once against a fault
// answering 400 and dropped (EG: a 400 is not retried; no dead-letter
// destination), fill the journal to its 100,000 entries.
const fullJournalEvents = 33_334

// With a full journal every view still opens on its first page, with the
// totals of the whole journal. The time each view takes to render, from the
// click on its link to the page saying it is ready, is logged: the dashboard
// aims at 1 s (a target, so it is reported, not asserted).
func TestDashboardWithAFullJournal(t *testing.T) {
	t.Parallel()
	chromium := testenv.Chromium(t)
	// A journal of 100,000 entries, however many bytes they take: the default
	// byte bound would discard most of them.
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation", "--journal-max-bytes", "1073741824")
	base := proc.Endpoints["http"]
	emu := testkit.Connect(t, base)
	ctx := context.Background()

	hook := fakes.NewWebhook(t)
	emu.CreateTopic("load", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	emu.CreateEventSubscription("load", "sink", armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL())})
	emu.AddFault(testkit.Fault{Match: map[string]string{"subscription": "sink"}, Status: http.StatusBadRequest})
	pub := emu.EventGridPublisher("load")
	at := emu.Now()
	for sent := 0; sent < fullJournalEvents; {
		batch := make([]azeventgrid.Event, 0, 1000)
		for ; sent < fullJournalEvents && len(batch) < cap(batch); sent++ {
			batch = append(batch, azeventgrid.Event{
				ID: to.Ptr(fmt.Sprintf("load-%05d", sent)), EventType: to.Ptr("Load.Tick"), Subject: to.Ptr(fmt.Sprintf("load/%d", sent)),
				DataVersion: to.Ptr("1"), EventTime: to.Ptr(at), Data: map[string]any{"n": sent},
			})
		}
		if _, err := pub.PublishEvents(ctx, batch, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Wait (long poll) until every event was published, tried and dropped.
	res, err := http.Get(fmt.Sprintf("%s/_emulator/ui/api/changes?after=%d&wait=3m", base, 3*fullJournalEvents-1))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	m := emu.RouteMetrics(testkit.Filter{Subscription: "sink"})
	if m.Dropped != fullJournalEvents {
		t.Fatalf("the route dropped %d events, want %d: %+v", m.Dropped, fullJournalEvents, m)
	}

	b := startBrowser(t, chromium)
	b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil)
	b.call("Page.navigate", map[string]any{"url": base + "/_emulator/ui/#/resources"}, nil)
	b.waitFor(`document.body.dataset.ready === "resources"`)

	last := fmt.Sprintf("load-%05d", fullJournalEvents-1)
	views := []struct {
		link, ready string
		shows       []string
	}{
		{"#/events", "events", []string{fmt.Sprintf("1–100 of %d", fullJournalEvents), last}},
		// Drops are newest first by when each attempt ended; 16 attempts run
		// at once, so which event's drop is newest is not fixed.
		{"#/drops", "drops", []string{fmt.Sprintf("1–100 of %d", fullJournalEvents), "load-3", "UndeliverableDueToClientError"}},
		{"#/deadletters", "deadletters", []string{"No dead letters."}},
		{"#/clock", "clock", []string{"virtual"}},
		{"#/faults", "faults", []string{"subscription sink", "forever"}},
		{"#/resources", "resources", []string{"100000 / 100000", fmt.Sprintf("%d queued = 0 delivered + 0 dead-lettered + %d dropped + 0 pending", fullJournalEvents, fullJournalEvents)}},
	}
	var report []string
	for _, v := range views {
		var ms float64
		// Clicks the navigation link and times until the view says it is ready.
		b.eval(`document.body.dataset.ready = ""; window.__t0 = performance.now()`, nil)
		b.click(fmt.Sprintf(`nav a[href=%q]`, v.link))
		b.waitFor(fmt.Sprintf(`document.body.dataset.ready === %q`, v.ready))
		b.eval(`performance.now() - window.__t0`, &ms)
		text := mainText(b)
		for _, want := range v.shows {
			if !strings.Contains(text, want) {
				t.Errorf("%s with a full journal does not show %q:\n%.2000s", v.link, want, text)
			}
		}
		report = append(report, fmt.Sprintf("%s %.0f ms", v.ready, ms))
	}
	// One event's timeline, found by searching the list.
	b.eval(`location.hash = "#/events"`, nil)
	b.waitFor(`document.body.dataset.ready === "events"`)
	b.eval(`document.body.dataset.ready = ""; window.__t0 = performance.now()`, nil)
	b.click(fmt.Sprintf(`a[href="#/events/%s"]`, last))
	b.waitFor(fmt.Sprintf(`document.body.dataset.ready === "events/%s" && document.querySelector("li.k-drop")`, last))
	var ms float64
	b.eval(`performance.now() - window.__t0`, &ms)
	report = append(report, fmt.Sprintf("timeline %.0f ms", ms))
	b.noConsoleErrors("a full journal")
	t.Logf("first render with %d journal entries (%s): %s", 3*fullJournalEvents, time.Now().Format(time.RFC3339), strings.Join(report, ", "))
}
