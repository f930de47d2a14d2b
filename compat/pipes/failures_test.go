package pipes_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	pipessdk "github.com/aws/aws-sdk-go-v2/service/pipes"
	"github.com/aws/aws-sdk-go-v2/service/pipes/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// The ids of the messages a poll took, in the journal.
func (h *harness) polledIDs(name string) []string {
	var ids []string
	for _, e := range h.entries(name, engine.KindPoll) {
		ids = append(ids, e.EventIDs...)
	}
	return ids
}

// A Lambda target's stand-in fails the events a fault rule names and takes
// the rest: a partial batch failure. The failed message alone returns.
func TestPartialBatchFailureRetriesOnlyTheFailedMessages(t *testing.T) {
	h := startTest(t)
	srcURL, srcArn := h.queue("in", map[string]string{"VisibilityTimeout": "10"})
	h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String(lambda), SourceParameters: sqsSource(3, 0)})
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"pipe": "p", "step": "target"}, Status: 500, Count: 1})
	h.send(srcURL, "a", "b", "c")
	h.Clock.Settle()
	ids := h.polledIDs("p")
	if len(ids) != 3 {
		t.Fatalf("polled %v", ids)
	}
	// That fault failed the whole batch; this one fails only the second
	// message when the batch comes back.
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"pipe": "p", "step": "target"}, Status: 500, Events: []string{ids[1]}, Count: 1})
	h.advance(10 * time.Second)
	if got := h.bodies(srcArn); !slices.Equal(got, []string{"b"}) {
		t.Fatalf("after the partial failure the source holds %v, want [b]", got)
	}
	m := h.metrics("p")
	if m.Delivered != 2 || m.AwaitingRetry != 1 || m.ExecutionPartiallyFailed != 1 || m.ExecutionFailed != 1 {
		t.Fatalf("metrics %+v", m)
	}
	h.advance(10 * time.Second)
	if got := h.bodies(srcArn); len(got) != 0 {
		t.Fatalf("the source still holds %v", got)
	}
	at := h.targetAttempts("p")
	if len(at) != 3 || at[2].Attempt != 3 || len(at[2].EventIDs) != 1 || at[2].EventIDs[0] != ids[1] {
		t.Fatalf("target attempts %+v", at)
	}
	if m := h.metrics("p"); m.Received != 3 || m.Delivered != 3 || m.AwaitingRetry != 0 {
		t.Fatalf("metrics %+v", m)
	}
}

// An enrichment that answers with nothing skips the target and deletes the
// messages, as AWS documents: an empty answer filters.
func TestEmptyEnrichmentAnswerSkipsTheTarget(t *testing.T) {
	h := startTest(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(" {} "))
	}))
	t.Cleanup(srv.Close)
	srcURL, srcArn := h.queue("in", nil)
	_, outArn := h.queue("out", nil)
	h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String(outArn),
		Enrichment: aws.String(h.apiDestination("nothing", srv.URL))})
	h.send(srcURL, "x")
	h.Clock.Settle()
	if got := h.bodies(srcArn); len(got) != 0 {
		t.Fatalf("the source still holds %v", got)
	}
	if got := h.bodies(outArn); len(got) != 0 {
		t.Fatalf("the target got %v", got)
	}
	m := h.metrics("p")
	if m.Filtered != 1 || m.TargetStageSkipped != 1 || len(h.targetAttempts("p")) != 0 {
		t.Fatalf("metrics %+v", m)
	}
}

// A Lambda enrichment's stand-in answers with the batch it was given, as
// one JSON array; the target gets each event filled into its template.
func TestLambdaEnrichmentStandInAnswersWithItsInput(t *testing.T) {
	h := startTest(t)
	srcURL, srcArn := h.queue("in", nil)
	_, outArn := h.queue("out", nil)
	h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String(outArn),
		Enrichment:           aws.String(lambda),
		EnrichmentParameters: &types.PipeEnrichmentParameters{InputTemplate: aws.String(`{"v": <$.body.v>}`)},
		TargetParameters:     &types.PipeTargetParameters{InputTemplate: aws.String(`v=<$.v>`)},
	})
	h.send(srcURL, `{"v":1}`, `{"v":2}`)
	h.Clock.Settle()
	got := h.bodies(outArn)
	slices.Sort(got)
	if !slices.Equal(got, []string{"v=1", "v=2"}) {
		t.Fatalf("the target holds %v", got)
	}
	calls := h.Entries(engine.Filter{Kind: engine.KindAttempt, Labels: map[string]string{"pipe": "p", "step": "enrichment"}})
	if len(calls) != 1 || calls[0].Request == nil || string(calls[0].Request.Body) != `[{"v": 1},{"v": 2}]` {
		t.Fatalf("the Lambda enrichment was invoked with %+v", calls)
	}
}

// A target that fails (its bus is gone) leaves the batch in the source.
func TestTargetFailureLeavesTheBatchInTheSource(t *testing.T) {
	h := startTest(t)
	srcURL, srcArn := h.queue("in", map[string]string{"VisibilityTimeout": "45"})
	h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/gone")})
	h.send(srcURL, "x")
	h.Clock.Settle()
	at := h.targetAttempts("p")
	if len(at) != 1 || at[0].Outcome != "NO_RESOURCE" || !strings.Contains(at[0].Message, "does not exist") || at[0].NextAttemptAt == nil ||
		!at[0].NextAttemptAt.Equal(h.Start.Add(45*time.Second)) {
		t.Fatalf("target attempts %+v", at)
	}
	if m := h.metrics("p"); m.TargetStageFailed != 1 || m.AwaitingRetry != 1 {
		t.Fatalf("metrics %+v", m)
	}
	// The message leaves the queue while it waits: the pipe drops it with
	// the reason at its next poll.
	if _, err := h.sqs.PurgeQueue(ctx(t), &sqssdk.PurgeQueueInput{QueueUrl: aws.String(srcURL)}); err != nil {
		t.Fatal(err)
	}
	h.advance(45 * time.Second)
	drops := h.entries("p", engine.KindDrop)
	if len(drops) != 1 || drops[0].Outcome != "LeftSourceQueue" {
		t.Fatalf("drops %+v", drops)
	}
	if m := h.metrics("p"); m.Dropped != 1 || m.AwaitingRetry != 0 || m.Received != 1 {
		t.Fatalf("metrics %+v", m)
	}
}

// A message of a batch still gathering whose visibility timeout ends is
// received again and keeps its place: the batch holds it once. Received at
// 0, 20 and 40 s, it is visible again the instant the window closes, and
// the pipe's last poll before the batch leaves takes it a fourth time.
func TestWindowLongerThanTheVisibilityTimeout(t *testing.T) {
	h := startTest(t)
	srcURL, srcArn := h.queue("in", map[string]string{"VisibilityTimeout": "20"})
	_, outArn := h.queue("out", nil)
	h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String(outArn), SourceParameters: sqsSource(10, 60)})
	h.send(srcURL, "x")
	h.advance(time.Minute)
	if got := h.bodies(outArn); len(got) != 1 || !strings.Contains(got[0], `"ApproximateReceiveCount":"4"`) {
		t.Fatalf("the target holds %v", got)
	}
	if m := h.metrics("p"); m.Received != 1 || m.Delivered != 1 || m.Redeliveries != 0 {
		t.Fatalf("metrics %+v", m)
	}
}
