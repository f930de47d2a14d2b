package sqssend

import (
	"context"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Destination is the engine destination of an SQS target: each event of an
// attempt becomes one message on the queue, in order.
type Destination struct {
	Queues   Queues
	QueueArn string
	// Message builds an item's message on an attempt: its body, attributes
	// and FIFO ids. Destination fills in QueueArn and EventIDs.
	Message func(a *engine.Attempt, it *engine.Item) Message
	// Name names a failed send in the face's own codes: the outcome's Name
	// and Message, as the cloud reports them.
	Name func(c Cause, err error) (code, message string)
}

var _ engine.Destination = Destination{}

// Deliver implements engine.Destination. The attempt records a SendMessage
// of the first event's message, the one a rule or schedule target sends.
func (d Destination) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	var one [1]Message // a rule's or schedule's attempt carries one event
	msgs := one[:0]
	if len(a.Batch.Items) > 1 {
		msgs = make([]Message, 0, len(a.Batch.Items))
	}
	for _, it := range a.Batch.Items {
		m := d.Message(a, it)
		m.QueueArn, m.EventIDs = d.QueueArn, []string{it.ID}
		msgs = append(msgs, m)
	}
	o := engine.Outcome{Destination: d.QueueArn, Request: &engine.RecordedRequest{Method: "SendMessage", URL: d.QueueArn}}
	if len(msgs) > 0 {
		o.Request.Body = msgs[0].Body
	}
	if unsent, err := Send(ctx, d.Queues, msgs); len(unsent) > 0 {
		o.Name, o.Message = d.Name(CauseOf(err), err)
		o.Request.Body = msgs[unsent[0]].Body
		return o
	}
	o.OK = true
	return o
}
