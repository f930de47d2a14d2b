package ui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// fullJournal is a journal at its default capacity: 100,000 entries of
// 25,000 events, each published, tried twice (a 503, then a 200) and
// delivered, with request bodies as Event Grid sends them.
func fullJournal() *engine.Journal {
	j := engine.NewJournal(0)
	labels := map[string]string{"cloud": "eventgrid", "topic": "orders", "subscription": "audit"}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < engine.DefaultJournalCap/4; i++ {
		id := fmt.Sprintf("order-%06d", i)
		body := []byte(fmt.Sprintf(`[{"id":%q,"eventType":"Orders.Placed","subject":"orders/%d","data":{"total":%d}}]`, id, i, i))
		req := &engine.RecordedRequest{Method: "POST", URL: "https://hooks.example/x", Header: http.Header{"Aeg-Event-Type": {"Notification"}}, Body: body}
		next := at.Add(30 * time.Second)
		j.Append(engine.Entry{Time: at, Kind: engine.KindPublish, EventIDs: []string{id}, Labels: map[string]string{"cloud": "eventgrid", "topic": "orders"}})
		j.Append(engine.Entry{Time: at, Kind: engine.KindAttempt, Route: "r", Labels: labels, EventIDs: []string{id}, Attempt: 1, Status: 503, Outcome: "Busy", Request: req, NextAttemptAt: &next})
		j.Append(engine.Entry{Time: next, Kind: engine.KindAttempt, Route: "r", Labels: labels, EventIDs: []string{id}, Attempt: 2, Status: 200, Outcome: "Success", Request: req})
		j.Append(engine.Entry{Time: next, Kind: engine.KindDelivered, Route: "r", Labels: labels, EventIDs: []string{id}})
	}
	return j
}

func benchGet(b *testing.B, h http.Handler, path string) {
	b.Helper()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		b.SetBytes(int64(rec.Body.Len()))
	}
}

// The dashboard's first page of events from a full journal, a search over
// it, and its first page of one kind, beside the baseline of what the
// inspection API's /journal does for the same journal (copy every entry and
// encode it): the dashboard's pages should cost a fraction of it.
func BenchmarkFullJournal(b *testing.B) {
	j := fullJournal()
	h := newRouter(Source{Journal: j})
	b.Run("baseline-journal-query-and-encode", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			entries := j.Query(engine.Filter{})
			views := make([]EntryView, len(entries))
			for k, e := range entries {
				views[k] = viewOf(e)
			}
			out, err := json.Marshal(views)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
		}
	})
	b.Run("events-first-page", func(b *testing.B) { benchGet(b, h, "/_emulator/ui/api/events") })
	b.Run("events-search-type", func(b *testing.B) { benchGet(b, h, "/_emulator/ui/api/events?q=orders/24999") })
	b.Run("attempts-first-page", func(b *testing.B) { benchGet(b, h, "/_emulator/ui/api/entries?kind=attempt") })
}
