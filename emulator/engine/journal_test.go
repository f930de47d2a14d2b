package engine_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// recordingDestination fails every attempt and keeps a private copy of each
// request it reports, for comparison with what the journal shows.
type recordingDestination struct {
	build func(a *engine.Attempt) *engine.RecordedRequest
	mu    sync.Mutex
	sent  map[string][]engine.RecordedRequest // by first event id
}

func (d *recordingDestination) Deliver(_ context.Context, a *engine.Attempt) engine.Outcome {
	r := d.build(a)
	copyOf := engine.RecordedRequest{Method: r.Method, URL: r.URL, Header: r.Header.Clone(), Body: append([]byte(nil), r.Body...)}
	if r.Body == nil {
		copyOf.Body = nil
	}
	d.mu.Lock()
	d.sent[a.Batch.Items[0].ID] = append(d.sent[a.Batch.Items[0].ID], copyOf)
	d.mu.Unlock()
	return engine.Outcome{Name: "Busy", Status: 503, Message: "HTTP 503", Request: r, Destination: r.URL}
}

// An attempt entry refers to its events' stored bodies and an
// interned header set, yet the journal shows every attempt's request
// exactly as the destination reported it.
func TestJournalShowsEveryAttemptsRequestAsSent(t *testing.T) {
	t.Parallel()
	arrayOf := func(items []*engine.Item) []byte {
		b := []byte{'['}
		for i, it := range items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.AppendBody(b)
		}
		return append(b, ']')
	}
	header := func(a *engine.Attempt) http.Header {
		h := http.Header{}
		h.Set("Content-Type", "application/json")
		h.Set("Aeg-Delivery-Count", strconv.Itoa(a.Number-1))
		h.Add("X-Multi", "a")
		h.Add("X-Multi", "b")
		return h
	}
	tests := map[string]func(a *engine.Attempt) *engine.RecordedRequest{
		"array": func(a *engine.Attempt) *engine.RecordedRequest {
			return &engine.RecordedRequest{Method: "POST", URL: "https://hook/x", Header: header(a), Body: arrayOf(a.Batch.Items)}
		},
		// A destination that says it built the body from the items is
		// taken at its word, without the items rendered again to compare.
		"array, built from the items": func(a *engine.Attempt) *engine.RecordedRequest {
			return &engine.RecordedRequest{Method: "POST", URL: "https://hook/x", Header: header(a), Body: arrayOf(a.Batch.Items), ItemsBody: true}
		},
		"item": func(a *engine.Attempt) *engine.RecordedRequest {
			return &engine.RecordedRequest{Method: "POST", URL: "https://hook/y", Header: header(a), Body: a.Batch.Items[0].Bytes()}
		},
		"own body": func(a *engine.Attempt) *engine.RecordedRequest {
			return &engine.RecordedRequest{Method: "Invoke", URL: "arn:x", Body: []byte(fmt.Sprintf(`{"wrapped":%d}`, a.Number))}
		},
		"no body, no headers": func(a *engine.Attempt) *engine.RecordedRequest {
			return &engine.RecordedRequest{Method: "POST", URL: "not a url"}
		},
		"empty headers": func(a *engine.Attempt) *engine.RecordedRequest {
			return &engine.RecordedRequest{Method: "POST", URL: "u", Header: http.Header{}, Body: []byte("[]")}
		},
	}
	// Items hold their bodies, or render them on demand (Item.Source): the
	// journal shows the same requests and holds the same bytes either way,
	// since it stores a rendered body as a reference too.
	items := func(lazy bool) []*engine.Item {
		var out []*engine.Item
		for id, body := range map[string]string{"e1": `{"id":"e1"}`, "e2": `{"id":"e2"}`, "e3": `{"id":"e3","data":"x"}`} {
			it := &engine.Item{ID: id, Body: []byte(body)}
			if lazy {
				it = &engine.Item{ID: id, Source: renderedBody(body), Size: len(body)}
			}
			out = append(out, it)
		}
		slices.SortFunc(out, func(a, b *engine.Item) int { return strings.Compare(a.ID, b.ID) })
		return out
	}
	for name, build := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var held [2]int64
			for i, lazy := range []bool{false, true} {
				held[i] = journalAttempts(t, build, items(lazy))
			}
			if held[0] != held[1] {
				t.Fatalf("the journal holds %d bytes for items rendered on demand, %d for items holding their bodies", held[1], held[0])
			}
		})
	}
}

// renderedBody is a body rendered on demand, each time afresh.
type renderedBody string

func (r renderedBody) AppendBody(dst []byte) []byte { return append(dst, r...) }

// journalAttempts sends items through a route whose every attempt fails
// (three attempts, two events a batch), checks the journal shows each
// attempt's request as build made it, and returns the journal's bytes.
func journalAttempts(t *testing.T, build func(a *engine.Attempt) *engine.RecordedRequest, items []*engine.Item) int64 {
	t.Helper()
	e, clock := newEngine(t)
	dest := &recordingDestination{build: build, sent: map[string][]engine.RecordedRequest{}}
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Minute, 3}, Destination: dest, MaxBatchEvents: 2})
	_ = e.Enqueue("r", items...)
	clock.Advance(time.Hour)
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	if len(attempts) != 6 {
		t.Fatalf("%d attempts, want 6 (two batches, three attempts each)", len(attempts))
	}
	seen := map[string]int{}
	for _, a := range attempts {
		first := a.EventIDs[0]
		want := dest.sent[first][seen[first]]
		seen[first]++
		if !reflect.DeepEqual(*a.Request, want) {
			t.Fatalf("attempt %d of %v shows\n%+v\nwant\n%+v", a.Attempt, a.EventIDs, *a.Request, want)
		}
	}
	if got := e.Journal().Query(engine.Filter{EventID: "e2", Kind: engine.KindAttempt}); len(got) != 3 {
		t.Fatalf("filter by an event id of a batch: %d attempts, want 3", len(got))
	}
	return e.Journal().Stats().Bytes
}

