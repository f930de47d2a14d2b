package ui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/emulator/ui"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// view is one view of the dashboard: the URL fragment that opens it and the
// name the page gives it once rendered (the body's data-ready).
type view struct{ hash, ready string }

// everyView lists the page's views; eventID names the event whose timeline
// is opened.
func everyView(eventID string) []view {
	return []view{
		{"#/resources", "resources"},
		{"#/events", "events"},
		{"#/events/" + eventIDFragment(eventID), "events/" + eventID},
		{"#/deadletters", "deadletters"},
		{"#/drops", "drops"},
		{"#/clock", "clock"},
		{"#/faults", "faults"},
		{"#/no-such-view", "no-such-view"},
	}
}

// eventIDFragment escapes an event id as the page's links do
// (encodeURIComponent).
func eventIDFragment(id string) string {
	var b strings.Builder
	for _, c := range []byte(id) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// openView opens v and waits until it is rendered. It fails the test when
// the view could not load or the page reported an error, and returns the
// view's text.
func (b *browser) openView(v view) string {
	b.t.Helper()
	// Setting the hash it already has is no navigation: say it changed.
	b.eval(fmt.Sprintf(`document.body.dataset.ready = "";
		if (location.hash === %[1]q) window.dispatchEvent(new HashChangeEvent("hashchange")); else location.hash = %[1]q`, v.hash), nil)
	b.waitFor(fmt.Sprintf(`document.body.dataset.ready === %q`, v.ready))
	var text string
	b.eval(`document.querySelector("main").innerText`, &text)
	if strings.Contains(text, "Could not load this view") {
		b.t.Errorf("%s could not load:\n%.1500s", v.hash, text)
	}
	b.noConsoleErrors(v.hash)
	return text
}

// load opens the dashboard afresh (a new document, so the page reads the
// emulator's configuration again).
func (b *browser) load(base string) {
	b.t.Helper()
	b.call("Page.navigate", map[string]any{"url": "about:blank"}, nil)
	b.call("Page.navigate", map[string]any{"url": base + "/_emulator/ui/#/resources"}, nil)
	b.waitFor(`document.body.dataset.ready === "resources"`)
	b.noConsoleErrors("opening the dashboard")
}

// An event published to a topic nothing subscribes to is in the journal
// with no route: the Events view lists it as unmatched, and its timeline
// shows it accepted.
func TestDashboardListsAnEventOfATopicWithoutSubscriptions(t *testing.T) {
	t.Parallel()
	chromium := testenv.Chromium(t)
	proc := testbinary.Start(t, "--clock", "virtual")
	base := proc.Endpoints["http"]
	emu := testkit.Connect(t, base, testkit.WithJitter(0), testkit.WithProbation())
	emu.CreateTopic("lonely", nil)
	if _, err := emu.EventGridPublisher("lonely").PublishEvents(context.Background(), []azeventgrid.Event{{
		ID: to.Ptr("alone-1"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: map[string]any{"total": 1},
	}}, nil); err != nil {
		t.Fatal(err)
	}

	b := startBrowser(t, chromium)
	b.load(base)
	events := b.openView(view{"#/events", "events"})
	for _, want := range []string{"alone-1", "Orders.Placed", "orders/1", "no route took it", "unmatched", "1–1 of 1"} {
		if !strings.Contains(events, want) {
			t.Errorf("the events view does not show %q:\n%s", want, events)
		}
	}
	mainText(b)
	timeline := b.openView(view{"#/events/alone-1", "events/alone-1"})
	if !strings.Contains(timeline, "Accepted") || !strings.Contains(timeline, "accepted") {
		t.Errorf("the timeline does not show the event accepted:\n%s", timeline)
	}
	var live string
	b.eval(`document.querySelector("#live").textContent`, &live)
	if live != "live" {
		t.Errorf("the header says %q, want live once the page reached the emulator", live)
	}
}

// markup is text that a page building its views from HTML strings would run
// or render; each, if it ran, would set window.__injected.
var markup = struct{ id, eventType, subject, data, source, detailType, fault string }{
	id:         `<img src=x onerror="window.__injected=1">`,
	eventType:  `<script>window.__injected=2</script>`,
	subject:    `<b>bold</b> &amp; <i>more</i>`,
	data:       `<iframe srcdoc="<script>parent.__injected=3</script>"></iframe>`,
	source:     `<svg onload="window.__injected=4">`,
	detailType: `<a href="javascript:window.__injected=5">click</a>`,
	fault:      `<img src=y onerror="window.__injected=6">`,
}

// Every view, in headless chromium against the binary, first on an emulator
// with no resources at all, then with one of every kind (topics with and
// without subscriptions, a namespace queue, a bus with a rule and an SQS
// target, a bus-v2 subscriber, a schedule), events delivered, retrying,
// dead-lettered and dropped, names and payloads made of markup, a 300 KB
// payload and a fault, at 1280 and 1400 px wide: none reports an error in
// the console (read through the DevTools protocol), none shows a value that
// was not meant as text, markup stays text, and nothing is wider than the
// window. Then every view again with the same answers made null, or left
// out, at each depth of their JSON.
func TestDashboardViewsOnEmptyFullAndNullData(t *testing.T) {
	t.Parallel()
	chromium := testenv.Chromium(t)
	hook := statusHook(t)
	config := filepath.Join(t.TempDir(), "topology.yaml")
	if err := os.WriteFile(config, []byte(strings.ReplaceAll(fullTopology, "HOOK", hook)), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	full := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation", "--config", config)
	b := startBrowser(t, chromium)

	t.Run("empty", func(t *testing.T) {
		b.t = t
		b.load(empty.Endpoints["http"])
		wants := map[string]string{
			"resources": "No routes yet", "events": "No events yet", "deadletters": "No dead letters.", "drops": "No drops.",
			"clock": "No timers", "faults": "No fault rules.", "no-such-view": "Not found",
			"events/" + markup.id: "The journal holds nothing for this event",
		}
		for _, v := range everyView(markup.id) {
			text := b.openView(v)
			if !strings.Contains(text, wants[v.ready]) {
				t.Errorf("%s on an empty emulator does not say %q:\n%s", v.hash, wants[v.ready], text)
			}
			mainText(b)
		}
	})

	base := full.Endpoints["http"]
	emu := testkit.Connect(t, base)
	fillEveryView(t, emu)
	reason := emu.DeadLetters(testkit.Filter{Subscription: "archive"})[0].Outcome
	records := emu.EventGridDeadLetters(testkit.Filter{Subscription: "archive"})
	if reason == "" || len(records) == 0 || records[0].DeadLetterReason != reason {
		t.Fatalf("the dead letter's journal outcome is %q, its record's reason %+v: want the record's deadLetterReason", reason, records)
	}
	drop := emu.Drops(testkit.Filter{Subscription: "strict"})[0].Outcome

	for _, width := range []int{1280, 1400} {
		t.Run(fmt.Sprintf("full at %d px", width), func(t *testing.T) {
			b.t = t
			b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil)
			b.load(base)
			wants := map[string][]string{
				"resources":   {"topic orders", "quiet", "orders/audit", "Event Grid namespace queue subscriptions", "worker", "bus orders", "billing", "SQS queues (in-memory)"},
				"events":      {markup.id, markup.eventType, markup.subject, markup.source, markup.detailType, "big-1", "dead-lettered", "retrying", "dropped"},
				"deadletters": {markup.id, "orders/archive", reason},
				"drops":       {"orders/strict", drop},
				"clock":       {"Next timers"},
				"faults":      {"subscription " + markup.fault},
			}
			for _, v := range everyView(markup.id) {
				text := b.openView(v)
				b.eval(`document.querySelectorAll("main details").forEach((d) => { d.open = true; })`, nil)
				text = mainText(b)
				for _, want := range wants[v.ready] {
					if !strings.Contains(text, want) {
						t.Errorf("%s does not show %q:\n%.3000s", v.hash, want, text)
					}
				}
				// The payload shows as JSON text (its quotes escaped).
				if v.ready == "events/"+markup.id && !strings.Contains(text, "<script>parent.__injected=3</script>") {
					t.Errorf("the timeline does not show the payload %q as text:\n%.3000s", markup.data, text)
				}
				var injected struct {
					Ran      any `json:"ran"`
					Elements int `json:"elements"`
				}
				b.eval(`({ran: window.__injected ?? null, elements: document.querySelectorAll("main img, main script, main iframe, main svg").length})`, &injected)
				if injected.Ran != nil || injected.Elements != 0 {
					t.Errorf("%s turned event data into markup: window.__injected = %v, %d injected elements", v.hash, injected.Ran, injected.Elements)
				}
				var overflow struct {
					Page   int      `json:"page"`
					Tables []string `json:"tables"`
				}
				b.eval(`({page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
					tables: [...document.querySelectorAll("main .table-box")].filter((box) => box.closest("details") === null && box.scrollWidth > box.clientWidth + 1)
						.map((box) => (box.previousElementSibling ? box.previousElementSibling.textContent : "") + ": " + box.scrollWidth + " > " + box.clientWidth)})`, &overflow)
				if overflow.Page > 0 {
					t.Errorf("%s at %d px is %d px wider than the window", v.hash, width, overflow.Page)
				}
				// At 1400 px every table of the resources view fits the page;
				// narrower, a wide one scrolls in its box.
				if v.ready == "resources" && width >= 1400 && len(overflow.Tables) > 0 {
					t.Errorf("resources at %d px: tables wider than the page: %q", width, overflow.Tables)
				}
				b.snapView(fmt.Sprintf("full-%d-%s", width, strings.NewReplacer("/", "-", "<", "", ">", "", "\"", "", "=", "", " ", "").Replace(v.ready)))
			}
		})
	}

	t.Run("null and absent fields", func(t *testing.T) {
		b.t = t
		answers := recordAnswers(t, base, markup.id)
		variants := 0
		defer func() { t.Logf("%d variants of the %d answers, each view opened on each", variants, len(answers)) }()
		for _, mode := range []string{"null", "absent"} {
			for depth := 0; ; depth++ {
				variant, changed := map[string][]byte{}, false
				for path, body := range answers {
					v, c := emptyAt(body, depth, mode)
					variant[path], changed = v, changed || c
				}
				if !changed {
					break
				}
				variants++
				fake := fakeEmulator(t, variant)
				b.load(fake)
				for _, v := range everyView(markup.id) {
					b.openView(v)
				}
				if t.Failed() {
					t.Fatalf("with the API's fields %s at depth %d", mode, depth)
				}
			}
		}
	})
}

// fullTopology declares one resource of every kind the views show; HOOK is
// the test's webhook.
const fullTopology = `
eventgrid:
  topics:
    - name: orders
      subscriptions:
        - name: audit
          webhook: HOOK/ok
          skipValidation: true
        - name: archive
          webhook: HOOK/reject
          skipValidation: true
          deadLetter: { account: devstoreaccount1, container: dead-letters }
        - name: strict
          webhook: HOOK/reject
          skipValidation: true
        - name: flaky
          webhook: HOOK/busy
          skipValidation: true
    - name: quiet
  namespaces:
    - name: shop
      topics:
        - name: orders
          subscriptions:
            - name: worker
eventbridge:
  buses:
    - name: orders
      rules:
        - name: everything
          eventPattern: { account: ["000000000000"] }
          targets:
            - id: queue
              arn: arn:aws:sqs:us-east-1:000000000000:orders
  v2:
    buses:
      - name: payments
        subscribers:
          - name: billing
            invokeConfiguration: { targetArn: "arn:aws:sqs:us-east-1:000000000000:billing" }
  scheduler:
    groups:
      - name: nightly
        schedules:
          - name: compact
            scheduleExpression: rate(1 hour)
            target:
              arn: arn:aws:sqs:us-east-1:000000000000:jobs
              roleArn: arn:aws:iam::000000000000:role/scheduler
`

// statusHook is a webhook that answers by its path: /reject 400, /busy 503,
// anything else 200.
func statusHook(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/reject":
			w.WriteHeader(http.StatusBadRequest)
		case "/busy":
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// fillEveryView publishes events with markup in their names and payloads to
// both clouds, a 300 KB one, adds a fault named with markup, and moves the
// clock so that a dead letter is written (EG-21: 5 minutes after the last
// attempt) while a retry and the schedule still wait.
func fillEveryView(t *testing.T, emu *testkit.Emulator) {
	t.Helper()
	ctx := context.Background()
	now := emu.Now()
	if _, err := emu.EventGridPublisher("orders").PublishEvents(ctx, []azeventgrid.Event{
		{ID: to.Ptr("plain-1"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"), DataVersion: to.Ptr("1"), EventTime: to.Ptr(now), Data: map[string]any{"total": 1}},
		{ID: to.Ptr(markup.id), EventType: to.Ptr(markup.eventType), Subject: to.Ptr(markup.subject), DataVersion: to.Ptr("1"), EventTime: to.Ptr(now), Data: map[string]any{"html": markup.data}},
	}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := emu.EventGridPublisher("orders").PublishEvents(ctx, []azeventgrid.Event{
		{ID: to.Ptr("big-1"), EventType: to.Ptr("Orders.Big"), Subject: to.Ptr("orders/big"), DataVersion: to.Ptr("1"), EventTime: to.Ptr(now), Data: map[string]any{"blob": strings.Repeat("0123456789", 30_000)}},
	}, nil); err != nil {
		t.Fatal(err)
	}
	out, err := emu.EventBridge().PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{{
		EventBusName: aws.String("orders"), Source: aws.String(markup.source), DetailType: aws.String(markup.detailType),
		Detail: aws.String(fmt.Sprintf(`{"html":%q}`, markup.data)),
	}}})
	if err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutEvents: %v %+v", err, out)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "flaky"}, 3)
	emu.WaitForDeliveries(testkit.Filter{Target: "queue"}, 1)
	emu.AddFault(testkit.Fault{Match: map[string]string{"subscription": markup.fault}, Status: 503})
	emu.Advance(6 * time.Minute)
	emu.WaitForDeadLetters(testkit.Filter{Subscription: "archive"}, 1)
}

// dashboardAnswers are the inspection API's answers the page reads, by
// path (and kind, for the entries).
var dashboardAnswers = []string{
	"/_emulator/info", "/_emulator/metrics", "/_emulator/sqs", "/_emulator/eventbridge/subscribers", "/_emulator/eventgrid/topics",
	"/_emulator/ui/api/events", "/_emulator/journal", "/_emulator/ui/api/entries?kind=deadletter", "/_emulator/ui/api/entries?kind=drop",
	"/_emulator/clock", "/_emulator/ui/api/timers", "/_emulator/faults", "/_emulator/api-faults", "/_emulator/ui/api/changes?after=0&wait=0s",
}

// recordAnswers reads every answer the page reads from the emulator at
// base; the journal's is the one of the event eventID.
func recordAnswers(t *testing.T, base, eventID string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, path := range dashboardAnswers {
		url := base + path
		if path == "/_emulator/journal" {
			url += "?event=" + eventIDFragment(eventID)
		}
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v %.300s", url, res.StatusCode, err, body)
		}
		out[answerKey(path)] = body
	}
	return out
}

// answerKey is a request's path, with the kind for the entries.
func answerKey(pathAndQuery string) string {
	path, query, _ := strings.Cut(pathAndQuery, "?")
	if path == "/_emulator/ui/api/entries" {
		for _, kv := range strings.Split(query, "&") {
			if strings.HasPrefix(kv, "kind=") {
				return path + "?" + kv
			}
		}
	}
	return path
}

// fakeEmulator serves the dashboard's own assets with the recorded answers
// in place of the inspection API, and returns its base URL. The change feed
// answers its first call and then waits, as the emulator's does when
// nothing happens.
func fakeEmulator(t *testing.T, answers map[string][]byte) string {
	t.Helper()
	assets := mux.NewRouter()
	ui.Register(assets.PathPrefix("/_emulator").Subrouter(), ui.Source{Journal: engine.NewJournal(0)})
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := answerKey(r.URL.Path + "?" + r.URL.RawQuery)
		if key == "/_emulator/ui/api/changes" && r.URL.Query().Get("wait") != "0s" {
			select {
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		if body, ok := answers[key]; ok {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/_emulator/ui/") || r.URL.Path == "/_emulator/ui" {
			assets.ServeHTTP(w, r)
			return
		}
		t.Errorf("the page asked the fake emulator for %s %s, which the test did not record", r.Method, r.URL)
		http.NotFound(w, r)
	}))
	t.Cleanup(func() { close(stop); srv.Close() })
	return srv.URL
}

// emptyAt empties a JSON document at one depth: mode "null" makes every
// list or object there null, "absent" leaves it out. Depth 0 is the whole
// answer; depth 1 the fields of the answer's object, depth 2 the fields of
// the objects in those (in a list or not), and so on. changed is false when
// the document has nothing at that depth.
func emptyAt(doc []byte, depth int, mode string) (out []byte, changed bool) {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return doc, false
	}
	if depth == 0 {
		if mode == "null" {
			return []byte("null"), true
		}
		return []byte{}, true
	}
	v, changed = emptyFields(v, depth, mode)
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // re-encoding what was decoded
	}
	return b, changed
}

func emptyFields(v any, depth int, mode string) (any, bool) {
	switch x := v.(type) {
	case []any:
		changed := false
		for i := range x {
			var c bool
			x[i], c = emptyFields(x[i], depth, mode)
			changed = changed || c
		}
		return x, changed
	case map[string]any:
		changed := false
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch child := x[k].(type) {
			case []any, map[string]any:
				if depth == 1 {
					if mode == "null" {
						x[k] = nil
					} else {
						delete(x, k)
					}
					changed = true
					continue
				}
				var c bool
				x[k], c = emptyFields(child, depth-1, mode)
				changed = changed || c
			}
		}
		return x, changed
	}
	return v, false
}
