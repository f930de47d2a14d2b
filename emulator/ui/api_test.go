package ui

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func newRouter(src Source) *mux.Router {
	r := mux.NewRouter()
	Register(r.PathPrefix("/_emulator").Subrouter(), src)
	return r
}

func get(t *testing.T, h http.Handler, path string, out any) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	if out != nil && rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			t.Fatalf("GET %s: %v: %s", path, err, rec.Body)
		}
	}
	return rec
}

// journalOfFourEvents holds one event of each ending, the way the faces
// journal them.
func journalOfFourEvents() *engine.Journal {
	j := engine.NewJournal(0)
	eg := map[string]string{"cloud": "eventgrid", "topic": "orders", "subscription": "audit"}
	eb := map[string]string{"cloud": "eventbridge", "bus": "default", "rule": "r1", "target": "t1"}
	next := t0.Add(30 * time.Second)
	egBody := []byte(`[{"id":"other","eventType":"X"},{"id":"e-ok","eventType":"Orders.Placed","subject":"orders/1"}]`)
	for _, e := range []engine.Entry{
		{Kind: engine.KindPublish, EventIDs: []string{"e-ok"}, Labels: map[string]string{"cloud": "eventgrid", "topic": "orders"}},
		{Kind: engine.KindAttempt, EventIDs: []string{"e-ok"}, Route: "eg:audit", Labels: eg, Attempt: 1, Status: 503, Outcome: "Busy", NextAttemptAt: &next, Request: &engine.RecordedRequest{Body: egBody}},
		{Kind: engine.KindAttempt, EventIDs: []string{"e-ok"}, Route: "eg:audit", Labels: eg, Attempt: 2, Status: 200, Outcome: "Success", Request: &engine.RecordedRequest{Body: egBody}},
		{Kind: engine.KindDelivered, EventIDs: []string{"e-ok"}, Route: "eg:audit", Labels: eg},
		{Kind: engine.KindPublish, EventIDs: []string{"e-dl"}, Labels: map[string]string{"cloud": "eventbridge", "bus": "default"}, Body: []byte(`{"id":"e-dl","detail-type":"Invoice Paid","source":"billing"}`)},
		{Kind: engine.KindDeadLetter, EventIDs: []string{"e-dl"}, Route: "eb:t1", Labels: eb, Outcome: "MaxRetries", Destination: "arn:aws:sqs:us-east-1:000000000000:dlq", Body: []byte(`{"x":1}`)},
		{Kind: engine.KindPublish, EventIDs: []string{"e-drop"}, Labels: map[string]string{"cloud": "eventbridge", "bus": "default"}},
		{Kind: engine.KindDrop, EventIDs: []string{"e-drop"}, Route: "eb:t1", Labels: eb, Outcome: "RouteDeleted", Message: "rule deleted"},
		{Kind: engine.KindPublish, EventIDs: []string{"e-none"}, Labels: map[string]string{"cloud": "eventgrid", "topic": "orders"}},
	} {
		e.Time = t0
		j.Append(e)
	}
	return j
}

