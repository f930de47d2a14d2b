package pipes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/eventbus"
	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/eventbridge/targets"
	"github.com/gridbridge/gridbridge/compat/eventbridge/transform"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// send invokes the target with the batch's events, each filled into
// TargetParameters.InputTemplate first, and returns the outcome. Targets
// with a batch API (an event bus, SQS, Lambda, Step Functions, SNS,
// Kinesis, Firehose, CloudWatch Logs) are invoked once with the batch; the
// others (API destinations, API Gateway, ECS, Batch, …) once per event, in
// order, the batch failing at the first event that fails.
func (r *runner) send(kept []*record, events []*event, retryAt time.Time) engine.Outcome {
	t := r.set.target
	items := make([]*engine.Item, len(events))
	var renderErr error
	var tpl *string
	if p := r.set.in.TargetParameters; p != nil {
		tpl = p.InputTemplate
	}
	for i, ev := range events {
		body := ev.body
		if tpl != nil {
			b, err := transform.RenderPipe(*tpl, r.templateEvent(ev.body, ev.pathDoc(), ev.src))
			if err != nil && renderErr == nil {
				renderErr = err
			}
			body = b
		}
		items[i] = &engine.Item{ID: ev.src.id, Body: body, PublishedAt: ev.src.takenAt, Meta: ev}
	}
	if renderErr != nil {
		return r.call("target", t.arn, items, failing(t.arn, retry.CodeInvalidJSON, "TargetParameters.InputTemplate: "+renderErr.Error()), 0, retryAt)
	}
	if most := maxTargetBatch(t.kind, t.a); most > 1 && len(items) > most {
		return r.call("target", t.arn, items, failing(t.arn, retry.CodeInvalidParameter,
			fmt.Sprintf("The enrichment returned %d events for %d messages; the target takes at most %d in one invocation, so it was not invoked.", len(items), len(kept), most)), 0, retryAt)
	}
	switch t.kind {
	case stepEventBus:
		return r.call("target", t.arn, items, r.busTarget(), 0, retryAt)
	case stepSQS:
		return r.call("target", t.arn, items, r.sqsTarget(), 0, retryAt)
	case stepLambda, stepStepFunctions:
		return r.call("target", t.arn, items, capture(t.arn, true, nil), 0, retryAt)
	}
	if !batchesToOne(t.kind, t.a) {
		o := r.call("target", t.arn, items, capture(t.arn, true, nil), 0, retryAt)
		o.FailedItems = nil // no partial batch failures but Lambda's and Step Functions'
		return o
	}
	var o engine.Outcome
	for _, it := range items {
		dest, timeout := capture(t.arn, false, nil), time.Duration(0)
		if t.kind == stepAPIDestination {
			dest, timeout = r.invoke(t.arn, r.targetHTTP(), it.Meta.(*event).pathDoc(), nil), apiDestinationTimeout
		}
		if o = r.call("target", t.arn, []*engine.Item{it}, dest, timeout, retryAt); !o.OK {
			o.FailedItems = nil
			return o
		}
	}
	return o
}

func (r *runner) targetHTTP() *httpParameters {
	if p := r.set.in.TargetParameters; p != nil {
		return p.HttpParameters
	}
	return nil
}

// invoke calls an API destination with its connection's auth, as an
// EventBridge rule's target does; answer, when set, receives what it
// answered. Parameters that are JSON paths read paths, the event.
func (r *runner) invoke(arn string, hp *httpParameters, paths []byte, answer *[]byte) engine.Destination {
	var params targets.HTTPParameters
	if hp != nil {
		params = targets.HTTPParameters{HeaderParameters: hp.HeaderParameters, QueryParameters: hp.QueryStringParameters}
		for _, v := range hp.PathParameterValues {
			params.PathParameterValues = append(params.PathParameterValues, dynamic(v, paths))
		}
	}
	resolve := r.svc.cfg.APIDestinations
	if resolve == nil {
		resolve = func(string) (targets.Endpoint, error) { return targets.Endpoint{}, targets.ErrAPIDestinationNotFound }
	}
	inv := targets.Invoke{
		Arn: arn, Client: r.svc.cfg.HTTPClient, Resolve: resolve, Params: params,
		Envelope: func(*engine.Item) []byte { return paths }, RecordSecrets: r.svc.engine.RecordSecrets(),
	}
	if answer != nil {
		inv.Answer, inv.AnswerLimit = func(b []byte) { *answer = b }, maxEnrichmentAnswer
	}
	return inv
}