// The journal is bounded in bytes too: past the bound the oldest entries are
// discarded and counted, whatever the entry count.
func TestJournalIsBoundedInBytes(t *testing.T) {
	t.Parallel()
	j := engine.NewJournalBytes(1_000_000, 64<<10)
	body := make([]byte, 1000)
	for i := 0; i < 1000; i++ {
		j.Append(engine.Entry{Kind: engine.KindDeadLetter, EventIDs: []string{strconv.Itoa(i)}, Body: body})
	}
	st := j.Stats()
	if st.Bytes > st.MaxBytes || st.Held >= 100 || st.Held == 0 {
		t.Fatalf("stats %+v: want at most 64 KiB held", st)
	}
	if st.Discarded != uint64(1000-st.Held) || st.Appended != 1000 || st.Counts[engine.KindDeadLetter] != 1000 {
		t.Fatalf("stats %+v: want every discarded entry counted", st)
	}
	held := j.Query(engine.Filter{})
	if held[len(held)-1].EventIDs[0] != "999" || held[0].Seq != uint64(1000-st.Held+1) {
		t.Fatalf("held %d..%d, want the newest", held[0].Seq, held[len(held)-1].Seq)
	}
}

// Reset starts the counters again; sequence numbers go on
// so a reader's position stays valid.
func TestJournalResetStartsCountersAgain(t *testing.T) {
	t.Parallel()
	j := engine.NewJournalBytes(2, 0)
	for i := 0; i < 5; i++ {
		j.Append(engine.Entry{Kind: engine.KindPublish})
	}
	j.Reset()
	if st := j.Stats(); st.Appended != 0 || st.Discarded != 0 || st.Held != 0 || st.Bytes != 0 || len(st.Counts) != 0 || st.LastSeq != 5 {
		t.Fatalf("after reset: %+v", st)
	}
	if e := j.Append(engine.Entry{Kind: engine.KindPublish}); e.Seq != 6 {
		t.Fatalf("first entry after reset has seq %d, want 6", e.Seq)
	}
}

// AppendAll stores a face's batch of entries in order, with consecutive
// sequence numbers, counted and bounded as if appended one by one, and wakes
// a waiting reader once.
func TestJournalAppendAllKeepsOrderAndBounds(t *testing.T) {
	t.Parallel()
	j := engine.NewJournalBytes(5, 0)
	j.Append(engine.Entry{Kind: engine.KindDrop, EventIDs: []string{"first"}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	woke := make(chan []engine.Entry, 1)
	go func() {
		got, _ := j.Wait(ctx, engine.Filter{Kind: engine.KindPublish}, func(es []engine.Entry) bool { return len(es) > 0 })
		woke <- got
	}()
	var batch []engine.Entry
	for i := range 6 {
		batch = append(batch, engine.Entry{Kind: engine.KindPublish, EventIDs: []string{strconv.Itoa(i)}})
	}
	j.AppendAll(batch)
	j.AppendAll(nil)
	held := j.Query(engine.Filter{})
	var ids []string
	for i, e := range held {
		ids = append(ids, e.EventIDs[0])
		if e.Seq != uint64(i+3) {
			t.Fatalf("entry %d has seq %d, want %d", i, e.Seq, i+3)
		}
	}
	if want := []string{"1", "2", "3", "4", "5"}; !slices.Equal(ids, want) {
		t.Fatalf("held %v, want %v", ids, want)
	}
	if st := j.Stats(); st.Appended != 7 || st.Discarded != 2 || st.Counts[engine.KindPublish] != 6 || st.LastSeq != 7 {
		t.Fatalf("stats %+v", st)
	}
	if got := <-woke; len(got) != 5 {
		t.Fatalf("a waiting reader saw %d publish entries, want 5", len(got))
	}
}

// A full journal turns its storage over chunk by chunk, reusing what it let
// go of: across many turnovers it holds exactly the newest entries, in order.
func TestJournalTurnsOverItsStorage(t *testing.T) {
	t.Parallel()
	const capacity, total = 700, 5000
	j := engine.NewJournalBytes(capacity, 1<<30)
	for i := range total {
		j.Append(engine.Entry{Kind: engine.KindPublish, EventIDs: []string{strconv.Itoa(i)}, Message: strconv.Itoa(i)})
	}
	held := j.Query(engine.Filter{})
	if len(held) != capacity {
		t.Fatalf("held %d entries, want %d", len(held), capacity)
	}
	for k, e := range held {
		want := strconv.Itoa(total - capacity + k)
		if e.EventIDs[0] != want || e.Message != want || e.Seq != uint64(total-capacity+k+1) {
			t.Fatalf("entry %d is %v/%q seq %d, want %s", k, e.EventIDs, e.Message, e.Seq, want)
		}
	}
}

func TestJournalWrapsAndCountsDiscarded(t *testing.T) {
	t.Parallel()
	j := engine.NewJournal(3)
	for i := 0; i < 5; i++ {
		j.Append(engine.Entry{Kind: engine.KindPublish})
	}
	st := j.Stats()
	if st.Held != 3 || st.Discarded != 2 || st.Appended != 5 || st.Counts[engine.KindPublish] != 5 {
		t.Fatalf("stats = %+v", st)
	}
	got := j.Query(engine.Filter{})
	if got[0].Seq != 3 || got[2].Seq != 5 {
		t.Fatalf("held seqs = %d..%d, want 3..5", got[0].Seq, got[2].Seq)
	}
}
