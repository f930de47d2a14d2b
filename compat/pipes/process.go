package pipes

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/compat/eventbridge/transform"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// A batch goes through the pipe's three steps: the filter drops the
// messages no pattern matches (deleting them from the source), the
// enrichment turns the rest into the events the target receives (or into
// none, which skips the target), and the target takes them. A batch that
// fails in either step stays in the source queue, all of it unless a
// Lambda or Step Functions target reported only some of its messages
// failed (a partial batch failure); the rest is deleted.

// event is one event on its way to the target, with the source message
// it came from.
type event struct {
	src  *record
	body []byte
	// paths is what JSON paths read in it (parsedBody); nil until needed.
	paths []byte
}

func (ev *event) pathDoc() []byte {
	if ev.paths == nil {
		ev.paths = parsedBody(ev.body)
	}
	return ev.paths
}

// process takes one batch through the pipe.
func (r *runner) process(batch []*record) {
	st := r.p.stats
	st.processing(len(batch))
	kept := r.filter(batch)
	if len(kept) == 0 {
		return
	}
	st.count(&st.c.Invocations)
	retryAt := kept[0].visibleAt
	for _, rec := range kept[1:] {
		if rec.visibleAt.Before(retryAt) {
			retryAt = rec.visibleAt
		}
	}
	events, ok := r.enrich(kept, retryAt)
	if !ok {
		st.count(&st.c.EnrichmentStageFailed)
		st.count(&st.c.ExecutionFailed)
		r.failed(kept)
		return
	}
	if len(events) == 0 {
		st.count(&st.c.TargetStageSkipped)
		r.delete(kept)
		st.ended(kept, outFiltered)
		r.svc.journal(r.p, "enrichment", engine.Entry{
			Kind: engine.KindFilter, EventIDs: ids(kept), Outcome: "FilteredOut",
			Message: "The enrichment answered with no event, so the target was not invoked and the messages were deleted.",
		})
		return
	}
	o := r.send(kept, events, retryAt)
	switch {
	case o.OK:
		r.delivered(kept, o)
	case len(o.FailedItems) > 0:
		st.count(&st.c.ExecutionPartiallyFailed)
		failed := map[string]bool{}
		for _, id := range o.FailedItems {
			failed[id] = true
		}
		var ok, bad []*record
		for _, rec := range kept {
			if failed[rec.id] {
				bad = append(bad, rec)
			} else {
				ok = append(ok, rec)
			}
		}
		if len(ok) > 0 {
			r.delivered(ok, o)
		}
		r.failed(bad)
	default:
		st.count(&st.c.TargetStageFailed)
		st.count(&st.c.ExecutionFailed)
		r.failed(kept)
	}
}

func ids(recs []*record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.id
	}
	return out
}

// delete deletes messages the pipe is done with from the source.
func (r *runner) delete(recs []*record) {
	receipts := make([]string, len(recs))
	for i, rec := range recs {
		receipts[i] = rec.receipt
	}
	if err := r.src.Delete(sourceCtx, r.queue, receipts); err != nil {
		r.svc.journal(r.p, "source", engine.Entry{Kind: engine.KindPoll, Outcome: "DeleteFailed", EventIDs: ids(recs), Message: err.Error()})
	}
}

func (r *runner) delivered(recs []*record, o engine.Outcome) {
	r.delete(recs)
	r.p.stats.ended(recs, outDelivered)
	r.svc.journal(r.p, "target", engine.Entry{
		Kind: engine.KindDelivered, EventIDs: ids(recs), Outcome: "Success", Attempt: maxReceives(recs), Destination: r.set.target.arn,
	})
}

// failed leaves a batch in the source, to come back when its visibility
// timeout ends; the attempt's journal entry says when.
func (r *runner) failed(recs []*record) { r.p.stats.ended(recs, outFailed) }

func maxReceives(recs []*record) int {
	n := 0
	for _, r := range recs {
		n = max(n, r.receiveCount)
	}
	return n
}

// filter deletes the messages no filter matches and returns the others.
func (r *runner) filter(batch []*record) []*record {
	if r.set.filters == nil {
		return batch
	}
	var kept, out []*record
	for _, rec := range batch {
		if matched, err := r.set.filters.Match(rec.paths); err == nil && len(matched) > 0 {
			kept = append(kept, rec)
		} else {
			out = append(out, rec)
		}
	}
	if len(out) > 0 {
		r.delete(out)
		r.p.stats.ended(out, outFiltered)
		r.svc.journal(r.p, "filter", engine.Entry{
			Kind: engine.KindFilter, EventIDs: ids(out), Outcome: "FilteredOut",
			Message: "No pattern of the pipe's FilterCriteria matched; the messages were deleted from the source.",
		})
	}
	if len(kept) > 0 {
		r.svc.journal(r.p, "filter", engine.Entry{Kind: engine.KindFilter, EventIDs: ids(kept), Outcome: "Matched"})
	}
	return kept
}

// templateEvent is what a step's InputTemplate is filled from.
func (r *runner) templateEvent(body, paths []byte, src *record) transform.PipeEvent {
	return transform.PipeEvent{Event: body, Paths: paths, Pipe: r.vars(), IngestionTime: src.takenAt}
}

func (r *runner) vars() map[string]string {
	enrichment := ""
	if r.set.enrichment != nil {
		enrichment = r.set.enrichment.arn
	}
	return map[string]string{
		transform.PipeArn: r.p.arn, transform.PipeName: r.p.name, transform.PipeSourceArn: r.queue,
		transform.PipeEnrichmentArn: enrichment, transform.PipeTargetArn: r.set.target.arn,
	}
}

