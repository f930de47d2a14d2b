package eventbridge

import (
	"context"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/eventbridge/targets"
	"github.com/gridbridge/gridbridge/compat/eventbridge/transform"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// apiDestinationTimeout is how long EventBridge waits for an API destination
// to answer.
const apiDestinationTimeout = 5 * time.Second

// target is one target of a rule and the engine route that delivers to it.
type target struct {
	shape   *targetShape
	kind    targets.Kind
	spec    transform.Spec
	routeID string
}

func (t *target) id() string  { return deref(t.shape.Id) }
func (t *target) arn() string { return deref(t.shape.Arn) }

func routeID(key tenantKey, bus, rule, targetID string) string {
	return "eventbridge/" + key.account + "/" + key.region + "/" + bus + "/" + rule + "/" + targetID
}

// sqsTargetConcurrency bounds the events of a standard-queue SQS target in
// flight at once.
const sqsTargetConcurrency = 64

// routeLocked builds the engine route of a rule target: where it delivers,
// the retry policy of its RetryPolicy, and its dead-letter queue.
func (s *Service) routeLocked(r *rule, tg *target) *engine.Route {
	var hints *targets.Hints
	var dest engine.Destination
	timeout := time.Duration(0)
	switch tg.kind {
	case targets.SQS:
		dest = sqsTarget(s.sqs, tg.arn(), tg.shape.MessageGroup())
	case targets.APIDestination:
		hints = &targets.Hints{}
		var params targets.HTTPParameters
		if p := tg.shape.HttpParameters; p != nil {
			params = targets.HTTPParameters{
				PathParameterValues: p.PathParameterValues, HeaderParameters: p.HeaderParameters,
				QueryParameters: p.QueryStringParameters,
			}
		}
		dest = targets.Invoke{
			Arn: tg.arn(), Client: s.http, Resolve: s.resolveAPIDestination, Params: params,
			Envelope: envelopeOf, Hints: hints, RecordSecrets: s.engine.RecordSecrets(),
		}
		timeout = apiDestinationTimeout
	case targets.EventBus:
		dest = targets.Forward{BusArn: tg.arn(), Publish: s.forward}
	default:
		dest = targets.Capture{Arn: tg.arn()}
	}

	var maxRetries, maxAge *int32
	if rp := tg.shape.RetryPolicy; rp != nil {
		maxRetries, maxAge = rp.MaximumRetryAttempts, rp.MaximumEventAgeInSeconds
	}
	policy := retry.New(maxRetries, maxAge)
	policy.Jitter = s.jitter
	if hints != nil {
		policy.Hint = hints.Take
	}

	route := &engine.Route{
		ID: tg.routeID,
		Labels: map[string]string{
			"cloud": "eventbridge", "bus": r.bus.name, "rule": r.name, "target": tg.id(),
		},
		Destination:     renderGuard{dest},
		Retry:           policy,
		MaxBatchEvents:  1,
		ResponseTimeout: timeout,
		NameFault:       retry.CodeForStatus,
	}
	if tg.kind == targets.APIDestination {
		route.Pace = s.pace(tg.arn())
	}
	switch {
	case tg.kind == targets.SQS && sqssend.IsFIFO(tg.arn()):
		// One send at a time keeps a FIFO queue in the order PutEvents
		// accepted the events.
		route.Concurrency = 1
	case tg.kind == targets.SQS:
		// Sends are cheap and an external SQS sink batches the writes that
		// wait behind one another, so more of them in flight means fuller
		// SendMessageBatch calls.
		route.Concurrency = sqsTargetConcurrency
	}
	// GridBridge's own queues take a send in-process: the engine makes
	// those attempts one after another instead of a goroutine each.
	route.Inline = tg.kind == targets.SQS && sqssend.InProcess(s.sqs)
	if dlq := tg.shape.DeadLetterArn(); dlq != "" {
		route.DeadLetter = retry.DeadLetterPolicy(s.sqs, retry.DeadLetterTarget{
			QueueArn: dlq, RuleArn: r.arn, TargetArn: tg.arn(), Envelope: envelopeOf,
		})
	}
	return route
}

// sqsTarget sends each event, as its target's input, to the queue. A FIFO
// queue takes it in group (SqsParameters.MessageGroupId) and, as AWS sends
// it, with no deduplication id: EventBridge requires a FIFO target's queue
// to have content-based deduplication, and a queue without it refuses the
// message (a failed invocation with SQS's answer).
func sqsTarget(queues sqssend.Queues, queueArn, group string) sqssend.Destination {
	fifo := sqssend.IsFIFO(queueArn)
	return sqssend.Destination{
		Queues: queues, QueueArn: queueArn,
		Message: func(_ *engine.Attempt, it *engine.Item) sqssend.Message {
			m := sqssend.Message{Body: it.Body, AsSent: true}
			if fifo {
				m.MessageGroupID = group
			}
			return m
		},
		Name: func(c sqssend.Cause, err error) (string, string) { return sqsFailure(c, err, queueArn) },
	}
}

// sqsFailure names a failed send to an SQS target as EventBridge reports
// it: the code of a dead letter's ERROR_CODE, and what SQS would say. SQS's
// own answers are passed on as the Java SDK renders them.
func sqsFailure(c sqssend.Cause, err error, queueArn string) (code, message string) {
	switch c {
	case sqssend.CauseTooLarge:
		// Larger than the queue's MaximumMessageSize: SQS's client error,
		// not retried.
		return retry.CodeSDKClientError, sqssend.TooLargeMessage(err) +
			" (Service: AmazonSQS; Status Code: 400; Error Code: InvalidParameterValue)"
	case sqssend.CauseQueueMissing:
		return retry.CodeNoResource, "The specified queue does not exist or you do not have access to it. " +
			"(Service: AmazonSQS; Status Code: 400; Error Code: AWS.SimpleQueueService.NonExistentQueue)"
	case sqssend.CauseTimeout:
		return retry.CodeTimeout, "Timed out sending the message to the SQS queue " + queueArn + "."
	case sqssend.CauseUnreachable:
		return retry.CodeConnectionFailure, "Unable to connect to SQS to send the message to " + queueArn + "."
	}
	status, message, answered := sqssend.Rendered(c, err)
	if !answered {
		return retry.CodeInternalError, "SQS failed to accept the message for " + queueArn + "."
	}
	// A refusal (InvalidParameterValue: a FIFO queue without content-based
	// deduplication) is a client error, dead-lettered without retries as
	// every 4xx of a target is (SDK_CLIENT_ERROR); throttling and server
	// errors are retried.
	code = retry.CodeForStatus(status)
	if c == sqssend.CauseThrottled {
		code = retry.CodeThrottling
	}
	return code, message
}

// renderGuard reports an event whose target input could not be built (an
// InputPath that matched nothing, a template that produced invalid JSON) as
// a failed invocation that is never retried, so it reaches the dead-letter
// queue or is dropped and counted, never lost silently.
type renderGuard struct{ inner engine.Destination }

func (g renderGuard) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	for _, it := range a.Batch.Items {
		if m, ok := it.Meta.(*itemMeta); ok && m.renderErr != nil {
			return engine.Outcome{Name: retry.CodeInvalidJSON, Message: "The target input could not be built: " + m.renderErr.Error()}
		}
	}
	return g.inner.Deliver(ctx, a)
}
