package ui_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// ScreenshotVar names a file the browser test writes its screenshot to (the
// README's picture is made with it); without it the screenshot goes to the
// test's temporary directory.
const ScreenshotVar = "GRIDBRIDGE_UI_SCREENSHOT"

// ViewsVar names a directory the browser test writes a screenshot of every
// view to, for reviewing the page's look.
const ViewsVar = "GRIDBRIDGE_UI_VIEWS"

// snapView writes the viewport to $GRIDBRIDGE_UI_VIEWS/name.png when set.
func (b *browser) snapView(name string) {
	if dir := os.Getenv(ViewsVar); dir != "" {
		b.writeScreenshot(filepath.Join(dir, name+".png"))
	}
}

// The dashboard, in headless chromium, against the shipped binary: a topic and
// a subscription made through ARM, an event published with azeventgrid that
// the webhook answers 503; clicking "Advance 1 min" moves the clock and the
// retry (EG-7: a 503 is retried after 30 s) gets 200; the event's timeline
// shows both attempts. Keyboard focus and accessible names are checked on the
// browser's accessibility tree.
func TestDashboardInBrowser(t *testing.T) {
	t.Parallel()
	chromium := testenv.Chromium(t)
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	base := proc.Endpoints["http"]
	emu := testkit.Connect(t, base)
	ctx := context.Background()

	hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(503), fakes.Status(200)))
	topic := emu.CreateTopic("orders", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL())})
	_ = topic
	// A topic nothing subscribes to is a resource too.
	emu.CreateTopic("quiet", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaCloudEventSchemaV10)})
	start := emu.Now()
	_, err := emu.EventGridPublisher("orders").PublishEvents(ctx, []azeventgrid.Event{{
		ID: to.Ptr("order-1"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(start), Data: map[string]any{"total": 42},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit", Outcome: "Busy"}, 1)
	// A pipe is a resource too, with what its counters account for.
	in, err := emu.SQS().CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: to.Ptr("pipe-in")})
	if err != nil {
		t.Fatal(err)
	}
	emu.CreatePipe("orders-pipe", "arn:aws:sqs:us-east-1:000000000000:pipe-in", "arn:aws:lambda:us-east-1:000000000000:function:ship")
	if _, err := emu.SQS().SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: in.QueueUrl, MessageBody: to.Ptr("order-2")}); err != nil {
		t.Fatal(err)
	}
	emu.WaitForPipeDeliveries("orders-pipe", 1)

	b := startBrowser(t, chromium)
	b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil)
	b.call("Page.navigate", map[string]any{"url": base + "/_emulator/ui"}, nil)

	// Resources: the topic and its subscription, retrying after the 503.
	b.waitFor(`document.body.dataset.ready === "resources" && document.querySelector("main").innerText.includes("topic orders")`)
	resources := mainText(b)
	for _, want := range []string{"Event Grid topics", "quiet\tCloudEventSchemaV1_0", "audit Succeeded WebHook http://127.0.0.1:", "topic orders", "orders/audit", "Active", "1 queued = 0 delivered + 0 dead-lettered + 0 dropped + 1 pending",
		"EventBridge Pipes", "orders-pipe", "RUNNING", "1 received = 1 delivered + 0 filtered + 0 dead-lettered + 0 dropped + 0 pending"} {
		if !strings.Contains(resources, want) {
			t.Errorf("the resources view does not show %q:\n%s", want, resources)
		}
	}
	b.snapView("resources")
	checkAccessibility(t, b, "resources")

	// Clock: clicking the button (a real mouse click) moves the emulator's clock.
	b.eval(`location.hash = "#/clock"`, nil)
	b.waitFor(`document.body.dataset.ready === "clock" && document.querySelector("#advance-1m")`)
	b.snapView("clock")
	checkAccessibility(t, b, "clock", "Advance 10 s", "Advance 1 min", "Advance 24 h")
	before := emu.Now()
	b.click("#advance-1m")
	want := before.Add(time.Minute)
	b.waitFor(fmt.Sprintf(`document.querySelector("#clock-now") && document.querySelector("#clock-now").textContent.startsWith(%q)`, want.UTC().Format("2006-01-02 15:04:05")))
	if got := emu.Now(); !got.Equal(want) {
		t.Fatalf("after clicking Advance 1 min the clock is %s, want %s", got, want)
	}
	// The keyboard reaches the same buttons: Tab to "Advance 10 s", press Enter.
	b.tabTo("Advance 10 s")
	b.press("Enter", 13)
	want = want.Add(10 * time.Second)
	b.waitFor(fmt.Sprintf(`document.querySelector("#clock-now") && document.querySelector("#clock-now").textContent.startsWith(%q)`, want.UTC().Format("2006-01-02 15:04:05")))
	if got := emu.Now(); !got.Equal(want) {
		t.Fatalf("after Enter on Advance 10 s the clock is %s, want %s", got, want)
	}

	attempts := emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 2)
	if attempts[1].Outcome != "Success" {
		t.Fatalf("the retry's outcome is %q, want Success", attempts[1].Outcome)
	}

	// Events: the list, then the event's timeline with both attempts.
	b.eval(`location.hash = "#/events"`, nil)
	b.waitFor(`document.body.dataset.ready === "events" && document.querySelector("main").innerText.includes("order-1")`)
	events := mainText(b)
	for _, want := range []string{"order-1", "Orders.Placed", "orders/1", "orders/audit", "delivered"} {
		if !strings.Contains(events, want) {
			t.Errorf("the events view does not show %q:\n%s", want, events)
		}
	}
	b.snapView("events")
	checkAccessibility(t, b, "events", "event-search", "order-1")
	b.click(`a[href="#/events/order-1"]`)
	b.waitFor(`document.body.dataset.ready === "events/order-1" && document.querySelectorAll("li.k-attempt").length === 2`)
	b.eval(`document.querySelectorAll("li.k-attempt details").forEach((d) => { d.open = true; })`, nil)
	timeline := mainText(b)
	for _, want := range []string{"attempt 1", "HTTP 503", "Busy", "next attempt", "attempt 2", "HTTP 200", "Success", "Delivered at", "Aeg-Event-Type"} {
		if !strings.Contains(timeline, want) {
			t.Errorf("the timeline does not show %q:\n%s", want, timeline)
		}
	}
	checkAccessibility(t, b, "timeline", "← all events")

	shot := os.Getenv(ScreenshotVar)
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "dashboard.png")
	}
	// The picture shows the whole timeline: requests folded, no focus ring,
	// no passing notice.
	b.eval(`(() => { document.querySelectorAll("li.k-attempt details").forEach((d) => { d.open = false; });
		document.activeElement && document.activeElement.blur(); document.querySelector("#status").textContent = "";
		window.scrollTo(0, 0); })()`, nil)
	b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 640, "deviceScaleFactor": 1, "mobile": false}, nil)
	b.writeScreenshot(shot)
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 10_000 {
		t.Fatalf("screenshot %s: %v (%d bytes)", shot, err, fi.Size())
	}
	b.noConsoleErrors("the dashboard")
	t.Logf("screenshot: %s", shot)
}

