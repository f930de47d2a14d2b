package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/pipes"
	pipetypes "github.com/aws/aws-sdk-go-v2/service/pipes/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// TestPipeAgainstBinary is EventBridge Pipes' whole way through the Go SDK
// against the built binary on a virtual clock: SendMessageBatch to a
// source queue, a pipe that filters on the parsed body, enriches through
// an API destination and puts the result on a bus, the bus's rule to an
// SQS queue read with ReceiveMessage. Filtered messages are gone from the
// source; when the enrichment fails, the batch returns to the source each
// visibility timeout and ends in the source's dead-letter queue after
// maxReceiveCount receives, which the pipe's metrics count.
func TestPipeAgainstBinary(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter")
	emu := testkit.Connect(t, proc.Endpoints["http"], testkit.WithProbation())

	var failing atomic.Bool
	var calls atomic.Int32
	enrich := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var in struct {
			Order int `json:"order"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &in)
		if failing.Load() || r.Header.Get("x-api-key") != "s3cret" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"order": in.Order, "priority": "high"})
	}))
	t.Cleanup(enrich.Close)

	q := emu.SQS()
	queue := func(name string, attrs map[string]string) (url, arn string) {
		t.Helper()
		out, err := q.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
		if err != nil {
			t.Fatal(err)
		}
		a, err := q.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: out.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{"QueueArn"}})
		if err != nil {
			t.Fatal(err)
		}
		return aws.ToString(out.QueueUrl), a.Attributes["QueueArn"]
	}
	dlqURL, dlqArn := queue("orders-dlq", nil)
	srcURL, srcArn := queue("orders", map[string]string{
		"VisibilityTimeout": "30", "RedrivePolicy": `{"deadLetterTargetArn":"` + dlqArn + `","maxReceiveCount":"2"}`,
	})
	shipURL, shipArn := queue("shipping", nil)

	eb := emu.EventBridge()
	bus, err := eb.CreateEventBus(ctx, &eventbridge.CreateEventBusInput{Name: aws.String("shop")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("ship"), EventBusName: aws.String("shop"),
		EventPattern: aws.String(`{"source":["shop.pipes"],"detail-type":["OrderEnriched"],"detail":{"priority":["high"]}}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("ship"), EventBusName: aws.String("shop"),
		Targets: []ebtypes.Target{{Id: aws.String("q"), Arn: aws.String(shipArn)}}}); err != nil {
		t.Fatal(err)
	}
	conn, err := eb.CreateConnection(ctx, &eventbridge.CreateConnectionInput{
		Name: aws.String("enrich"), AuthorizationType: ebtypes.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &ebtypes.CreateConnectionAuthRequestParameters{ApiKeyAuthParameters: &ebtypes.CreateConnectionApiKeyAuthRequestParameters{
			ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("s3cret")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	dest, err := eb.CreateApiDestination(ctx, &eventbridge.CreateApiDestinationInput{
		Name: aws.String("enrich"), ConnectionArn: conn.ConnectionArn, InvocationEndpoint: aws.String(enrich.URL),
		HttpMethod: ebtypes.ApiDestinationHttpMethodPost,
	})
	if err != nil {
		t.Fatal(err)
	}

	p := emu.Pipes()
	created, err := p.CreatePipe(ctx, &pipes.CreatePipeInput{
		Name: aws.String("orders"), RoleArn: aws.String(testkit.PipeRole), Source: aws.String(srcArn),
		SourceParameters: &pipetypes.PipeSourceParameters{
			FilterCriteria: &pipetypes.FilterCriteria{Filters: []pipetypes.Filter{{Pattern: aws.String(`{"body":{"type":["order"]}}`)}}},
		},
		Enrichment:           dest.ApiDestinationArn,
		EnrichmentParameters: &pipetypes.PipeEnrichmentParameters{InputTemplate: aws.String(`{"order": <$.body.order>}`)},
		Target:               bus.EventBusArn,
		TargetParameters: &pipetypes.PipeTargetParameters{EventBridgeEventBusParameters: &pipetypes.PipeTargetEventBridgeEventBusParameters{
			DetailType: aws.String("OrderEnriched"), Source: aws.String("shop.pipes"),
		}},
	})
	if err != nil || created.CurrentState != pipetypes.PipeStateCreating {
		t.Fatalf("CreatePipe = %+v, %v", created, err)
	}

	send := func(bodies ...string) {
		t.Helper()
		in := &sqs.SendMessageBatchInput{QueueUrl: aws.String(srcURL)}
		for i, b := range bodies {
			in.Entries = append(in.Entries, sqstypes.SendMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(i)), MessageBody: aws.String(b)})
		}
		out, err := q.SendMessageBatch(ctx, in)
		if err != nil || len(out.Failed) > 0 {
			t.Fatalf("SendMessageBatch = %+v, %v", out, err)
		}
	}
	send(`{"type":"order","order":1}`, `{"type":"ping"}`, `{"type":"order","order":2}`, `{"type":"order","order":3}`)
	emu.Settle()
	emu.WaitForPipeDeliveries("orders", 3)

	got := emu.ReceiveSQSMessages(shipURL, 3)
	var orders []int
	for _, m := range got {
		var ev struct {
			Source     string `json:"source"`
			DetailType string `json:"detail-type"`
			Detail     struct {
				Order int `json:"order"`
			} `json:"detail"`
		}
		if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &ev); err != nil || ev.Source != "shop.pipes" || ev.DetailType != "OrderEnriched" {
			t.Fatalf("shipping received %s (%v)", aws.ToString(m.Body), err)
		}
		orders = append(orders, ev.Detail.Order)
	}
	slices.Sort(orders)
	if !slices.Equal(orders, []int{1, 2, 3}) {
		t.Fatalf("shipping received orders %v", orders)
	}
	if n := sourceDepth(t, q, srcURL); n != 0 {
		t.Fatalf("the source still holds %d messages: the ping is filtered out and deleted, the orders deleted once delivered", n)
	}
	if m := emu.PipeMetrics("orders"); m.Received != 4 || m.Filtered != 1 || m.Delivered != 3 {
		t.Fatalf("metrics %+v", m)
	}

	// The enrichment fails: the batch returns each visibility timeout, and
	// its second failure sends it to the dead-letter queue on the next poll.
	failing.Store(true)
	before := calls.Load()
	send(`{"type":"order","order":4}`, `{"type":"order","order":5}`)
	emu.Settle()
	if calls.Load() != before+1 {
		t.Fatalf("the enrichment was called %d times for the failing batch, want once", calls.Load()-before)
	}
	emu.Advance(29 * time.Second)
	if calls.Load() != before+1 {
		t.Fatal("the batch came back before the visibility timeout ended")
	}
	emu.Advance(time.Second)
	if calls.Load() != before+2 {
		t.Fatalf("the batch did not come back after 30 s (%d calls)", calls.Load()-before)
	}
	emu.Advance(30 * time.Second)
	dead := emu.ReceiveSQSMessages(dlqURL, 2)
	var bodies []string
	for _, m := range dead {
		bodies = append(bodies, aws.ToString(m.Body))
	}
	slices.Sort(bodies)
	if !slices.Equal(bodies, []string{`{"type":"order","order":4}`, `{"type":"order","order":5}`}) {
		t.Fatalf("the dead-letter queue holds %v", bodies)
	}
	m := emu.PipeMetrics("orders")
	if m.Received != 6 || m.Delivered != 3 || m.Filtered != 1 || m.DeadLettered != 2 || m.AwaitingRetry != 0 || m.Batching+m.InFlight != 0 ||
		m.EnrichmentStageFailed != 2 || m.Redeliveries != 2 {
		t.Fatalf("metrics %+v", m)
	}
	if dls := emu.DeadLetters(testkit.PipeFilter("orders", "")); len(dls) != 2 || dls[0].Destination != dlqArn || dls[0].Outcome != "MaxReceiveCountExceeded" {
		t.Fatalf("the journal's dead letters: %+v", dls)
	}
}

// sourceDepth is how many messages a queue holds, visible or not.
func sourceDepth(t *testing.T, q *sqs.Client, url string) int {
	t.Helper()
	a, err := q.GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{QueueUrl: aws.String(url), AttributeNames: []sqstypes.QueueAttributeName{
		sqstypes.QueueAttributeNameApproximateNumberOfMessages, sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible,
		sqstypes.QueueAttributeNameApproximateNumberOfMessagesDelayed,
	}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range a.Attributes {
		i, _ := strconv.Atoi(v)
		n += i
	}
	return n
}
