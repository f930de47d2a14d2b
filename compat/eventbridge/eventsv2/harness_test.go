package eventsv2

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// t0 is the seed's redrive day (EB-12).
var t0 = time.Date(2026, 9, 16, 18, 40, 0, 0, time.UTC)

const testAccount = "111122223333"

// harness is one emulator under test: a virtual clock, an engine, the
// service behind a real HTTP server, and an API client speaking to it.
type harness struct {
	t      *testing.T
	clock  *engine.VirtualClock
	engine *engine.Engine
	svc    *Service
	memory *engine.MemorySink // the SQS sink unless the test gave one
	api    *apiClient
}

type harnessOptions struct {
	sqs    engine.Sink
	settle time.Duration
	newID  func(kind string) string
	jitter bool
}

func newHarness(t *testing.T, opts harnessOptions) *harness {
	t.Helper()
	settle := opts.settle
	if settle == 0 {
		settle = 2 * time.Second
	}
	clock := engine.NewVirtualClock(t0, settle)
	eng := engine.New(clock, engine.NewJournal(0))
	h := &harness{t: t, clock: clock, engine: eng}
	sink := opts.sqs
	if sink == nil {
		h.memory = engine.NewMemorySink()
		sink = h.memory
	}
	h.svc = New(Config{Engine: eng, SQS: sink, Jitter: opts.jitter, Seed: 7, NewID: opts.newID})
	r := mux.NewRouter()
	h.svc.Register(r)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "not routed to the v2 face", http.StatusTeapot)
	})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	t.Cleanup(h.svc.Reset)
	h.api = &apiClient{url: srv.URL, account: testAccount, region: "us-east-1"}
	return h
}

// settle waits until every delivery the clock started has finished.
func (h *harness) settle() { h.clock.Settle() }

// advance moves the clock, firing every retry and write due on the way.
func (h *harness) advance(d time.Duration) { h.clock.Advance(d) }

// ---- API client

// apiClient sends AWS JSON 1.1 requests signed the way the AWS SDKs sign
// them (the signature itself is never checked by GridBridge).
type apiClient struct {
	url, account, region string
}

type apiError struct {
	Status  int
	Code    string
	Message string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// raw sends body as operation op and returns the status, the error-type
// header and the body.
func (c *apiClient) raw(op string, body []byte) (int, http.Header, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, c.url+"/", bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", "AWSEventsV2."+op)
	req.Header.Set("X-Amz-Date", "20260916T184000Z")
	req.Header.Set("Authorization", fmt.Sprintf("AWS4-HMAC-SHA256 Credential=%s/20260916/%s/events/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=%s",
		c.account, c.region, strings.Repeat("0", 64)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b, err
}

// call sends in (any JSON value) and decodes a success into out; an AWS
// error comes back as *apiError after checking that header and body agree.
func (c *apiClient) call(op string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	status, header, resp, err := c.raw(op, body)
	if err != nil {
		return err
	}
	if status == http.StatusOK {
		if out == nil {
			return nil
		}
		return json.Unmarshal(resp, out)
	}
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(resp, &e); err != nil {
		return fmt.Errorf("error body is not JSON (%d): %s", status, resp)
	}
	if got := header.Get("X-Amzn-ErrorType"); got != e.Type {
		return fmt.Errorf("X-Amzn-ErrorType %q and __type %q disagree", got, e.Type)
	}
	return &apiError{Status: status, Code: e.Type, Message: e.Message}
}

func (h *harness) mustCall(op string, in, out any) {
	h.t.Helper()
	if err := h.api.call(op, in, out); err != nil {
		h.t.Fatalf("%s: %v", op, err)
	}
}

// wantAPIError checks that op fails with code, and that the message
// contains each of fragments.
func (h *harness) wantAPIError(op string, in any, code string, fragments ...string) *apiError {
	h.t.Helper()
	err := h.api.call(op, in, nil)
	ae, ok := err.(*apiError)
	if !ok {
		h.t.Fatalf("%s: got %v, want %s", op, err, code)
	}
	if ae.Code != code || ae.Status < 400 || ae.Status >= 500 {
		h.t.Fatalf("%s: got %v, want a 4xx %s", op, ae, code)
	}
	for _, f := range fragments {
		if !strings.Contains(ae.Message, f) {
			h.t.Fatalf("%s: message %q does not contain %q", op, ae.Message, f)
		}
	}
	return ae
}

type m = map[string]any

func (h *harness) createBus(name string) string {
	h.t.Helper()
	var out eventBusShape
	h.mustCall("CreateEventBus", m{"Name": name}, &out)
	return out.EventBusArn
}

func (h *harness) createSubscriber(in m) subscriberShape {
	h.t.Helper()
	var out subscriberShape
	h.mustCall("CreateSubscriber", in, &out)
	return out
}

// put sends entries (each a map merged over a default event) to busArn and
// returns their EventIds.
func (h *harness) put(busArn string, entries ...m) []string {
	h.t.Helper()
	list := make([]m, len(entries))
	for i, e := range entries {
		entry := m{"EventBusArn": busArn, "Source": "orders", "DetailType": "OrderPlaced", "Detail": fmt.Sprintf(`{"n":%d}`, i)}
		for k, v := range e {
			entry[k] = v
		}
		list[i] = entry
	}
	var out putEventsOutput
	h.mustCall("PutEvents", m{"Entries": list}, &out)
	if out.FailedEntryCount != 0 {
		h.t.Fatalf("PutEvents failed entries: %+v", out.Entries)
	}
	ids := make([]string, len(out.Entries))
	for i, e := range out.Entries {
		ids[i] = e.EventId
	}
	return ids
}

// journal returns the journal entries of kind for the subscriber.
func (h *harness) journal(kind, subscriberArn string) []engine.Entry {
	return h.engine.Journal().Query(engine.Filter{Kind: kind, Labels: map[string]string{"subscriberArn": subscriberArn}})
}

// metrics returns one subscriber's metrics.
func (h *harness) metrics(subscriberArn string) SubscriberMetrics {
	h.t.Helper()
	for _, sm := range h.svc.Metrics() {
		if sm.SubscriberArn == subscriberArn {
			return sm
		}
	}
	h.t.Fatalf("no metrics for %s", subscriberArn)
	return SubscriberMetrics{}
}

// records decodes the dead letters the in-memory sink holds for queueArn.
func (h *harness) records(queueArn string) ([]DeadLetterRecord, []engine.DeadLetter) {
	h.t.Helper()
	var recs []DeadLetterRecord
	var letters []engine.DeadLetter
	for _, dl := range h.memory.List() {
		if dl.Destination != queueArn {
			continue
		}
		var r DeadLetterRecord
		if err := json.Unmarshal(dl.Body, &r); err != nil {
			h.t.Fatalf("record is not JSON: %v: %s", err, dl.Body)
		}
		recs = append(recs, r)
		letters = append(letters, dl)
	}
	return recs, letters
}

// ---- a programmable HTTP target

// httpTarget is an endpoint whose answer a test decides per request.
type httpTarget struct {
	url string

	mu       sync.Mutex
	requests []targetRequest
	answer   func(r targetRequest) (status int, body string)
}

type targetRequest struct {
	Header http.Header
	Body   []byte
	At     time.Time // emulator time
}

func newHTTPTarget(t *testing.T, clock engine.Clock, answer func(r targetRequest) (int, string)) *httpTarget {
	ht := &httpTarget{answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := targetRequest{Header: r.Header.Clone(), Body: body, At: clock.Now()}
		ht.mu.Lock()
		ht.requests = append(ht.requests, req)
		answer := ht.answer
		ht.mu.Unlock()
		status, text := answer(req)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, text)
	}))
	t.Cleanup(srv.Close)
	ht.url = srv.URL
	return ht
}

