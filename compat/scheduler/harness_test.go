package scheduler_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	schedsdk "github.com/aws/aws-sdk-go-v2/service/scheduler"
	"github.com/aws/aws-sdk-go-v2/service/scheduler/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/compat/scheduler"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// t0 is where every test's virtual clock starts; the SDK client signs as
// account.
var t0 = facetest.AWSStart

const (
	account = facetest.AWSAccount
	role    = "arn:aws:iam::123456789012:role/scheduler"
)

// harness is GridBridge's Scheduler on a virtual clock behind a real HTTP
// server, with the Go SDK pointed at it, and beside it the EventBridge its
// EventBridge targets put events on and the SQS API of its queues, as the
// emulator mounts them.
type harness struct {
	*facetest.AWSFace
	sqs    *sqs.Store
	client *schedsdk.Client
	events *ebsdk.Client
	queues *sqssdk.Client
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	h := &harness{}
	h.AWSFace = facetest.NewAWSFace(t, func(env *facetest.Env) {
		queues := sqs.New(sqs.Config{Clock: env.Clock})
		h.sqs = queues.Store()
		buses := eventbridge.New(eventbridge.Config{Engine: env.Engine, SQS: queues.Queues()})
		buses.Register(env.Router)
		scheduler.New(scheduler.Config{Engine: env.Engine, SQS: queues.Queues(), EventBridge: buses, Seed: 7}).Register(env.Router)
		queues.Register(env.Router)
	})
	h.client = schedsdk.NewFromConfig(h.Config(account, facetest.AWSRegion))
	h.events = ebsdk.NewFromConfig(h.Config(account, facetest.AWSRegion))
	h.queues = sqssdk.NewFromConfig(h.Config(account, facetest.AWSRegion))
	return h
}

func ctx(t testing.TB) context.Context { return facetest.Context(t) }

// startTest marks the test parallel and gives it a harness: how most tests
// begin.
func startTest(t *testing.T) *harness {
	t.Parallel()
	return newHarness(t)
}

func (h *harness) advance(d time.Duration) {
	h.Clock.Advance(d)
	h.Clock.Settle()
}

// delivered returns the journal's deliveries, oldest first.
func (h *harness) delivered() []engine.Entry {
	return h.Entries(engine.Filter{Kind: engine.KindDelivered})
}

// attempts returns the journal's delivery attempts with labels (nil: all).
func (h *harness) attempts(labels map[string]string) []engine.Entry {
	return h.Entries(engine.Filter{Kind: engine.KindAttempt, Labels: labels})
}

// messages returns what queue arn holds in GridBridge's own SQS.
func (h *harness) messages(arn string) []sqssend.Message { return h.sqs.Messages(arn) }

func (h *harness) create(name string, in schedsdk.CreateScheduleInput) {
	h.T.Helper()
	in.Name = aws.String(name)
	if in.FlexibleTimeWindow == nil {
		in.FlexibleTimeWindow = &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeOff}
	}
	if _, err := h.client.CreateSchedule(ctx(h.T), &in); err != nil {
		h.T.Fatal(err)
	}
}

func sqsTarget(arn string) *types.Target {
	return &types.Target{Arn: aws.String(arn), RoleArn: aws.String(role), Input: aws.String(`{"n":1}`)}
}

// apiError asserts err is an API error with code and, unless empty, message.
func apiError(t testing.TB, err error, code, message string) {
	t.Helper()
	facetest.WantAPIError(t, err, code, message)
}
