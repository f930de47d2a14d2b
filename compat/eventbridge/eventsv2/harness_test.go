package eventsv2

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// t0 is the seed's redrive day (EB-12).
var t0 = time.Date(2026, 9, 16, 18, 40, 0, 0, time.UTC)

const testAccount = "111122223333"

// harness is one emulator under test: a virtual clock, an engine, the
// service behind a real HTTP server, and an API client speaking to it.
type harness struct {
	t      *testing.T
	env    *facetest.Env
	clock  *engine.VirtualClock
	engine *engine.Engine
	svc    *Service
	store  *sqs.Store // GridBridge's own SQS; nil with an SQS endpoint
	api    *apiClient
}

type harnessOptions struct {
	// sqsEndpoint is --sqs-endpoint: targets and records go to that
	// server instead of GridBridge's own SQS.
	sqsEndpoint string
	// wrapSQS, when set, stands between the service and SQS: a queue
	// server that fails as the test needs.
	wrapSQS func(sqssend.Queues) sqssend.Queues
	settle  time.Duration
	newID   func(kind string) string
	jitter  bool
}

func newHarness(t *testing.T, opts harnessOptions) *harness {
	t.Helper()
	env := facetest.New(t, facetest.Options{Start: t0, Settle: cmp.Or(opts.settle, 2*time.Second)})
	h := &harness{t: t, env: env, clock: env.Clock, engine: env.Engine}
	queues := sqs.New(sqs.Config{Clock: env.Clock, Endpoint: opts.sqsEndpoint})
	h.store = queues.Store()
	sink := queues.Queues()
	if opts.wrapSQS != nil {
		sink = opts.wrapSQS(sink)
	}
	h.svc = New(Config{Engine: env.Engine, SQS: sink, Jitter: opts.jitter, Seed: 7, NewID: opts.newID})
	h.svc.Register(env.Router)
	env.Router.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "not routed to the v2 face", http.StatusTeapot)
	})
	srv := env.ServeHTTP(t)
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

type apiError = facetest.AWSError

// raw sends body as operation op and returns the status, the error-type
// header and the body.
func (c *apiClient) raw(op string, body []byte) (int, http.Header, []byte, error) {
	resp, err := c.send(op, body)
	return resp.Status, resp.Header, resp.Body, err
}

func (c *apiClient) send(op string, body []byte) (facetest.Response, error) {
	req, err := facetest.AWSJSONRequest(c.url, "AWSEventsV2."+op, body)
	if err != nil {
		return facetest.Response{}, err
	}
	req.Header.Set("X-Amz-Date", "20260916T184000Z")
	req.Header.Set("Authorization", fmt.Sprintf("AWS4-HMAC-SHA256 Credential=%s/20260916/%s/events/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=%s",
		c.account, c.region, strings.Repeat("0", 64)))
	return facetest.Send(http.DefaultClient, req)
}

// call sends in (any JSON value) and decodes a success into out; an AWS
// error comes back as *apiError after checking that header and body agree.
func (c *apiClient) call(op string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	resp, err := c.send(op, body)
	if err != nil {
		return err
	}
	return facetest.DecodeAWSJSON(resp, out)
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
	return facetest.WantAWSError(h.t, op, h.api.call(op, in, nil), code, fragments...)
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

// records decodes the dead-letter records queueArn holds in GridBridge's
// own SQS.
func (h *harness) records(queueArn string) ([]DeadLetterRecord, []sqssend.Message) {
	h.t.Helper()
	var recs []DeadLetterRecord
	var letters []sqssend.Message
	for _, dl := range h.store.Messages(queueArn) {
		var r DeadLetterRecord
		if err := json.Unmarshal(dl.Body, &r); err != nil {
			h.t.Fatalf("record is not JSON: %v: %s", err, dl.Body)
		}
		recs = append(recs, r)
		letters = append(letters, dl)
	}
	return recs, letters
}

// queuesFunc is a queue server a test writes in a function.
type queuesFunc func(ctx context.Context, m sqssend.Message) error

func (f queuesFunc) Send(ctx context.Context, m sqssend.Message) error { return f(ctx, m) }

// ---- a programmable HTTP target

// httpTarget is an endpoint whose answer a test decides per request.
type httpTarget struct {
	url    string
	target *facetest.Target
}

type targetRequest struct{ facetest.TargetRequest }

func answerOf(answer func(r targetRequest) (int, string)) facetest.Answer {
	return func(r facetest.TargetRequest) (int, string) { return answer(targetRequest{r}) }
}

// startTest marks the test parallel and gives it a harness with the default
// options: how most tests begin.
func startTest(t *testing.T) *harness {
	t.Parallel()
	return newHarness(t, harnessOptions{})
}

// startWithTarget begins a test as startTest does, with an HTTP target that
// answers with answer and the ARN of a bus "orders".
func startWithTarget(t *testing.T, answer func(r targetRequest) (int, string)) (*harness, *httpTarget, string) {
	h := startTest(t)
	return h, newHTTPTarget(t, h.clock, answer), h.createBus("orders")
}

func newHTTPTarget(t *testing.T, clock engine.Clock, answer func(r targetRequest) (int, string)) *httpTarget {
	tg := facetest.NewTarget(t, clock.Now, answerOf(answer))
	return &httpTarget{url: tg.URL, target: tg}
}

func (ht *httpTarget) setAnswer(answer func(r targetRequest) (int, string)) {
	ht.target.SetAnswer(answerOf(answer))
}

func (ht *httpTarget) received() []targetRequest {
	got := ht.target.Received()
	out := make([]targetRequest, len(got))
	for i, r := range got {
		out[i] = targetRequest{r}
	}
	return out
}

func always(status int, body string) func(targetRequest) (int, string) {
	return func(targetRequest) (int, string) { return status, body }
}

// eventID reads the id of the single event a request carried.
func (r targetRequest) eventID() string { return r.Header.Get(TransportName(MetaEventID)) }

// waitFor polls nothing: it waits on the journal until cond holds.
func (h *harness) waitFor(what string, f engine.Filter, cond func([]engine.Entry) bool) []engine.Entry {
	h.t.Helper()
	return h.env.Wait(h.t, what, f, cond)
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

// failSubscriber makes deliveries to the subscriber name fail with outcome:
// the next count of them, or every one for 0 (engine.Fault's Count).
func (h *harness) failSubscriber(name, outcome string, count int) {
	h.engine.Faults().Add(engine.Fault{Labels: map[string]string{"subscriber": name}, Outcome: outcome, Count: count})
}
