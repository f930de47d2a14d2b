package eventsv2

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventbridge/transform"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// destination delivers a subscriber's batches to its target. Every attempt
// that reaches this far records the request it sent (or would have sent) in
// Outcome.Request, which the engine journals: that is EB-8's
// EVENT_DELIVERY_ATTEMPT log record.
type destination struct{ sub *subscriber }

var _ engine.Destination = destination{}

// invocation is one attempt to deliver a batch.
type invocation struct {
	ctx       context.Context
	sub       *subscriber
	cfg       *subscriberConfig
	items     []*engine.Item
	requestID string
}

// invokeResult is what a target made of an invocation.
type invokeResult struct {
	ok      bool
	code    string // one of EB-8's codes when !ok
	message string
	status  int
	// rejected lists the indexes of the events a target refused when it
	// accepted the others (PARTIAL_BATCH_FAILURE); empty when the whole
	// batch failed or succeeded.
	rejected []int
	request  *engine.RecordedRequest
	// targetRequestID is the target's own id for the request when it gave
	// one (an HTTP response's request id header).
	targetRequestID string
}

// Deliver implements engine.Destination.
func (d destination) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	sub := d.sub
	b := a.Batch
	if a.Number == 1 {
		sub.groups.started(b.Items)
	}
	cfg := sub.config()
	call := &invocation{ctx: ctx, sub: sub, cfg: cfg, items: b.Items, requestID: sub.svc.newID(IDKindRequest)}
	res := call.run()
	requestID := call.requestID
	if res.targetRequestID != "" {
		requestID = res.targetRequestID
	}
	sub.tracker.attempted(b, requestID)
	o := engine.Outcome{
		OK: res.ok, Name: res.code, Status: res.status, Message: res.message,
		Request: res.request, Destination: cfg.invoke.targetArn,
	}
	if res.ok {
		sub.tracker.finish(b)
		sub.groups.done(b.Items)
		return o
	}
	if n := len(res.rejected); n > 0 && n < len(b.Items) {
		sub.acceptPart(a, res.rejected, res.status)
		o.Name = CodePartialBatchFailure
	}
	return o
}

// acceptPart settles the events a target accepted out of a partly failed
// batch: they are journalled as delivered and leave the batch, so retries
// and the dead-letter record carry only the rejected ones (EB-8).
func (sub *subscriber) acceptPart(a *engine.Attempt, rejected []int, status int) {
	b := a.Batch
	refused := make(map[int]bool, len(rejected))
	for _, i := range rejected {
		refused[i] = true
	}
	var kept, accepted []*engine.Item
	for i, it := range b.Items {
		if refused[i] {
			kept = append(kept, it)
		} else {
			accepted = append(accepted, it)
		}
	}
	sub.journal(accepted, engine.Entry{
		Kind: engine.KindDelivered, Attempt: a.Number, Outcome: "Success", Status: status,
		Message: "accepted by the target from a batch it partly refused",
	})
	sub.counts.partialDelivered.Add(uint64(len(accepted)))
	// The engine reads the batch only from this attempt's goroutine until
	// the attempt ends, so narrowing it here is safe.
	b.Items = kept
	sub.groups.done(accepted)
}

// Target kinds, by the shape of TargetArn.
const (
	targetSQS     = "sqs"
	targetHTTP    = "http"
	targetBus     = "bus"
	targetCapture = "capture"
)

func targetKindOf(target string) string {
	if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") {
		return targetHTTP
	}
	a, ok := splitARN(target)
	switch {
	case ok && a.service == "sqs":
		return targetSQS
	case ok && a.service == "events" && strings.HasPrefix(a.resource, busResourceType+"/"):
		return targetBus
	default:
		// Lambda functions, SNS topics, classic buses, …: GridBridge has no
		// such service, so it accepts the call and journals the request.
		return targetCapture
	}
}

func (c *invocation) run() invokeResult {
	payloads, err := c.render()
	if err != nil {
		return invokeResult{
			code: CodeInputTransformationFailure, message: err.Error(),
			request: c.capturedRequest(c.originalEvents()),
		}
	}
	switch targetKindOf(c.cfg.invoke.targetArn) {
	case targetSQS:
		return c.sendToQueue(payloads)
	case targetHTTP:
		return c.post(payloads)
	case targetBus:
		return c.forwardToBus()
	default:
		return invokeResult{ok: true, request: c.capturedRequest(payloads)}
	}
}

// render turns each event into what the target receives: the event, the
// value at Input, or the Transformer's output. An expression that finds no
// value, or a template that yields invalid JSON, fails the batch with
// INPUT_TRANSFORMATION_FAILURE and the expression's error (EB-8).
func (c *invocation) render() ([][]byte, error) {
	inv := c.cfg.invoke
	out := make([][]byte, len(c.items))
	for i, it := range c.items {
		ev := deliveryOf(it).event
		switch {
		case inv.input != "":
			v, ok := transform.Lookup(ev.envelope, inv.input)
			if !ok {
				return nil, fmt.Errorf("Input %s produced no value for event %s.", inv.input, ev.id)
			}
			out[i] = v
		case inv.transformer != nil:
			keys := make([]string, 0, len(inv.transformer.PathsMap))
			for k := range inv.transformer.PathsMap {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				path := inv.transformer.PathsMap[k]
				if _, ok := transform.Lookup(ev.envelope, path); !ok {
					return nil, fmt.Errorf("Transformer InputPathsMap entry %s (%s) produced no value for event %s.", k, path, ev.id)
				}
			}
			body, err := transform.Spec{Transformer: inv.transformer}.Render(transform.Event{
				Envelope: ev.envelope, RuleArn: c.sub.arn, RuleName: c.sub.name, IngestionTime: ev.ingestedAt,
			})
			if err != nil {
				return nil, fmt.Errorf("Transformer failed for event %s: %v.", ev.id, err)
			}
			out[i] = body
		default:
			out[i] = ev.envelope
		}
	}
	return out, nil
}

func (c *invocation) originalEvents() [][]byte {
	out := make([][]byte, len(c.items))
	for i, it := range c.items {
		out[i] = deliveryOf(it).event.envelope
	}
	return out
}

// timedOut reports whether the engine cancelled the attempt because
// InvocationTimeoutSeconds passed on the emulator clock.
func (c *invocation) timedOut() bool {
	return errors.Is(context.Cause(c.ctx), engine.ErrResponseTimeout)
}
