package pipes_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	pipessdk "github.com/aws/aws-sdk-go-v2/service/pipes"
	"github.com/aws/aws-sdk-go-v2/service/pipes/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/compat/pipes"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

const (
	account = facetest.AWSAccount
	region  = facetest.AWSRegion
	role    = "arn:aws:iam::123456789012:role/pipes"
)

// harness is GridBridge's Pipes on a virtual clock behind a real HTTP
// server, with the SQS and EventBridge faces beside it as the emulator
// mounts them, and the Go SDK's clients of all three.
type harness struct {
	*facetest.AWSFace
	store  *sqs.Store
	pipes  *pipes.Service
	client *pipessdk.Client
	sqs    *sqssdk.Client
	events *ebsdk.Client
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	h := &harness{}
	h.AWSFace = facetest.NewAWSFace(t, func(env *facetest.Env) {
		queues := sqs.New(sqs.Config{Clock: env.Clock})
		h.store = queues.Store()
		buses := eventbridge.New(eventbridge.Config{Engine: env.Engine, SQS: queues.Queues(), HTTPClient: http.DefaultClient})
		h.pipes = pipes.New(pipes.Config{
			Engine: env.Engine, Sources: queues.Sources(), SQS: queues.Queues(), EventBridge: buses,
			APIDestinations: buses.ResolveAPIDestination, HTTPClient: http.DefaultClient,
		})
		buses.Register(env.Router)
		h.pipes.Register(env.Router)
		queues.Register(env.Router)
	})
	t.Cleanup(h.pipes.Close)
	cfg := h.Config(account, region)
	h.client = pipessdk.NewFromConfig(cfg)
	h.sqs = sqssdk.NewFromConfig(cfg)
	h.events = ebsdk.NewFromConfig(cfg)
	return h
}

func startTest(t *testing.T) *harness {
	t.Parallel()
	return newHarness(t)
}

func ctx(t testing.TB) context.Context { return facetest.Context(t) }

// advance moves the clock and waits for the work it started.
func (h *harness) advance(d time.Duration) {
	h.Clock.Advance(d)
	h.Clock.Settle()
}

// queue creates an SQS queue with attrs and returns its URL and ARN.
func (h *harness) queue(name string, attrs map[string]string) (url, arn string) {
	h.T.Helper()
	return facetest.SQSQueue(h.T, h.sqs, name, attrs)
}

// send sends bodies to a queue in one SendMessageBatch.
func (h *harness) send(url string, bodies ...string) {
	h.T.Helper()
	in := &sqssdk.SendMessageBatchInput{QueueUrl: aws.String(url)}
	for i, b := range bodies {
		in.Entries = append(in.Entries, sqstypesEntry(i, b))
	}
	out, err := h.sqs.SendMessageBatch(ctx(h.T), in)
	if err != nil {
		h.T.Fatal(err)
	}
	if len(out.Failed) > 0 {
		h.T.Fatalf("SendMessageBatch failed entries: %+v", out.Failed)
	}
}

// bodies returns the bodies a queue holds, oldest first.
func (h *harness) bodies(arn string) []string {
	var out []string
	for _, m := range h.store.Messages(arn) {
		out = append(out, string(m.Body))
	}
	return out
}

// create creates a pipe and fails the test on an error.
func (h *harness) create(in pipessdk.CreatePipeInput) *pipessdk.CreatePipeOutput {
	h.T.Helper()
	if in.RoleArn == nil {
		in.RoleArn = aws.String(role)
	}
	out, err := h.client.CreatePipe(ctx(h.T), &in)
	if err != nil {
		h.T.Fatal(err)
	}
	return out
}

func (h *harness) describe(name string) *pipessdk.DescribePipeOutput {
	h.T.Helper()
	out, err := h.client.DescribePipe(ctx(h.T), &pipessdk.DescribePipeInput{Name: aws.String(name)})
	if err != nil {
		h.T.Fatal(err)
	}
	return out
}

// metrics returns the counters of pipe name, after checking that they
// account for every message the pipe received.
func (h *harness) metrics(name string) pipes.Metrics {
	h.T.Helper()
	for _, m := range h.pipes.Metrics() {
		if m.Labels["pipe"] == name {
			ended := m.Delivered + m.Filtered + m.DeadLettered + m.Dropped
			open := uint64(m.Batching + m.InFlight + m.AwaitingRetry)
			if m.Received != ended+open {
				h.T.Fatalf("pipe %s: %d received, but %d delivered + %d filtered + %d dead-lettered + %d dropped + %d batching + %d in flight + %d awaiting retry",
					name, m.Received, m.Delivered, m.Filtered, m.DeadLettered, m.Dropped, m.Batching, m.InFlight, m.AwaitingRetry)
			}
			return m
		}
	}
	h.T.Fatalf("no metrics for pipe %s", name)
	return pipes.Metrics{}
}

// entries returns the journal's entries of pipe name with kind ("": all).
func (h *harness) entries(name, kind string) []engine.Entry {
	return h.Entries(engine.Filter{Kind: kind, Labels: map[string]string{"pipe": name}})
}

// bus creates an event bus with a rule matching pattern that sends to an
// SQS queue it creates, and returns the bus's and queue's ARNs.
func (h *harness) bus(name, pattern string) (busArn, outArn string) {
	h.T.Helper()
	c := ctx(h.T)
	b, err := h.events.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String(name)})
	if err != nil {
		h.T.Fatal(err)
	}
	_, outArn = h.queue(name+"-out", nil)
	if _, err := h.events.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("to-queue"), EventBusName: aws.String(name), EventPattern: aws.String(pattern)}); err != nil {
		h.T.Fatal(err)
	}
	if _, err := h.events.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("to-queue"), EventBusName: aws.String(name),
		Targets: []ebtypes.Target{{Id: aws.String("q"), Arn: aws.String(outArn)}}}); err != nil {
		h.T.Fatal(err)
	}
	return aws.ToString(b.EventBusArn), outArn
}

// apiDestination creates a connection with an API key and an API
// destination calling url, and returns its ARN.
func (h *harness) apiDestination(name, url string) string {
	h.T.Helper()
	c := ctx(h.T)
	conn, err := h.events.CreateConnection(c, &ebsdk.CreateConnectionInput{
		Name: aws.String(name), AuthorizationType: ebtypes.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &ebtypes.CreateConnectionAuthRequestParameters{
			ApiKeyAuthParameters: &ebtypes.CreateConnectionApiKeyAuthRequestParameters{ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("s3cret")},
		},
	})
	if err != nil {
		h.T.Fatal(err)
	}
	d, err := h.events.CreateApiDestination(c, &ebsdk.CreateApiDestinationInput{
		Name: aws.String(name), ConnectionArn: conn.ConnectionArn, InvocationEndpoint: aws.String(url),
		HttpMethod: ebtypes.ApiDestinationHttpMethodPost,
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return aws.ToString(d.ApiDestinationArn)
}

func sqsSource(batch, window int32) *types.PipeSourceParameters {
	return &types.PipeSourceParameters{SqsQueueParameters: &types.PipeSourceSqsQueueParameters{
		BatchSize: aws.Int32(batch), MaximumBatchingWindowInSeconds: aws.Int32(window),
	}}
}

func apiError(t testing.TB, err error, code, message string) {
	t.Helper()
	facetest.WantAPIError(t, err, code, message)
}

func sqstypesEntry(i int, body string) sqstypes.SendMessageBatchRequestEntry {
	return sqstypes.SendMessageBatchRequestEntry{Id: aws.String("m" + strconv.Itoa(i)), MessageBody: aws.String(body)}
}
