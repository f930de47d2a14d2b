package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/testkit"
)

// Benchmarks of GridBridge's Event Grid face, each beside a bare Go
// net/http loopback client/server pair measured in the same run, so the
// ratio holds on a noisy machine. Run them with
//
//	go test ./e2e -run '^$' -bench EventGrid -benchtime 20000x

// benchWebhook is the smallest webhook an Event Grid subscription can
// have: it answers the validation handshake and counts the events it gets.
type benchWebhook struct {
	srv    *httptest.Server
	events atomic.Int64
	got    chan time.Time // one send per delivery when non-nil
	// done, when non-nil, is closed once want events arrived.
	done chan struct{}
	want int64
}

func newBenchWebhook(tb testing.TB, signal bool) *benchWebhook {
	h := &benchWebhook{}
	if signal {
		h.got = make(chan time.Time, 1)
	}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	tb.Cleanup(h.srv.Close)
	return h
}

// reportThroughput reports the emulator's and the bare net/http loop's
// events per second for the same total, and their ratio.
func reportThroughput(b *testing.B, total int64, emuElapsed, bareElapsed time.Duration) {
	emuRate := float64(total) / emuElapsed.Seconds()
	bareRate := float64(total) / bareElapsed.Seconds()
	b.ReportMetric(emuRate, "events/s")
	b.ReportMetric(bareRate, "bare-events/s")
	b.ReportMetric(emuRate/bareRate, "ratio")
}

// answeredValidation answers Event Grid's subscription validation
// handshake when the request with body is one, so that a bare
// benchmark webhook can be subscribed; false for anything else.
func answeredValidation(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if r.Header.Get("aeg-event-type") != "SubscriptionValidation" {
		return false
	}
	var v []struct {
		Data struct{ ValidationCode string } `json:"data"`
	}
	_ = json.Unmarshal(body, &v)
	_ = json.NewEncoder(w).Encode(map[string]string{"validationResponse": v[0].Data.ValidationCode})
	return true
}

func (h *benchWebhook) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	body, _ := io.ReadAll(r.Body)
	if answeredValidation(w, r, body) {
		return
	}
	n := int64(bytes.Count(body, []byte(`"eventType"`)))
	w.WriteHeader(http.StatusOK)
	if total := h.events.Add(n); h.done != nil && total >= h.want && total-n < h.want {
		close(h.done)
	}
	if h.got != nil {
		h.got <- at
	}
}

// benchTopic is a topic with one webhook subscription, published to with
// raw HTTP on the emulator's plain listener (the key works there too).
type benchTopic struct {
	client *http.Client
	url    string
	key    string
}

func newBenchTopic(tb testing.TB, emu *testkit.Emulator, hookURL string, maxEvents int32) benchTopic {
	tb.Helper()
	emu.CreateTopic("bench", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	dest := testkit.WebHookDestination(hookURL)
	dest.Properties.MaxEventsPerBatch = to.Ptr(maxEvents)
	emu.CreateEventSubscription("bench", "sink", armeventgrid.EventSubscriptionProperties{Destination: dest})
	keys, err := emu.ARM().NewTopicsClient().ListSharedAccessKeys(context.Background(), testkit.ResourceGroup, "bench", nil)
	if err != nil {
		tb.Fatal(err)
	}
	return benchTopic{client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}},
		url: emu.URL() + "/topics/bench/api/events?api-version=2018-01-01", key: *keys.Key1}
}

func (p benchTopic) publish(tb testing.TB, body []byte) {
	req, _ := http.NewRequest(http.MethodPost, p.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("aeg-sas-key", p.key)
	resp, err := p.client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("publish: %s", resp.Status)
	}
}

// benchEvents is a publish body of n Event Grid events, ids starting at
// first, each about 200 bytes.
func benchEvents(first, n int) []byte {
	return jsonArray(n, func(b *bytes.Buffer, i int) {
		fmt.Fprintf(b, `{"id":"ev-%d","eventType":"Orders.Placed","subject":"orders/%d","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1.0","data":{"orderId":%d,"total":42.5,"currency":"EUR"}}`,
			first+i, first+i, first+i)
	})
}

// jsonArray is a JSON array of n elements, element i written by write.
func jsonArray(n int, write func(b *bytes.Buffer, i int)) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		write(&b, i)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// bareLoopback is the baseline: a Go net/http server and client on
// loopback with nothing between them.
func bareLoopback(tb testing.TB, handler http.HandlerFunc) (*http.Client, string) {
	srv := httptest.NewServer(handler)
	tb.Cleanup(srv.Close)
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}, srv.URL
}

