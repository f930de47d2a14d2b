package pipes_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	pipessdk "github.com/aws/aws-sdk-go-v2/service/pipes"
	"github.com/aws/aws-sdk-go-v2/service/pipes/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// enricher is an API destination's endpoint: it answers each request with
// {"order": <the request's order>, "enriched": true} and remembers what it
// was sent.
type enricher struct {
	mu       sync.Mutex
	requests []string
	headers  []http.Header
	status   int
}

func newEnricher(t *testing.T) (*enricher, string) {
	e := &enricher{status: http.StatusOK}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.requests = append(e.requests, string(body))
		e.headers = append(e.headers, r.Header.Clone())
		status := e.status
		e.mu.Unlock()
		var in struct {
			Order int `json:"order"`
		}
		_ = json.Unmarshal(body, &in)
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"order": in.Order, "enriched": true})
	}))
	t.Cleanup(srv.Close)
	return e, srv.URL
}

func (e *enricher) sent() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.requests...)
}

// The whole way: SendMessageBatch to the source, a filter on the parsed
// body, an API destination enrichment, an event bus target, the bus's rule
// to an SQS queue. Filtered messages are deleted from the source at once,
// delivered ones once the target took them.
func TestPipeFiltersEnrichesAndPutsOnABus(t *testing.T) {
	h := startTest(t)
	enr, url := newEnricher(t)
	srcURL, srcArn := h.queue("orders", nil)
	busArn, outArn := h.bus("shop", `{"source":["Pipe orders-pipe"],"detail-type":["Event from aws:sqs"]}`)
	dest := h.apiDestination("enrich", url)
	out := h.create(pipessdk.CreatePipeInput{
		Name: aws.String("orders-pipe"), Source: aws.String(srcArn), Target: aws.String(busArn), Enrichment: aws.String(dest),
		SourceParameters: &types.PipeSourceParameters{FilterCriteria: &types.FilterCriteria{Filters: []types.Filter{
			{Pattern: aws.String(`{"body":{"kind":["order"]}}`)},
		}}},
		EnrichmentParameters: &types.PipeEnrichmentParameters{InputTemplate: aws.String(`{"order": <$.body.order>, "pipe": "<aws.pipes.pipe-name>"}`)},
	})
	if out.CurrentState != types.PipeStateCreating || out.DesiredState != types.RequestedPipeStateRunning {
		t.Fatalf("CreatePipe answered %s/%s, want CREATING/RUNNING", out.CurrentState, out.DesiredState)
	}
	if d := h.describe("orders-pipe"); d.CurrentState != types.PipeStateRunning {
		t.Fatalf("after CreatePipe the pipe is %s (%s), want RUNNING", d.CurrentState, aws.ToString(d.StateReason))
	}

	h.send(srcURL, `{"kind":"order","order":1}`, `{"kind":"refund","order":2}`, `{"kind":"order","order":3}`)
	h.Clock.Settle()

	if got := h.bodies(srcArn); len(got) != 0 {
		t.Fatalf("the source still holds %v", got)
	}
	delivered := h.bodies(outArn)
	if len(delivered) != 2 {
		t.Fatalf("the bus's rule sent %d events, want 2: %v", len(delivered), delivered)
	}
	// The bus's rule sends its events concurrently: in either order.
	orders := map[int]bool{}
	for i := range delivered {
		var ev struct {
			Source     string `json:"source"`
			DetailType string `json:"detail-type"`
			Account    string `json:"account"`
			Detail     struct {
				Order    int  `json:"order"`
				Enriched bool `json:"enriched"`
			} `json:"detail"`
		}
		if err := json.Unmarshal([]byte(delivered[i]), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Source != "Pipe orders-pipe" || ev.DetailType != "Event from aws:sqs" || ev.Account != account || !ev.Detail.Enriched {
			t.Fatalf("event %d = %s", i, delivered[i])
		}
		orders[ev.Detail.Order] = true
	}
	if !orders[1] || !orders[3] {
		t.Fatalf("the events carry orders %v, want 1 and 3", orders)
	}
	sent := enr.sent()
	if len(sent) != 2 || sent[0] != `{"order": 1, "pipe": "orders-pipe"}` || sent[1] != `{"order": 3, "pipe": "orders-pipe"}` {
		t.Fatalf("the enrichment was sent %v", sent)
	}
	if got := enr.headers[0].Get("x-api-key"); got != "s3cret" {
		t.Fatalf("the enrichment's request carried x-api-key %q, want the connection's key", got)
	}

	m := h.metrics("orders-pipe")
	if m.Received != 3 || m.Filtered != 1 || m.Delivered != 2 || m.InFlight+m.Batching+m.AwaitingRetry != 0 || m.Invocations != 1 {
		t.Fatalf("metrics %+v", m.Labels)
	}
	if n := len(h.entries("orders-pipe", engine.KindFilter)); n != 2 {
		t.Fatalf("%d filter decisions journalled, want 2 (matched, filtered out)", n)
	}
	if n := len(h.Entries(engine.Filter{Kind: engine.KindAttempt, Labels: map[string]string{"pipe": "orders-pipe", "step": "enrichment"}})); n != 2 {
		t.Fatalf("%d enrichment calls journalled, want 2", n)
	}
}

// A failing enrichment leaves the batch in the source: it comes back when
// its visibility timeout ends, and after maxReceiveCount receives the
// queue's redrive policy moves it to the dead-letter queue, which the
// pipe's metrics count.
func TestFailingEnrichmentEndsInTheSourcesDeadLetterQueue(t *testing.T) {
	h := startTest(t)
	enr, url := newEnricher(t)
	enr.status = http.StatusInternalServerError
	_, dlqArn := h.queue("orders-dlq", nil)
	srcURL, srcArn := h.queue("orders", map[string]string{
		"VisibilityTimeout": "30",
		"RedrivePolicy":     `{"deadLetterTargetArn":"` + dlqArn + `","maxReceiveCount":"3"}`,
	})
	busArn, outArn := h.bus("shop", `{"source":[{"prefix":""}]}`)
	h.create(pipessdk.CreatePipeInput{
		Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String(busArn),
		Enrichment: aws.String(h.apiDestination("enrich", url)), SourceParameters: sqsSource(10, 0),
	})
	h.send(srcURL, `{"order":1}`, `{"order":2}`)
	h.Clock.Settle()
	if n := len(enr.sent()); n != 1 {
		t.Fatalf("the enrichment was called %d times, want once (it fails the batch at its first event)", n)
	}
	attempts := h.Entries(engine.Filter{Kind: engine.KindAttempt, Labels: map[string]string{"pipe": "p", "step": "enrichment"}})
	if len(attempts) != 1 || attempts[0].NextAttemptAt == nil || !attempts[0].NextAttemptAt.Equal(h.Clock.Now().Add(30*time.Second)) {
		t.Fatalf("the failed attempt should say the batch returns in 30 s: %+v", attempts)
	}
	if m := h.metrics("p"); m.AwaitingRetry != 2 || m.ExecutionFailed != 1 || m.EnrichmentStageFailed != 1 {
		t.Fatalf("after the failure: %+v", m)
	}

	h.advance(29 * time.Second)
	if n := len(enr.sent()); n != 1 {
		t.Fatalf("the batch came back before its visibility timeout ended (%d calls)", n)
	}
	h.advance(time.Second)
	if n := len(enr.sent()); n != 2 {
		t.Fatalf("the batch did not come back when its visibility timeout ended (%d calls)", n)
	}
	h.advance(30 * time.Second) // the third receive fails too
	h.advance(30 * time.Second) // maxReceiveCount reached: redriven
	if got := h.bodies(dlqArn); len(got) != 2 {
		t.Fatalf("the dead-letter queue holds %v, want both messages", got)
	}
	if got := h.bodies(srcArn); len(got) != 0 {
		t.Fatalf("the source still holds %v", got)
	}
	if got := h.bodies(outArn); len(got) != 0 {
		t.Fatalf("the target got %v", got)
	}
	m := h.metrics("p")
	if m.Received != 2 || m.DeadLettered != 2 || m.Redeliveries != 4 || m.AwaitingRetry != 0 || m.ExecutionFailed != 3 {
		t.Fatalf("metrics %+v", m)
	}
	if n := len(h.entries("p", engine.KindDeadLetter)); n != 2 {
		t.Fatalf("%d dead letters journalled, want 2", n)
	}
}