// enrich returns the events the target receives, ok false when the
// enrichment failed.
func (r *runner) enrich(kept []*record, retryAt time.Time) ([]*event, bool) {
	e := r.set.enrichment
	if e == nil {
		out := make([]*event, len(kept))
		for i, rec := range kept {
			out[i] = &event{src: rec, body: rec.event, paths: rec.paths}
		}
		return out, true
	}
	var tpl *string
	if p := r.set.in.EnrichmentParameters; p != nil {
		tpl = p.InputTemplate
	}
	items := make([]*engine.Item, len(kept))
	var renderErr error
	for i, rec := range kept {
		body := rec.event
		if tpl != nil {
			b, err := transform.RenderPipe(*tpl, r.templateEvent(rec.event, rec.paths, rec))
			if err != nil && renderErr == nil {
				renderErr = err
			}
			body = b
		}
		items[i] = &engine.Item{ID: rec.id, Body: body, PublishedAt: rec.takenAt, Meta: rec}
	}
	if renderErr != nil {
		r.call("enrichment", e.arn, items, failing(e.arn, retry.CodeInvalidJSON, "EnrichmentParameters.InputTemplate: "+renderErr.Error()), 0, retryAt)
		return nil, false
	}
	if e.kind == stepLambda || e.kind == stepStepFunctions {
		// One invocation with the batch as a JSON array; the stand-in
		// answers with its input.
		var answer []byte
		o := r.call("enrichment", e.arn, items, capture(e.arn, true, &answer), 0, retryAt)
		if !o.OK {
			return nil, false
		}
		return r.answered(kept[0], answer, kept), true
	}
	var out []*event
	for i, it := range items {
		var answer []byte
		var dest engine.Destination
		timeout := time.Duration(0)
		if e.kind == stepAPIDestination {
			dest, timeout = r.invoke(e.arn, r.enrichmentHTTP(), kept[i].paths, &answer), apiDestinationTimeout
		} else {
			dest = capture(e.arn, false, &answer)
		}
		if o := r.call("enrichment", e.arn, []*engine.Item{it}, dest, timeout, retryAt); !o.OK {
			return nil, false
		}
		out = append(out, r.answered(kept[i], answer, nil)...)
	}
	return out, true
}

func (r *runner) enrichmentHTTP() *httpParameters {
	if p := r.set.in.EnrichmentParameters; p != nil {
		return p.HttpParameters
	}
	return nil
}

// answered turns an enrichment's answer into events, each from src, or,
// for a batch answered as an array of as many events, each from its own
// message. An empty answer ("", {}, [], null) is no event, as AWS takes
// it; text that is not JSON is one string event.
func (r *runner) answered(src *record, answer []byte, batch []*record) []*event {
	var compact bytes.Buffer
	trimmed := bytes.TrimSpace(answer)
	if len(trimmed) == 0 {
		return nil
	}
	if json.Compact(&compact, trimmed) != nil {
		return []*event{{src: src, body: marshal(string(trimmed))}}
	}
	c := compact.Bytes()
	switch string(c) {
	case `""`, `{}`, `[]`, `null`:
		return nil
	}
	if c[0] != '[' {
		return []*event{{src: src, body: c}}
	}
	var items []json.RawMessage
	_ = json.Unmarshal(c, &items) // valid JSON, an array
	out := make([]*event, 0, len(items))
	for i, it := range items {
		from := src
		if len(batch) == len(items) {
			from = batch[i]
		}
		out = append(out, &event{src: from, body: it})
	}
	return out
}

// call makes one attempt of a step through the engine, which applies
// fault rules and the response timeout, and journals it.
func (r *runner) call(stepName, arn string, items []*engine.Item, dest engine.Destination, timeout time.Duration, retryAt time.Time) engine.Outcome {
	route := &engine.Route{
		ID: r.p.routeID, Labels: r.p.labels(stepName), Destination: dest,
		ResponseTimeout: timeout, NameFault: retry.CodeForStatus,
	}
	// The attempt's number is how often its messages were received.
	receives := 0
	for _, it := range items {
		switch m := it.Meta.(type) {
		case *record:
			receives = max(receives, m.receiveCount)
		case *event:
			receives = max(receives, m.src.receiveCount)
		}
	}
	b := &engine.Batch{Items: items, Attempts: max(receives-1, 0)}
	return r.svc.engine.Call(route, b, &retryAt)
}

// failing is a step that fails without being invoked: its input could not
// be built.
func failing(arn, code, message string) engine.Destination {
	return engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
		return engine.Outcome{Name: code, Message: message, Destination: arn}
	})
}

// capture stands in for a Lambda function, Step Functions state machine,
// API Gateway API or other service GridBridge does not call: the journal
// keeps what it was sent, and an enrichment's answer is its input. asArray
// sends the batch as one JSON array, as Lambda and Step Functions receive
// it.
func capture(arn string, asArray bool, answer *[]byte) engine.Destination {
	return engine.DestinationFunc(func(_ context.Context, a *engine.Attempt) engine.Outcome {
		var body []byte
		if asArray {
			body = arrayOf(a.Batch.Items)
		} else {
			body = a.Batch.Items[0].Body
		}
		if answer != nil {
			*answer = body
		}
		return engine.Outcome{OK: true, Destination: arn, Request: &engine.RecordedRequest{Method: "Invoke", URL: arn, Body: body}}
	})
}

// arrayOf is the items' bodies as one JSON array.
func arrayOf(items []*engine.Item) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it.Body)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// maxEnrichmentAnswer is the largest answer an enrichment may give: 6 MB.
const maxEnrichmentAnswer = 6 << 20

// apiDestinationTimeout is how long an API destination has to answer, as
// EventBridge gives its rule targets.
const apiDestinationTimeout = 5 * time.Second
