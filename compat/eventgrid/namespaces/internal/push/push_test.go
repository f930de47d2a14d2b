package push

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

var start = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

type givenUp struct {
	reason string
	at     time.Time
	result string
	count  int
}

// run delivers one event through the engine to handler and reports every
// attempt's time (from start) and how delivery ended.
func run(t *testing.T, policy Policy, handler http.HandlerFunc, advance time.Duration) ([]time.Duration, *givenUp) {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	clock := engine.NewVirtualClock(start, 5*time.Second)
	journal := engine.NewJournal(0)
	eng := engine.New(clock, journal)
	var mu sync.Mutex
	var end *givenUp
	eng.PutRoute(&engine.Route{
		ID: "r", Destination: &Webhook{Client: srv.Client(), URL: srv.URL},
		Retry: policy, ResponseTimeout: 30 * time.Second, NameFault: OutcomeForStatus,
		DeadLetter: &engine.DeadLetterPolicy{Build: func(b *engine.Batch, reason string, now time.Time) ([]engine.DeadLetter, error) {
			mu.Lock()
			end = &givenUp{reason: reason, at: now, result: b.LastOutcome.Name, count: b.Attempts}
			mu.Unlock()
			return nil, nil
		}},
	})
	ev := &cloudevent.Event{ID: "e1", JSON: []byte(`{"specversion":"1.0","id":"e1","source":"s","type":"t"}`)}
	if err := eng.Enqueue("r", NewItem(ev, start)); err != nil {
		t.Fatal(err)
	}
	clock.Advance(advance)
	var times []time.Duration
	for _, e := range journal.Query(engine.Filter{Kind: engine.KindAttempt}) {
		times = append(times, e.Time.Sub(start))
	}
	mu.Lock()
	defer mu.Unlock()
	return times, end
}

func TestRetriesFollowTheDocumentedScheduleUntilTheTimeToLive(t *testing.T) {
	t.Parallel()
	// The docs' worked example: TTL 20 min, 10 attempts allowed.
	times, end := run(t, Policy{MaxDeliveryCount: 10, TimeToLive: 20 * time.Minute},
		func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }, time.Hour)
	want := []time.Duration{0, 10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 20 * time.Minute}
	if fmt.Sprint(times) != fmt.Sprint(want) {
		t.Fatalf("attempts at %v, want %v", times, want)
	}
	if end == nil || end.reason != deadletter.ReasonTimeToLive || end.at.Sub(start) != 20*time.Minute || end.result != OutcomeBusy {
		t.Fatalf("ended %+v", end)
	}
}

func TestMaxDeliveryCountEndsDelivery(t *testing.T) {
	t.Parallel()
	times, end := run(t, Policy{MaxDeliveryCount: 3, TimeToLive: 24 * time.Hour},
		func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) }, time.Hour)
	if len(times) != 3 || end == nil || end.reason != deadletter.ReasonMaxDeliveryAttempts || end.count != 3 || end.at.Sub(start) != 30*time.Second {
		t.Fatalf("attempts %v, ended %+v", times, end)
	}
}

func TestClientErrorsDeadLetterAtOnce(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 401, 403, 404, 413, 414} {
		times, end := run(t, Policy{MaxDeliveryCount: 10, TimeToLive: time.Hour},
			func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }, time.Hour)
		if len(times) != 1 || end == nil || end.reason != deadletter.ReasonClientError || end.result != OutcomeForStatus(status) {
			t.Errorf("%d: attempts %v, ended %+v", status, times, end)
		}
	}
}

func TestDeliveryPostsTheCloudEventWithDeliveryAttributes(t *testing.T) {
	t.Parallel()
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got.Store(fmt.Sprintf("%s|%s|%s|%s|%s", r.Header.Get("Content-Type"), r.Header.Get("Custom-Header-1"),
			r.Header.Get("X-Order"), r.Header.Get("X-Missing"), body))
	}))
	defer srv.Close()
	evJSON := `{"specversion":"1.0","id":"e1","source":"s","type":"t","data":{"order":42}}`
	evs, err := cloudevent.ParseStructured([]byte(evJSON))
	if err != nil {
		t.Fatal(err)
	}
	w := &Webhook{Client: srv.Client(), URL: srv.URL, Attributes: []Attribute{
		{Name: "Custom-Header-1", Static: true, Value: "value1"},
		{Name: "X-Order", SourceField: "data.order"},
		{Name: "X-Missing", SourceField: "data.nothing"},
	}}
	o := w.Deliver(t.Context(), &engine.Attempt{Batch: &engine.Batch{Items: []*engine.Item{NewItem(evs, start)}}})
	if !o.OK || o.Status != 200 || o.Name != OutcomeSuccess {
		t.Fatalf("outcome %+v", o)
	}
	want := "application/cloudevents+json; charset=utf-8|value1|42||" + evJSON
	if got.Load() != want {
		t.Fatalf("request %v\nwant    %s", got.Load(), want)
	}
	props := CustomDeliveryProperties(append(w.Attributes, Attribute{Name: "Secret", Static: true, Value: "s", Secret: true}), evs)
	if fmt.Sprint(props) != "map[Custom-Header-1:value1 X-Order:42]" {
		t.Fatalf("custom delivery properties %v", props)
	}
}