func TestEventsFoldTheJournalNewestFirst(t *testing.T) {
	t.Parallel()
	h := newRouter(Source{Journal: journalOfFourEvents()})
	var page EventsPage
	get(t, h, "/_emulator/ui/api/events", &page)
	got := map[string]EventSummary{}
	var order []string
	for _, e := range page.Events {
		got[e.ID] = e
		order = append(order, e.ID)
	}
	if strings.Join(order, ",") != "e-none,e-drop,e-dl,e-ok" || page.Total != 4 || page.LastSeq != 9 {
		t.Fatalf("order %v total %d lastSeq %d", order, page.Total, page.LastSeq)
	}
	ok := got["e-ok"]
	if ok.Outcome != "delivered" || ok.Attempts != 2 || ok.Type != "Orders.Placed" || ok.Source != "orders/1" || ok.Cloud != "eventgrid" ||
		len(ok.Routes) != 1 || ok.Routes[0].Name != "orders/audit" {
		t.Errorf("e-ok: %+v", ok)
	}
	if dl := got["e-dl"]; dl.Outcome != "dead-lettered" || dl.Type != "Invoice Paid" || dl.Source != "billing" || dl.Routes[0].Name != "default/r1/t1" {
		t.Errorf("e-dl: %+v", dl)
	}
	if got["e-drop"].Outcome != "dropped" || got["e-none"].Outcome != "unmatched" {
		t.Errorf("e-drop %+v, e-none %+v", got["e-drop"], got["e-none"])
	}

	for query, want := range map[string]string{
		"q=invoice":                "e-dl", // detail-type, case-insensitive
		"q=ORDERS/AUDIT":           "e-ok", // route
		"outcome=dropped":          "e-drop",
		"q=orders&outcome=unknown": "",
		"offset=1&limit=2":         "e-drop,e-dl",
		"offset=9":                 "",
	} {
		var p EventsPage
		get(t, h, "/_emulator/ui/api/events?"+query, &p)
		var ids []string
		for _, e := range p.Events {
			ids = append(ids, e.ID)
		}
		if strings.Join(ids, ",") != want {
			t.Errorf("?%s: %v, want %s", query, ids, want)
		}
	}
	for _, bad := range []string{"limit=0", "limit=1001", "offset=-1", "offset=x"} {
		rec := get(t, h, "/_emulator/ui/api/events?"+bad, nil)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"error"`) {
			t.Errorf("?%s: %d %s, want 400 with an error", bad, rec.Code, rec.Body)
		}
	}
}

// An event no route took (published to a topic without subscriptions) is
// listed with an empty list of routes: the page maps over it.
func TestAnUnmatchedEventHasAnEmptyListOfRoutes(t *testing.T) {
	t.Parallel()
	h := newRouter(Source{Journal: journalOfFourEvents()})
	rec := get(t, h, "/_emulator/ui/api/events?q=e-none", nil)
	var raw struct {
		Events []map[string]json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil || len(raw.Events) != 1 {
		t.Fatalf("GET events?q=e-none: %v %s", err, rec.Body)
	}
	if got := string(raw.Events[0]["routes"]); got != "[]" {
		t.Fatalf("routes of an unmatched event = %s, want []", got)
	}
}

func TestEntriesPageOneKindWithRecords(t *testing.T) {
	t.Parallel()
	h := newRouter(Source{Journal: journalOfFourEvents()})
	var p EntriesPage
	get(t, h, "/_emulator/ui/api/entries?kind=deadletter", &p)
	if p.Total != 1 || p.Entries[0].Destination != "arn:aws:sqs:us-east-1:000000000000:dlq" || string(p.Entries[0].Body) != `{"x":1}` {
		t.Fatalf("dead letters: %+v", p)
	}
	get(t, h, "/_emulator/ui/api/entries?kind=drop&q=rule+deleted", &p)
	if p.Total != 1 || p.Entries[0].Outcome != "RouteDeleted" {
		t.Fatalf("drops matching the message: %+v", p)
	}
	get(t, h, "/_emulator/ui/api/entries?kind=drop&q=nothing", &p)
	if p.Total != 0 || p.Entries == nil {
		t.Fatalf("no match must be an empty list: %+v", p)
	}
}

func TestTimersListTheVirtualClocksQueue(t *testing.T) {
	t.Parallel()
	clock := engine.NewVirtualClock(t0, 0)
	for _, d := range []time.Duration{time.Hour, 10 * time.Second, time.Minute} {
		clock.AfterFunc(d, func() {})
	}
	h := newRouter(Source{Journal: engine.NewJournal(0), Virtual: clock})
	var got struct {
		Mode    string      `json:"mode"`
		Pending int         `json:"pending"`
		Timers  []time.Time `json:"timers"`
	}
	get(t, h, "/_emulator/ui/api/timers?limit=2", &got)
	if got.Mode != "virtual" || got.Pending != 3 || len(got.Timers) != 2 ||
		!got.Timers[0].Equal(t0.Add(10*time.Second)) || !got.Timers[1].Equal(t0.Add(time.Minute)) {
		t.Fatalf("timers: %+v", got)
	}
	get(t, newRouter(Source{Journal: engine.NewJournal(0)}), "/_emulator/ui/api/timers", &got)
	if got.Mode != "real" || len(got.Timers) != 0 {
		t.Fatalf("a real clock's timers: %+v", got)
	}
}

// The change feed answers at once when the journal is past ?after=, and
// otherwise as soon as it grows: no polling, no sleep.
func TestChangesWakeOnAppend(t *testing.T) {
	t.Parallel()
	j := journalOfFourEvents()
	h := newRouter(Source{Journal: j})
	var got struct {
		LastSeq uint64 `json:"lastSeq"`
	}
	get(t, h, "/_emulator/ui/api/changes?after=3", &got)
	if got.LastSeq != 9 {
		t.Fatalf("lastSeq %d, want 9 at once", got.LastSeq)
	}
	done := make(chan uint64)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/_emulator/ui/api/changes?after=9&wait=1m", nil))
		var v struct {
			LastSeq uint64 `json:"lastSeq"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &v)
		done <- v.LastSeq
	}()
	j.Append(engine.Entry{Kind: engine.KindPublish, EventIDs: []string{"late"}})
	if seq := <-done; seq != 10 {
		t.Fatalf("the long poll answered lastSeq %d, want 10", seq)
	}
	get(t, h, "/_emulator/ui/api/changes?after=10&wait=0s", &got)
	if got.LastSeq != 10 {
		t.Fatalf("a wait of 0 answers with the current sequence: %d", got.LastSeq)
	}
	for _, bad := range []string{"", "?after=x", "?after=1&wait=1h"} {
		if rec := get(t, h, "/_emulator/ui/api/changes"+bad, nil); rec.Code != http.StatusBadRequest {
			t.Errorf("changes%s: %d, want 400", bad, rec.Code)
		}
	}
}

