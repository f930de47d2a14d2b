package scheduler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/eventbus"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

type targetKind int

const (
	targetRecorded targetKind = iota // Lambda, SNS, Step Functions, universal aws-sdk targets, …
	targetSQS
	targetEventBus
	targetAPIDestination
)

// kindOf tells templated SQS and EventBridge targets from the rest. A
// universal target (arn:aws:scheduler:::aws-sdk:service:action) and every
// other service's ARN is recorded in the journal, where faults reach it.
func kindOf(arn string) (targetKind, bool) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[2] == "" {
		return 0, false
	}
	switch {
	case parts[2] == "sqs":
		return targetSQS, true
	case parts[2] == "events" && strings.HasPrefix(parts[5], "event-bus/"):
		return targetEventBus, true
	case parts[2] == "events" && strings.HasPrefix(parts[5], "api-destination/"):
		return targetAPIDestination, true
	case parts[2] == "scheduler" && !strings.HasPrefix(parts[5], "aws-sdk:"):
		return 0, false
	}
	return targetRecorded, true
}

// invocation is one firing of a schedule: the engine item's Meta.
type invocation struct {
	executionID string
	scheduled   time.Time
	scheduleArn string
	input       string
}

// Scheduler's context attributes, replaced in Input on every attempt.
func (inv *invocation) render(attempt int) string {
	return strings.NewReplacer(
		"<aws.scheduler.scheduled-time>", inv.scheduled.UTC().Format(time.RFC3339),
		"<aws.scheduler.execution-id>", inv.executionID,
		"<aws.scheduler.attempt-number>", strconv.Itoa(attempt),
		"<aws.scheduler.schedule-arn>", inv.scheduleArn,
	).Replace(inv.input)
}

// The error codes a failed invocation reports (ERROR_CODE of its
// dead-letter record), beside the codes SQS refuses a message with, which
// Scheduler passes on. Throttling, server errors and timeouts are retried;
// every other failure is a client error, and is not.
const (
	errNonExistentQueue = "AWS.SimpleQueueService.NonExistentQueue"
	errInvalidParameter = "InvalidParameterValue"
	errNotFound         = "ResourceNotFoundException"
	errValidation       = "ValidationException"
	errAccessDenied     = "AccessDeniedException"
	errThrottling       = "ThrottlingException"
	errInternal         = "InternalServerException"
	errTimeout          = "RequestTimeout"
)

func retryable(code string) bool {
	switch code {
	case errThrottling, errInternal, errTimeout:
		return true
	}
	return false
}

// codeForStatus names an injected fault's outcome from its HTTP status.
func codeForStatus(status int) string {
	switch {
	case status == 400:
		return errValidation
	case status == 401 || status == 403:
		return errAccessDenied
	case status == 404 || status == 410:
		return errNotFound
	case status == 408 || status == 504:
		return errTimeout
	case status == 429:
		return errThrottling
	}
	return errInternal
}

// destination returns what invokes a schedule's target: SQS's destination
// for an SQS target, the bus for an EventBridge target, and the journal for
// the rest. An SQS target's message is sent as Scheduler sends it: in the
// SqsParameters group on a FIFO queue, with no deduplication id, because
// Scheduler requires a FIFO target's queue to have content-based
// deduplication; a queue without it refuses the message.
func (s *Service) destination(sc *sched, key tenantKey) engine.Destination {
	t := sc.set.in.Target
	arn := *t.Arn
	switch sc.set.kind {
	case targetSQS:
		group := t.MessageGroup()
		return sqssend.Destination{
			Queues: s.sqs, QueueArn: arn, Name: sqsFailure,
			Message: func(a *engine.Attempt, it *engine.Item) sqssend.Message {
				inv := it.Meta.(*invocation)
				m := sqssend.Message{Body: []byte(inv.render(a.Number)), AsSent: true}
				if sqssend.IsFIFO(arn) {
					m.MessageGroupID = group
				}
				return m
			},
		}
	case targetEventBus:
		d := &busTarget{arn: arn, account: key.account, buses: s.buses}
		if p := t.EventBridgeParameters; p != nil {
			d.source, d.detailType = deref(p.Source), deref(p.DetailType)
		}
		return d
	}
	return recorded{arn: arn}
}

// sqsFailure names an SQS send failure as SQS would, never with the
// sink's internal text. A message SQS refused (InvalidParameterValue from a
// FIFO queue without content-based deduplication) fails with SQS's own code
// and message, a client error.
func sqsFailure(c sqssend.Cause, err error) (code, message string) {
	switch c {
	case sqssend.CauseTooLarge:
		return errInvalidParameter, sqssend.TooLargeMessage(err)
	case sqssend.CauseQueueMissing:
		return errNonExistentQueue, sqssend.NonExistentQueue
	case sqssend.CauseTimeout:
		return errTimeout, "The request to SQS timed out."
	case sqssend.CauseRejected:
		if name, text, ok := sqssend.Answer(err); ok && name != "" {
			return name, text
		}
		return errValidation, "SQS refused the message."
	}
	return errInternal, "SQS could not be reached or failed to accept the message."
}

// busTarget puts each invocation's input on an EventBridge bus as the
// detail of an event from the schedule's account.
type busTarget struct {
	arn                string
	account            string
	source, detailType string // EventBridgeParameters
	buses              eventbus.Bus
}

func (d *busTarget) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	inv := a.Batch.Items[0].Meta.(*invocation)
	body := inv.render(a.Number)
	o := engine.Outcome{Destination: d.arn, Request: &engine.RecordedRequest{Method: "PutEvents", URL: d.arn, Body: []byte(body)}}
	if !isJSONObject(body) {
		o.Name, o.Message = errValidation, "The Input of an event bus target must be a JSON object: it becomes the event's detail."
		return o
	}
	err := d.buses.Inject(ctx, d.arn, eventbus.Event{
		Account: d.account, Source: d.source, DetailType: d.detailType,
		Detail: []byte(body), Resources: []string{inv.scheduleArn}, Time: inv.scheduled,
	})
	switch {
	case err == nil:
		o.OK = true
	case errors.Is(err, eventbus.ErrBusNotFound):
		o.Name, o.Message = errNotFound, fmt.Sprintf("Event bus %s does not exist.", d.arn)
	case errors.Is(err, eventbus.ErrNotAuthorized):
		o.Name, o.Message = errAccessDenied, fmt.Sprintf("The resource policy of event bus %s does not allow account %s to put events on it.", d.arn, d.account)
	case errors.Is(err, eventbus.ErrNotAnEvent):
		o.Name, o.Message = errValidation, "The event could not be put on the bus: "+err.Error()
	default:
		o.Name, o.Message = errInternal, "PutEvents failed: "+err.Error()
	}
	return o
}

// recorded stands in for every other target: the attempt succeeds unless a
// fault says otherwise, and the journal keeps the request for the
// inspection API.
type recorded struct{ arn string }

func (d recorded) Deliver(_ context.Context, a *engine.Attempt) engine.Outcome {
	inv := a.Batch.Items[0].Meta.(*invocation)
	return engine.Outcome{OK: true, Destination: d.arn,
		Request: &engine.RecordedRequest{Method: "Invoke", URL: d.arn, Body: []byte(inv.render(a.Number))}}
}

// isJSONObject reports whether an EventBridge target's Input can be an
// event's detail.
func isJSONObject(s string) bool {
	var v map[string]json.RawMessage
	return json.Unmarshal([]byte(s), &v) == nil && v != nil
}