func post(tb testing.TB, c *http.Client, url string, body []byte) {
	resp, err := c.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*p)]
}

// Publish→webhook delivery latency (p50, p99) against one bare round trip
// (a POST and its answer) of the same size; the samples alternate so both
// see the same machine. Target: p50 ratio ≤ 2.
func BenchmarkEventGridPublishToWebhookLatency(b *testing.B) {
	emu := testkit.Start(b, testkit.WithRealClock())
	hook := newBenchWebhook(b, true)
	topic := newBenchTopic(b, emu, hook.srv.URL, 1)
	bareClient, bareURL := bareLoopback(b, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusOK)
	})
	body := benchEvents(0, 1)
	for range 50 { // warm connections and code paths
		topic.publish(b, body)
		<-hook.got
		post(b, bareClient, bareURL, body)
	}

	published := make([]time.Duration, 0, b.N)
	bare := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		topic.publish(b, benchEvents(i, 1))
		published = append(published, (<-hook.got).Sub(start))

		start = time.Now()
		post(b, bareClient, bareURL, body)
		bare = append(bare, time.Since(start))
	}
	b.StopTimer()
	p50, bare50 := percentile(published, 0.5), percentile(bare, 0.5)
	b.ReportMetric(float64(p50.Microseconds()), "p50-publish→delivery-µs")
	b.ReportMetric(float64(percentile(published, 0.99).Microseconds()), "p99-publish→delivery-µs")
	b.ReportMetric(float64(bare50.Microseconds()), "p50-bare-roundtrip-µs")
	b.ReportMetric(float64(p50)/float64(bare50), "p50-ratio")
}

// One subscription with maxEventsPerBatch 100, fed 1,000-event publish
// requests, against a bare client posting the same 100-event batches to a
// bare server. Target: ≥ 100,000 events/s on 2 cores.
func BenchmarkEventGridThroughputBatch100(b *testing.B) {
	emu := testkit.Start(b, testkit.WithRealClock(), testkit.WithJournalLimits(10_000, 0))
	hook := newBenchWebhook(b, false)
	measureBatch100Throughput(b, hook, newBenchTopic(b, emu, hook.srv.URL, 100), benchEvents)
}

// measureBatch100Throughput publishes 1,000-event requests built by events
// to target, whose one subscription (maxEventsPerBatch 100) delivers to
// hook, then posts the same events in 100-event batches from a bare client
// to a bare server, and reports both rates and their ratio.
func measureBatch100Throughput(b *testing.B, hook *benchWebhook, target benchTopic, events func(first, n int) []byte) {
	const perRequest = 1000
	requests := max(1, b.N/perRequest)
	bodies := make([][]byte, requests)
	for i := range bodies {
		bodies[i] = events(i*perRequest, perRequest)
	}
	total := int64(requests * perRequest)

	b.ResetTimer()
	start := time.Now()
	for _, body := range bodies {
		target.publish(b, body)
	}
	for hook.events.Load() < total {
		runtime.Gosched()
	}
	emuElapsed := time.Since(start)

	var bareEvents atomic.Int64
	bareClient, bareURL := bareLoopback(b, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		bareEvents.Add(int64(bytes.Count(body, []byte(`"eventType"`))))
		w.WriteHeader(http.StatusOK)
	})
	batch := events(0, 100)
	start = time.Now()
	for range total / 100 {
		post(b, bareClient, bareURL, batch)
	}
	bareElapsed := time.Since(start)
	b.StopTimer()
	reportThroughput(b, total, emuElapsed, bareElapsed)
}

// Memory held per pending event, beyond its payload: 50,000 events queued
// to a subscription held on probation (its endpoint answered 404 once),
// heap measured after GC. The bare baseline is the payload itself.
// Target: ≤ 1 KiB per event beyond it. "queue" bounds the journal to 1,000
// entries, so it measures what the queue holds per event; "with-journal"
// keeps the default journal (100,000 entries, grown by doubling), whose
// publish entries add their share until it is full.
func BenchmarkEventGridMemoryPerPendingEvent(b *testing.B) {
	for _, tc := range []struct {
		name       string
		journalCap int
	}{{"queue", 1000}, {"with-journal", 0}} {
		b.Run(tc.name, func(b *testing.B) {
			// One fill of 50,000 events is the measurement, whatever
			// -benchtime asks for.
			perEvent, payload := pendingEventMemory(b, tc.journalCap)
			for b.Loop() {
			}
			b.ReportMetric(perEvent, "heap-B/event")
			b.ReportMetric(payload, "payload-B/event")
			b.ReportMetric(perEvent-payload, "overhead-B/event")
		})
	}
}