// The page and its assets come with a strict policy and hold no inline code
// for it to block.
func TestAssetsAreServedWithAStrictPolicy(t *testing.T) {
	t.Parallel()
	h := newRouter(Source{Journal: engine.NewJournal(0)})
	rec := get(t, h, "/_emulator/ui", nil)
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "/_emulator/ui/" {
		t.Fatalf("/ui: %d → %q", rec.Code, rec.Header().Get("Location"))
	}
	for path, ctype := range map[string]string{
		"/_emulator/ui/":             "text/html",
		"/_emulator/ui/index.html":   "text/html",
		"/_emulator/ui/app.js":       "javascript",
		"/_emulator/ui/style.css":    "text/css",
		"/_emulator/ui/no/such/page": "text/html", // the single page routes itself
	} {
		rec := get(t, h, path, nil)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Content-Type"), ctype) {
			t.Errorf("%s: %d %q, want 200 %s", path, rec.Code, rec.Header().Get("Content-Type"), ctype)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'self'") || strings.Contains(csp, "unsafe") {
			t.Errorf("%s: Content-Security-Policy %q", path, csp)
		}
	}
	if rec := get(t, h, "/_emulator/ui/api/nothing", nil); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"error"`) {
		t.Errorf("an unknown endpoint: %d %s", rec.Code, rec.Body)
	}
	index, _ := assets.ReadFile("assets/index.html")
	inline := regexp.MustCompile(`<script(?:\s+type="module")?>|<style|\sstyle=|\son[a-z]+=`)
	if m := inline.Find(index); m != nil {
		t.Errorf("index.html has inline code %q, which the policy blocks", m)
	}
	app, _ := assets.ReadFile("assets/app.js")
	if regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|eval\(|new Function`).Match(app) {
		t.Error("app.js builds markup from strings; event data could inject it")
	}
}

// A pipe's messages fold into one route each: delivered, or filtered when
// its filter dropped them.
func TestPipeMessagesAreDeliveredOrFiltered(t *testing.T) {
	t.Parallel()
	j := engine.NewJournal(0)
	pipe := func(step string) map[string]string {
		return map[string]string{"cloud": "pipes", "pipe": "orders", "step": step}
	}
	for _, e := range []engine.Entry{
		{Kind: engine.KindPoll, EventIDs: []string{"m1", "m2"}, Route: "pipes/orders", Labels: pipe("source"), Outcome: "Received"},
		{Kind: engine.KindFilter, EventIDs: []string{"m2"}, Route: "pipes/orders", Labels: pipe("filter"), Outcome: "FilteredOut"},
		{Kind: engine.KindFilter, EventIDs: []string{"m1"}, Route: "pipes/orders", Labels: pipe("filter"), Outcome: "Matched"},
		{Kind: engine.KindAttempt, EventIDs: []string{"m1"}, Route: "pipes/orders", Labels: pipe("target"), Attempt: 1, Outcome: "Success"},
		{Kind: engine.KindDelivered, EventIDs: []string{"m1"}, Route: "pipes/orders", Labels: pipe("target")},
	} {
		e.Time = t0
		j.Append(e)
	}
	var page EventsPage
	get(t, newRouter(Source{Journal: j}), "/_emulator/ui/api/events", &page)
	got := map[string]string{}
	for _, e := range page.Events {
		if len(e.Routes) != 1 || e.Routes[0].Name != "orders" || e.Cloud != "pipes" {
			t.Fatalf("event %s: %+v", e.ID, e)
		}
		got[e.ID] = e.Outcome
	}
	if got["m1"] != "delivered" || got["m2"] != "filtered" {
		t.Fatalf("outcomes %v", got)
	}
}