func TestUnreachableEndpointIsASocketError(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	w := &Webhook{URL: url}
	ev := &cloudevent.Event{ID: "e1", JSON: []byte(`{}`)}
	o := w.Deliver(t.Context(), &engine.Attempt{Batch: &engine.Batch{Items: []*engine.Item{NewItem(ev, start)}}})
	if o.OK || o.Name != OutcomeSocketError {
		t.Fatalf("outcome %+v", o)
	}
}

// The journal's record of a push delivery shows the URL's query and secret
// static attributes redacted; the endpoint gets them, and an error text
// quoting the URL is redacted too.
func TestRecordedDeliveryRedactsSecrets(t *testing.T) {
	t.Parallel()
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.URL.RawQuery + "|" + r.Header.Get("X-Secret"))
	}))
	defer srv.Close()
	ev := &cloudevent.Event{ID: "e1", JSON: []byte(`{}`)}
	attrs := []Attribute{{Name: "X-Secret", Static: true, Value: "HIDDEN-STATIC", Secret: true}, {Name: "X-Plain", Static: true, Value: "p"}}
	w := &Webhook{Client: srv.Client(), URL: srv.URL + "/hook?code=HIDDEN-CODE", Attributes: attrs}
	o := w.Deliver(t.Context(), &engine.Attempt{Batch: &engine.Batch{Items: []*engine.Item{NewItem(ev, start)}}})
	if got.Load() != "code=HIDDEN-CODE|HIDDEN-STATIC" {
		t.Fatalf("the endpoint got %v", got.Load())
	}
	if !o.OK || o.Request.Header.Get("X-Secret") != "<redacted>" || o.Request.Header.Get("X-Plain") != "p" ||
		o.Request.URL != srv.URL+"/hook?code=<redacted>" || strings.Contains(o.Destination, "HIDDEN") {
		t.Fatalf("recorded %+v, destination %s", o.Request, o.Destination)
	}

	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL + "/hook?code=HIDDEN-CODE"
	down.Close()
	o = (&Webhook{URL: downURL, Attributes: attrs}).Deliver(t.Context(), &engine.Attempt{Batch: &engine.Batch{Items: []*engine.Item{NewItem(ev, start)}}})
	if o.Name != OutcomeSocketError || strings.Contains(o.Message, "HIDDEN") || !strings.Contains(o.Message, "code=<redacted>") {
		t.Fatalf("message %q", o.Message)
	}
	o = (&Webhook{URL: downURL, Attributes: attrs, RecordSecrets: true}).Deliver(t.Context(), &engine.Attempt{Batch: &engine.Batch{Items: []*engine.Item{NewItem(ev, start)}}})
	if !strings.Contains(o.Message, "HIDDEN-CODE") {
		t.Fatalf("with RecordSecrets the message is %q", o.Message)
	}
}

// A dynamic value that cannot be sent as a header fails the attempt as a
// BadRequest naming the mapping, and is dead-lettered at once.
func TestUnsendableHeaderValueDeadLettersAtOnce(t *testing.T) {
	t.Parallel()
	ev, err := cloudevent.ParseStructured([]byte(`{"specversion":"1.0","id":"e1","source":"s","type":"t","data":{"note":"a\r\nInjected: 1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var called atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { called.Store(true) }))
	defer srv.Close()
	w := &Webhook{Client: srv.Client(), URL: srv.URL, Attributes: []Attribute{{Name: "X-Note", SourceField: "data.note"}}}
	b := &engine.Batch{Items: []*engine.Item{NewItem(ev, start)}, Attempts: 1}
	o := w.Deliver(t.Context(), &engine.Attempt{Batch: b})
	if o.Name != OutcomeBadRequest || !strings.Contains(o.Message, `"X-Note"`) || !strings.Contains(o.Message, "data.note") || called.Load() {
		t.Fatalf("outcome %+v, endpoint called %v", o, called.Load())
	}
	if d := (Policy{MaxDeliveryCount: 10, TimeToLive: time.Hour}).AfterFailure(b, o, start); d.Action != engine.GiveUpDeadLetter {
		t.Fatalf("decision %+v, want a dead letter at once", d)
	}
}