// mainText is the view's text; a view never shows a JavaScript value that
// was not meant as text ("null", "undefined", "[object Object]").
func mainText(b *browser) string {
	b.t.Helper()
	var s string
	b.eval(`document.querySelector("main").innerText`, &s)
	for _, leak := range regexp.MustCompile(`\b(null|undefined|NaN)\b|\[object Object\]`).FindAllString(s, -1) {
		b.t.Errorf("the view shows %q:\n%s", leak, s)
	}
	return s
}

// click presses and releases the left mouse button on the middle of the
// element, as a user's click does.
func (b *browser) click(selector string) {
	b.t.Helper()
	var at struct{ X, Y float64 }
	b.eval(fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.scrollIntoView({block: "center"});
		const r = el.getBoundingClientRect(); return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`, selector), &at)
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		b.call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": at.X, "y": at.Y, "button": "left", "clickCount": 1}, nil)
	}
}

// press sends one key press to the focused element.
func (b *browser) press(key string, code int) {
	b.t.Helper()
	for _, typ := range []string{"keyDown", "keyUp"} {
		params := map[string]any{"type": typ, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
		if typ == "keyDown" && key == "Enter" {
			params["text"] = "\r"
		}
		b.call("Input.dispatchKeyEvent", params, nil)
	}
}

// tabTo presses Tab from the focused place until the focused element's
// accessible text is name, and returns the names it passed: the focus order.
func (b *browser) tabTo(name string) []string {
	b.t.Helper()
	return b.tabUntil(func(order []string) bool { return order[len(order)-1] == name })
}

// tabUntil presses Tab (at most 80 times) until done says the focus order so
// far is enough.
func (b *browser) tabUntil(done func(order []string) bool) []string {
	b.t.Helper()
	var order []string
	for i := 0; i < 80; i++ {
		b.press("Tab", 9)
		var got string
		b.eval(`(document.activeElement.getAttribute("aria-label") || document.activeElement.textContent || document.activeElement.id || "").trim()`, &got)
		order = append(order, got)
		if done(order) {
			return order
		}
	}
	b.t.Fatalf("Tab never got there; focus order: %q", order)
	return nil
}

// checkAccessibility reads the browser's accessibility tree: every button
// and link has a name, and Tab reaches the navigation and the view's buttons.
func checkAccessibility(t *testing.T, b *browser, view string, controls ...string) {
	t.Helper()
	var tree struct {
		Nodes []axNode `json:"nodes"`
	}
	b.call("Accessibility.getFullAXTree", nil, &tree)
	buttons, links := 0, 0
	for _, n := range tree.Nodes {
		if n.Ignored {
			continue
		}
		switch n.role() {
		case "button", "link":
			if n.role() == "button" {
				buttons++
			} else {
				links++
			}
			if n.name() == "" {
				t.Errorf("%s view: a %s has no accessible name (DOM node %d)", view, n.role(), n.BackendDOMNodeID)
			}
		case "textbox", "searchbox", "combobox", "spinbutton":
			if n.name() == "" {
				t.Errorf("%s view: a %s has no label (DOM node %d)", view, n.role(), n.BackendDOMNodeID)
			}
		}
	}
	if links < 6 {
		t.Errorf("%s view: the accessibility tree has %d links, want at least the 6 of the navigation", view, links)
	}
	// A view takes the focus when it opens, so Tab runs through its
	// controls, wraps to the skip link and the navigation; on a page just
	// loaded it starts with the skip link.
	want := append([]string{"Skip to content", "Resources", "Events", "Clock", "Faults"}, controls...)
	var order []string
	for i := 0; i < 80 && !containsAll(order, want); i++ {
		b.press("Tab", 9)
		var got string
		b.eval(`(document.activeElement.getAttribute("aria-label") || document.activeElement.textContent || document.activeElement.id || "").trim()`, &got)
		order = append(order, got)
	}
	for _, w := range want {
		if !slices.Contains(order, w) {
			t.Errorf("%s view: Tab never reaches %q; focus order: %q", view, w, order)
		}
	}
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
