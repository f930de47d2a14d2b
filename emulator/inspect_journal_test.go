package emulator

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// journalFixture fills a journal with entries of every shape the journal
// views show: JSON and non-JSON bodies, recorded requests, characters JSON
// would escape for HTML, optional fields set and unset.
func journalFixture(n int) *engine.Journal {
	j := engine.NewJournal(n + 1)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range n {
		next := at.Add(time.Duration(i+10) * time.Second)
		e := engine.Entry{
			Time: at.Add(time.Duration(i) * time.Second), Kind: engine.KindAttempt, Route: fmt.Sprintf("r%d", i%3),
			Labels:   map[string]string{"topic": "orders", "subscription": "s<&>"},
			EventIDs: []string{fmt.Sprintf("e-%d", i)}, Attempt: i%4 + 1, Outcome: "TimedOut",
			Message: "no answer within 30s <b>&</b>", Destination: "https://hook.example/x?a=1&b=2",
			NextAttemptAt: &next,
		}
		switch i % 3 {
		case 0:
			e.Request = &engine.RecordedRequest{
				Method: http.MethodPost, URL: "https://hook.example/x",
				Header: http.Header{"Content-Type": {"application/json"}},
				Body:   []byte(fmt.Sprintf(`[{"id":"e-%d","data":{"html":"<p>%s</p>"}}]`, i, bytes.Repeat([]byte("x"), 200))),
			}
		case 1:
			e.Kind = engine.KindDeadLetter
			e.Body = []byte("not json <&> \x01")
		}
		j.Append(e)
	}
	return j
}

// The streamed page is byte for byte what encoding the whole JournalPage
// gives, for empty, one-entry and many-entry answers.
func TestJournalPageStreamsTheSameJSON(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 7} {
		j := journalFixture(n)
		st := j.Stats()

		want := httptest.NewRecorder()
		httpjson.Write(want, http.StatusOK, wholePage(j.Query(engine.Filter{}), st))
		got := httptest.NewRecorder()
		writeJournalPage(got, j.Select(engine.Filter{}), st.Discarded, st.LastSeq)

		if got.Code != want.Code || got.Header().Get("Content-Type") != want.Header().Get("Content-Type") {
			t.Fatalf("n=%d: status %d %q, want %d %q", n, got.Code, got.Header().Get("Content-Type"), want.Code, want.Header().Get("Content-Type"))
		}
		if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
			t.Fatalf("n=%d: streamed page differs\n got: %s\nwant: %s", n, got.Body.Bytes(), want.Body.Bytes())
		}
	}
}

// wholePage is how the journal views answered before they streamed: the
// whole page built, then encoded.
func wholePage(entries []engine.Entry, st engine.Stats) JournalPage {
	page := JournalPage{Entries: make([]EntryView, len(entries)), Discarded: st.Discarded, LastSeq: st.LastSeq}
	for i, e := range entries {
		page.Entries[i] = viewOf(e)
	}
	return page
}

// peakWriter is a ResponseWriter that keeps nothing and samples the live
// heap (after a collection) as the answer is written, so the benchmark sees how much of the
// answer is held at once, not the copy a recorder would make.
type peakWriter struct {
	h      http.Header
	writes int
	peak   uint64
}

func (w *peakWriter) Header() http.Header { return w.h }
func (w *peakWriter) WriteHeader(int)     {}
func (w *peakWriter) Write(p []byte) (int, error) {
	if w.writes%2048 == 0 {
		runtime.GC() // what is live, not what awaits collection
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		w.peak = max(w.peak, m.HeapAlloc)
	}
	w.writes++
	return len(p), nil
}

// BenchmarkJournalRead compares reads of a 20,000-entry journal (about 6 MB
// of JSON) streamed entry by entry against building the whole page first
// (the baseline, as before). B/op is everything allocated; peak-live-B is
// how far the live heap rose above the journal itself while answering.
func BenchmarkJournalRead(b *testing.B) {
	j := journalFixture(20000)
	st := j.Stats()
	read := map[string]func(w http.ResponseWriter){
		"whole-page": func(w http.ResponseWriter) {
			httpjson.Write(w, http.StatusOK, wholePage(j.Query(engine.Filter{}), st))
		},
		"streamed": func(w http.ResponseWriter) {
			writeJournalPage(w, j.Select(engine.Filter{}), st.Discarded, st.LastSeq)
		},
	}
	for _, name := range []string{"whole-page", "streamed"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				b.StartTimer()
				w := &peakWriter{h: http.Header{}}
				read[name](w)
				if w.peak > m.HeapAlloc {
					peak = max(peak, w.peak-m.HeapAlloc)
				}
			}
			b.ReportMetric(float64(peak), "peak-live-B")
		})
	}
}
