package ui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// The dashboard's state changes, clicked in headless chromium against the
// binary: a fault added with the form ("fail the next 1 attempt to
// subscription archive with 400") and another removed with its button; the 400
// dead-letters the event (EG-6), written 5 minutes later (EG-21) once
// "Advance 5 min" is clicked; the dead letter shows with its record; Reset
// asks for a confirmation, then forgets everything.
func TestDashboardFaultsDeadLettersAndReset(t *testing.T) {
	t.Parallel()
	chromium := testenv.Chromium(t)
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	base := proc.Endpoints["http"]
	emu := testkit.Connect(t, base)

	hook := fakes.NewWebhook(t, fakes.Always(200))
	emu.CreateTopic("orders", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	emu.CreateEventSubscription("orders", "archive", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()),
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				ResourceID: to.Ptr(testkit.StorageAccountID("devstoreaccount1")), BlobContainerName: to.Ptr("dead"),
			},
		},
	})
	other := emu.AddFault(testkit.Fault{Match: map[string]string{"subscription": "elsewhere"}, Status: 503})

	b := startBrowser(t, chromium)
	b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil)
	b.call("Page.navigate", map[string]any{"url": base + "/_emulator/ui/#/faults"}, nil)
	b.waitFor(`document.body.dataset.ready === "faults" && document.querySelector("#fault-value")`)
	b.snapView("faults")
	checkAccessibility(t, b, "faults", "Add fault", "Reset the emulator…")

	// Remove the other fault with its button.
	b.click(fmt.Sprintf(`button[aria-label="Remove fault %s"], #remove-%s`, other.ID, other.ID))
	b.waitFor(fmt.Sprintf(`document.body.dataset.ready === "faults" && !document.querySelector("main").innerText.includes("subscription elsewhere")`))
	if fs := faults(t, base); len(fs) != 0 {
		t.Fatalf("after clicking Remove the emulator has faults %+v", fs)
	}

	// Add one with the form.
	b.eval(`document.querySelector("#fault-count").value = ""`, nil)
	b.click("#fault-count")
	b.call("Input.insertText", map[string]any{"text": "1"}, nil)
	b.eval(`document.querySelector("#fault-key").value = "subscription"`, nil)
	b.click("#fault-value")
	b.call("Input.insertText", map[string]any{"text": "archive"}, nil)
	b.eval(`document.querySelector("#fault-status").value = ""`, nil)
	b.click("#fault-status")
	b.call("Input.insertText", map[string]any{"text": "400"}, nil)
	b.click(`form button[type="submit"]`)
	b.waitFor(`document.body.dataset.ready === "faults" && document.querySelector("main").innerText.includes("subscription archive")`)
	fs := faults(t, base)
	if len(fs) != 1 || fs[0].Labels["subscription"] != "archive" || fs[0].Status != 400 || fs[0].Count != 1 {
		t.Fatalf("after the form the emulator has faults %+v, want one: subscription archive, 400, count 1", fs)
	}

	start := emu.Now()
	if _, err := emu.EventGridPublisher("orders").PublishEvents(context.Background(), []azeventgrid.Event{{
		ID: to.Ptr("bad-1"), EventType: to.Ptr("Orders.Rejected"), Subject: to.Ptr("orders/9"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(start), Data: map[string]any{"total": 7},
	}}, nil); err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "archive", Outcome: "BadRequest"}, 1)

	b.eval(`location.hash = "#/clock"`, nil)
	b.waitFor(`document.body.dataset.ready === "clock" && document.querySelector("#advance-5m")`)
	b.click("#advance-5m")
	// The page shows the new time once the advance (and the dead-letter
	// write it fires) has finished.
	b.waitFor(fmt.Sprintf(`document.querySelector("#clock-now") && document.querySelector("#clock-now").textContent.startsWith(%q)`,
		start.Add(5*time.Minute).UTC().Format("2006-01-02 15:04:05")))
	if got := emu.Now().Sub(start); got != 5*time.Minute {
		t.Fatalf("the clock moved %v, want 5m", got)
	}
	dls := emu.WaitForDeadLetters(testkit.Filter{Subscription: "archive"}, 1)

	b.eval(`location.hash = "#/deadletters"`, nil)
	b.waitFor(`document.body.dataset.ready === "deadletters" && document.querySelector("main").innerText.includes("bad-1")`)
	b.eval(`document.querySelectorAll("main details").forEach((d) => { d.open = true; })`, nil)
	text := mainText(b)
	for _, want := range []string{"1–1 of 1", "bad-1", "orders/archive", dls[0].Destination, "Orders.Rejected", "Copy deadletter-", "Download deadletter-"} {
		if !strings.Contains(text, want) {
			t.Errorf("the dead letters view does not show %q:\n%s", want, text)
		}
	}
	// Download hands the browser the record itself: catch the blob it makes.
	b.eval(`(() => { const make = URL.createObjectURL; window.__blob = null;
		URL.createObjectURL = (blob) => { window.__blob = blob; return make.call(URL, blob); }; })()`, nil)
	b.click(`button[data-action="download"]`)
	b.waitFor(`window.__blob !== null`)
	var record string
	b.eval(`window.__blob.text()`, &record)
	// It is the blob's content: Event Grid's dead-letter records (EG-21).
	var parsed []map[string]any
	if err := json.Unmarshal([]byte(record), &parsed); err != nil || len(parsed) != 1 || parsed[0]["id"] != "bad-1" || parsed[0]["deadLetterReason"] == nil {
		t.Errorf("the downloaded record is not the dead letter's (%v): %.500s", err, record)
	}
	b.snapView("deadletters")
	checkAccessibility(t, b, "deadletters")

	// Reset: the first click only asks. (The form's fault expired after its
	// one attempt; this one lasts.)
	emu.AddFault(testkit.Fault{Match: map[string]string{"subscription": "elsewhere"}, Status: 503})
	b.eval(`location.hash = "#/faults"`, nil)
	b.waitFor(`document.body.dataset.ready === "faults" && document.querySelector("button.danger")`)
	b.click("button.danger")
	b.waitFor(`document.querySelector("#reset-yes") && document.activeElement === document.querySelector("#reset-yes")`)
	if fs := faults(t, base); len(fs) != 1 || len(emu.Journal(testkit.Filter{})) == 0 {
		t.Fatalf("asking to reset already changed the emulator: faults %+v", fs)
	}
	b.click("#reset-yes")
	b.waitFor(`document.body.dataset.ready === "faults" && document.querySelector("main").innerText.includes("No fault rules.")`)
	if fs := faults(t, base); len(fs) != 0 {
		t.Fatalf("after Reset the emulator has faults %+v", fs)
	}
	if n := len(emu.Journal(testkit.Filter{})); n != 0 {
		t.Fatalf("after Reset the journal holds %d entries", n)
	}
	b.noConsoleErrors("faults, dead letters and reset")
}

func faults(t *testing.T, base string) []engine.Fault {
	t.Helper()
	res, err := http.Get(base + "/_emulator/faults")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v struct {
		Faults []engine.Fault `json:"faults"`
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v.Faults
}