// dynamic is a parameter's value for one event: a JSON path ($.body.id)
// read from it, any other value as written.
func dynamic(v string, paths []byte) string {
	if !strings.HasPrefix(v, "$.") {
		return v
	}
	raw, ok := transform.LookupPipe(paths, v)
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// sqsTarget sends each event as one message, with the FIFO message group
// and deduplication id of TargetParameters.SqsQueueParameters (JSON paths
// read from the event) and no other: without a MessageDeduplicationId a
// FIFO queue without content-based deduplication refuses the message, as
// it refuses AWS's pipe.
func (r *runner) sqsTarget() engine.Destination {
	var group, dedup string
	if p := r.set.in.TargetParameters; p != nil && p.SqsQueueParameters != nil {
		group, dedup = deref(p.SqsQueueParameters.MessageGroupId), deref(p.SqsQueueParameters.MessageDeduplicationId)
	}
	fifo := sqssend.IsFIFO(r.set.target.arn)
	return sqssend.Destination{
		Queues: r.svc.cfg.SQS, QueueArn: r.set.target.arn, Name: sqsFailure,
		Message: func(_ *engine.Attempt, it *engine.Item) sqssend.Message {
			m := sqssend.Message{Body: it.Body, AsSent: true}
			if fifo {
				paths := it.Meta.(*event).pathDoc()
				m.MessageGroupID, m.DeduplicationID = dynamic(group, paths), dynamic(dedup, paths)
			}
			return m
		},
	}
}

// sqsFailure names an SQS send failure as EventBridge's targets do; a
// refusal SQS answered (InvalidParameterValue: a FIFO message without a
// deduplication id on a queue without content-based deduplication) is
// passed on as they pass it, a client error (SDK_CLIENT_ERROR) with SQS's
// answer.
func sqsFailure(c sqssend.Cause, err error) (code, message string) {
	switch c {
	case sqssend.CauseTooLarge:
		return retry.CodeSDKClientError, sqssend.TooLargeMessage(err)
	case sqssend.CauseQueueMissing:
		return retry.CodeNoResource, sqssend.NonExistentQueue
	case sqssend.CauseTimeout:
		return retry.CodeTimeout, "The request to SQS timed out."
	case sqssend.CauseThrottled:
		return retry.CodeThrottling, "SQS throttled the request."
	case sqssend.CauseAccessDenied:
		return retry.CodeNoPermissions, "SQS refused the pipe's request."
	}
	if status, message, answered := sqssend.Rendered(c, err); answered {
		return retry.CodeForStatus(status), message
	}
	return retry.CodeInternalError, "SQS could not be reached or failed to accept the message."
}

// busTarget puts each event on the event bus as the detail of an event,
// as PutEvents does, through the same accept path as every event entering
// a bus: DetailType and Source from EventBridgeEventBusParameters (JSON
// paths read from the event), "Event from aws:sqs" and "Pipe <name>" by
// default, as AWS names them.
func (r *runner) busTarget() engine.Destination {
	var bp busParameters
	if p := r.set.in.TargetParameters; p != nil && p.EventBridgeEventBusParameters != nil {
		bp = *p.EventBridgeEventBusParameters
	}
	arn, account, name := r.set.target.arn, r.p.key.account, r.p.name
	buses := r.svc.cfg.EventBridge
	return engine.DestinationFunc(func(ctx context.Context, a *engine.Attempt) engine.Outcome {
		o := engine.Outcome{Destination: arn, Request: &engine.RecordedRequest{Method: "PutEvents", URL: arn, Body: arrayOf(a.Batch.Items)}}
		if buses == nil {
			o.Name, o.Message = retry.CodeNoResource, fmt.Sprintf("Event bus %s does not exist.", arn)
			return o
		}
		for _, it := range a.Batch.Items {
			paths := it.Meta.(*event).pathDoc()
			ev := eventbus.Event{
				Account: account, Source: "Pipe " + name, DetailType: "Event from aws:sqs", Detail: it.Body, Resources: []string{},
			}
			if bp.Source != nil {
				ev.Source = dynamic(*bp.Source, paths)
			}
			if bp.DetailType != nil {
				ev.DetailType = dynamic(*bp.DetailType, paths)
			}
			for _, res := range bp.Resources {
				ev.Resources = append(ev.Resources, dynamic(res, paths))
			}
			if bp.Time != nil {
				if t, err := time.Parse(time.RFC3339, dynamic(*bp.Time, paths)); err == nil {
					ev.Time = t
				}
			}
			if err := buses.Inject(ctx, arn, ev); err != nil {
				o.Name, o.Message = busFailure(arn, account, err)
				return o
			}
		}
		o.OK = true
		return o
	})
}

func busFailure(arn, account string, err error) (code, message string) {
	switch {
	case errors.Is(err, eventbus.ErrBusNotFound):
		return retry.CodeNoResource, fmt.Sprintf("Event bus %s does not exist.", arn)
	case errors.Is(err, eventbus.ErrNotAuthorized):
		return retry.CodeNoPermissions, fmt.Sprintf("The resource policy of event bus %s does not allow account %s to put events on it.", arn, account)
	case errors.Is(err, eventbus.ErrNotAnEvent):
		return retry.CodeInvalidJSON, "The event could not be put on the bus: its detail must be a JSON object, and its source and detail type must not be empty."
	}
	return retry.CodeInternalError, "PutEvents failed: " + err.Error()
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