func (ht *httpTarget) setAnswer(answer func(r targetRequest) (int, string)) {
	ht.mu.Lock()
	ht.answer = answer
	ht.mu.Unlock()
}

func (ht *httpTarget) received() []targetRequest {
	ht.mu.Lock()
	defer ht.mu.Unlock()
	return append([]targetRequest(nil), ht.requests...)
}

func always(status int, body string) func(targetRequest) (int, string) {
	return func(targetRequest) (int, string) { return status, body }
}

// eventID reads the id of the single event a request carried.
func (r targetRequest) eventID() string { return r.Header.Get(TransportName(MetaEventID)) }

// waitFor polls nothing: it waits on the journal until cond holds.
func (h *harness) waitFor(what string, f engine.Filter, cond func([]engine.Entry) bool) []engine.Entry {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := h.engine.Journal().Wait(ctx, f, cond)
	if err != nil {
		h.t.Fatalf("waiting for %s: %v (have %d entries)", what, err, len(got))
	}
	return got
}

const memoryDLQ = "arn:aws:sqs:us-east-1:111122223333:orders-dlq"

// oneShotSubscriber makes a subscriber that gives up after the first
// failure, writing to its own in-memory dead-letter queue.
func (h *harness) oneShotSubscriber(bus, name, target string, extra m) (subscriberShape, string) {
	h.t.Helper()
	dlq := "arn:aws:sqs:us-east-1:111122223333:" + name + "-dlq"
	in := m{
		"Name": name, "EventBusArn": bus,
		"InvokeConfiguration":    m{"TargetArn": target},
		"RetryPolicy":            m{"MaxRetryAttempts": 0},
		"OnFailureConfiguration": m{"Arn": dlq},
	}
	for k, v := range extra {
		in[k] = v
	}
	return h.createSubscriber(in), dlq
}

// onlyRecord returns the single record in dlq and its attributes.
func (h *harness) onlyRecord(dlq string) (DeadLetterRecord, map[string]engine.Attribute) {
	h.t.Helper()
	recs, letters := h.records(dlq)
	if len(recs) != 1 {
		h.t.Fatalf("%s holds %d records, want 1: %+v", dlq, len(recs), recs)
	}
	attrs := map[string]engine.Attribute{}
	for _, a := range letters[0].Attributes {
		attrs[a.Name] = a
	}
	return recs[0], attrs
}
