package scheduler_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	schedsdk "github.com/aws/aws-sdk-go-v2/service/scheduler"
	"github.com/aws/aws-sdk-go-v2/service/scheduler/types"
	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/compat/scheduler"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const (
	account = "123456789012"
	role    = "arn:aws:iam::123456789012:role/scheduler"
)

// harness is GridBridge's Scheduler on a virtual clock behind a real HTTP
// server, with the Go SDK pointed at it.
type harness struct {
	t      testing.TB
	clock  *engine.VirtualClock
	engine *engine.Engine
	sqs    *engine.MemorySink
	client *schedsdk.Client
	server *httptest.Server

	mu     sync.Mutex
	events []busCall
	busErr error
}

type busCall struct {
	arn string
	ev  scheduler.BusEvent
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	env := facetest.New(t, facetest.Options{Start: t0})
	h := &harness{t: t, clock: env.Clock, engine: env.Engine, sqs: engine.NewMemorySink()}
	svc := scheduler.New(scheduler.Config{
		Engine: h.engine, SQS: h.sqs, Seed: 7,
		PutEvent: func(_ context.Context, busArn string, ev scheduler.BusEvent) error {
			h.mu.Lock()
			defer h.mu.Unlock()
			if h.busErr != nil {
				return h.busErr
			}
			h.events = append(h.events, busCall{busArn, ev})
			return nil
		},
	})
	svc.Register(env.Router)
	h.server = env.ServeHTTP(t)
	h.client = schedsdk.NewFromConfig(facetest.AWSConfig(h.server.URL, account, "us-east-1", h.server.Client()))
	return h
}

func ctx(t testing.TB) context.Context { return facetest.Context(t) }

func (h *harness) advance(d time.Duration) {
	h.clock.Advance(d)
	h.clock.Settle()
}

// messages returns what reached queue arn in the SQS sink.
func (h *harness) messages(arn string) []engine.DeadLetter {
	var out []engine.DeadLetter
	for _, m := range h.sqs.List() {
		if m.Destination == arn {
			out = append(out, m)
		}
	}
	return out
}

func (h *harness) create(name string, in schedsdk.CreateScheduleInput) {
	h.t.Helper()
	in.Name = aws.String(name)
	if in.FlexibleTimeWindow == nil {
		in.FlexibleTimeWindow = &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeOff}
	}
	if _, err := h.client.CreateSchedule(ctx(h.t), &in); err != nil {
		h.t.Fatal(err)
	}
}

func sqsTarget(arn string) *types.Target {
	return &types.Target{Arn: aws.String(arn), RoleArn: aws.String(role), Input: aws.String(`{"n":1}`)}
}

func apiError(t testing.TB, err error, code, message string) {
	t.Helper()
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("got %v, want %s", err, code)
	}
	if apiErr.ErrorCode() != code || (message != "" && apiErr.ErrorMessage() != message) {
		t.Fatalf("got %s: %q, want %s: %q", apiErr.ErrorCode(), apiErr.ErrorMessage(), code, message)
	}
}