func pendingEventMemory(b *testing.B, journalCap int) (perEvent, payload float64) {
	const events, perRequest = 50_000, 1000
	emu := testkit.Start(b, testkit.WithProbation(), testkit.WithJournalLimits(journalCap, 0))
	var answered atomic.Bool
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if answeredValidation(w, r, body) {
			return
		}
		if !answered.Swap(true) { // the 404 that starts 5 minutes of probation (EG-18)
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer hook.Close()
	topic := newBenchTopic(b, emu, hook.URL, 1)
	topic.publish(b, benchEvents(-1, 1))
	emu.Settle()
	if m := emu.RouteMetrics(testkit.Filter{Subscription: "sink"}); m.State != "Probation" {
		b.Fatalf("route state %q, want Probation", m.State)
	}

	bodies := make([][]byte, events/perRequest)
	size := 0
	for i := range bodies {
		bodies[i] = benchEvents(i*perRequest, perRequest)
		size += len(bodies[i]) - 2 - (perRequest - 1) // without brackets and commas
	}
	before := heapAfterGC()
	for _, body := range bodies {
		topic.publish(b, body)
	}
	emu.Settle()
	after := heapAfterGC()
	if m := emu.RouteMetrics(testkit.Filter{Subscription: "sink"}); m.Pending != events {
		b.Fatalf("%d pending, want %d", m.Pending, events)
	}
	runtime.KeepAlive(bodies)
	return float64(int64(after)-int64(before)) / events, float64(size) / events
}

// 24 cloud hours of retries for 10,000 always-failing events (a fault
// rule fails every attempt without HTTP) on the virtual clock, through the
// whole emulator: 11 attempts each, the 12th due after the 24-hour TTL.
// Target: < 1 s of wall time per day.
func BenchmarkEventGridDayOfRetriesOnVirtualClock(b *testing.B) {
	const events, perRequest = 10_000, 1000
	// One day is the measurement, whatever -benchtime asks for.
	emu := testkit.Start(b)
	hook := newBenchWebhook(b, false)
	topic := newBenchTopic(b, emu, hook.srv.URL, 1)
	emu.FailDeliveries(testkit.Filter{Subscription: "sink"}, 500, 0)
	for i := 0; i < events; i += perRequest {
		topic.publish(b, benchEvents(i, perRequest))
	}
	start := time.Now()
	emu.Advance(25 * time.Hour)
	wall := time.Since(start)
	if m := emu.RouteMetrics(testkit.Filter{Subscription: "sink"}); m.Attempts != events*11 {
		b.Fatalf("%d attempts, want %d", m.Attempts, events*11)
	}
	for b.Loop() {
	}
	b.ReportMetric(wall.Seconds(), "wall-s/cloud-day")
	b.ReportMetric(events*11, "attempts")
}

func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Event Grid's default batch size, 1 (maxEventsPerBatch 1): one subscription
// fed 1,000-event publish requests delivers one event per POST, against a
// bare net/http client posting the same one-event bodies from as many
// goroutines as the engine keeps in flight per route (16), in the same run.
// Target: ratio ≥ 0.5.
func BenchmarkEventGridThroughputBatch1(b *testing.B) {
	const perRequest, inFlight = 1000, 16
	requests := max(1, b.N/perRequest)
	total := int64(requests * perRequest)
	bodies := make([][]byte, requests)
	for i := range bodies {
		bodies[i] = benchEvents(i*perRequest, perRequest)
	}
	emu := testkit.Start(b, testkit.WithRealClock(), testkit.WithJournalLimits(10_000, 0))
	hook := newBenchWebhook(b, false)
	hook.done, hook.want = make(chan struct{}), total
	topic := newBenchTopic(b, emu, hook.srv.URL, 1)

	b.ResetTimer()
	start := time.Now()
	for _, body := range bodies {
		topic.publish(b, body)
	}
	<-hook.done
	emuElapsed := time.Since(start)

	bare := newBenchWebhook(b, false)
	bare.done, bare.want = make(chan struct{}), total
	bareClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: inFlight}}
	one := benchEvents(0, 1)
	var next atomic.Int64
	start = time.Now()
	for range inFlight {
		go func() {
			for next.Add(1) <= total {
				resp, err := bareClient.Post(bare.srv.URL, "application/json", bytes.NewReader(one))
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	<-bare.done
	bareElapsed := time.Since(start)
	b.StopTimer()
	reportThroughput(b, total, emuElapsed, bareElapsed)
}
