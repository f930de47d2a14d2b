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
// dead-letter record). Client errors are not retried; the rest are.
const (
	errNonExistentQueue = "AWS.SimpleQueueService.NonExistentQueue"
	errNotFound         = "ResourceNotFoundException"
	errValidation       = "ValidationException"
	errAccessDenied     = "AccessDeniedException"
	errThrottling       = "ThrottlingException"
	errInternal         = "InternalServerException"
	errTimeout          = "RequestTimeout"
)

func retryable(code string) bool {
	switch code {
	case errNonExistentQueue, errNotFound, errValidation, errAccessDenied:
		return false
	}
	return true
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

// destination invokes a schedule's target.
type destination struct {
	kind    targetKind
	arn     string
	group   string // SqsParameters.MessageGroupId
	source  string // EventBridgeParameters
	detail  string
	account string
	sqs     engine.Sink
	buses   eventbus.Bus
}

func (d *destination) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	it := a.Batch.Items[0]
	inv := it.Meta.(*invocation)
	body := inv.render(a.Number)
	o := engine.Outcome{Destination: d.arn}
	switch d.kind {
	case targetSQS:
		o.Request = &engine.RecordedRequest{Method: "SendMessage", URL: d.arn, Body: []byte(body)}
		msg := engine.DeadLetter{Destination: d.arn, Body: []byte(body), ContentType: "application/json", EventIDs: []string{it.ID}}
		if strings.HasSuffix(d.arn, ".fifo") {
			msg.MessageGroupID, msg.DeduplicationID = d.group, inv.executionID
		}
		if err := d.sqs.Write(ctx, msg); err != nil {
			o.Name, o.Message = sqsFailure(err)
			return o
		}
	case targetEventBus:
		o.Request = &engine.RecordedRequest{Method: "PutEvents", URL: d.arn, Body: []byte(body)}
		if !isJSONObject(body) {
			o.Name, o.Message = errValidation, "The Input of an event bus target must be a JSON object: it becomes the event's detail."
			return o
		}
		err := d.buses.Inject(ctx, d.arn, eventbus.Event{
			Account: d.account, Source: d.source, DetailType: d.detail,
			Detail: []byte(body), Resources: []string{inv.scheduleArn}, Time: inv.scheduled,
		})
		switch {
		case err == nil:
		case errors.Is(err, eventbus.ErrBusNotFound):
			o.Name, o.Message = errNotFound, fmt.Sprintf("Event bus %s does not exist.", d.arn)
			return o
		case errors.Is(err, eventbus.ErrNotAuthorized):
			o.Name, o.Message = errAccessDenied, fmt.Sprintf("The resource policy of event bus %s does not allow account %s to put events on it.", d.arn, d.account)
			return o
		case errors.Is(err, eventbus.ErrNotAnEvent):
			o.Name, o.Message = errValidation, "The event could not be put on the bus: "+err.Error()
			return o
		default:
			o.Name, o.Message = errInternal, "PutEvents failed: "+err.Error()
			return o
		}
	default:
		// Recorded: the journal keeps the request for the inspection API.
		o.Request = &engine.RecordedRequest{Method: "Invoke", URL: d.arn, Body: []byte(body)}
	}
	o.OK = true
	return o
}

// sqsFailure names an SQS write failure as SQS would, never with the
// sink's internal text.
func sqsFailure(err error) (code, message string) {
	switch {
	case errors.Is(err, engine.ErrDestinationNotFound):
		return errNonExistentQueue, "The specified queue does not exist."
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, engine.ErrResponseTimeout):
		return errTimeout, "The request to SQS timed out."
	}
	return errInternal, "SQS could not be reached or failed to accept the message."
}

// isJSONObject reports whether an EventBridge target's Input can be an
// event's detail.
func isJSONObject(s string) bool {
	var v map[string]json.RawMessage
	return json.Unmarshal([]byte(s), &v) == nil && v != nil
}
