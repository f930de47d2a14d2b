package sqssend

import (
	"context"
	"strings"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Message is one SQS message a face sends.
type Message struct {
	// QueueArn names the queue: arn:aws:sqs:<region>:<account>:<name>.
	QueueArn string
	Body     []byte
	// Attributes are SQS message attributes; Type is an SQS data type
	// ("String", "Number", "Binary", or a custom "Number.int").
	Attributes []engine.Attribute
	// MessageGroupID and DeduplicationID apply to FIFO queues only.
	MessageGroupID  string
	DeduplicationID string
	// AsSent sends the message with only the ids above, as the cloud's own
	// SendMessage would: on a FIFO queue without content-based
	// deduplication, a message without a DeduplicationID is refused with
	// SQS's InvalidParameterValue. Without it the queues fill in what a
	// FIFO queue needs (a group, a hash of the body), as GridBridge's dead
	// letters, written where the cloud's internals are not documented,
	// expect.
	AsSent bool
	// EventIDs are the events the message carries, for the journal; queues
	// ignore them.
	EventIDs []string
}

// Queues is an SQS server the faces send to. Implementations are safe for
// concurrent use.
type Queues interface {
	// Send puts m on its queue. An error wrapping
	// engine.ErrDestinationNotFound means the queue does not exist or can
	// never take m, so sending again cannot help; any other error is
	// transient.
	Send(ctx context.Context, m Message) error
}

// InProcess reports whether q takes a message in the calling goroutine,
// waiting on nothing outside the process (GridBridge's own queues, which
// say so with an InProcess method), so that an engine route sending to it
// may make its attempts inline (engine.Route.Inline).
func InProcess(q Queues) bool {
	p, ok := q.(interface{ InProcess() bool })
	return ok && p.InProcess()
}

// IsFIFO reports whether a queue ARN names a FIFO queue.
func IsFIFO(queueArn string) bool { return strings.HasSuffix(queueArn, ".fifo") }

// Send sends msgs, all for one queue, in order, and returns the indexes of
// those not sent and the error of the first failure. On a FIFO queue a
// failure also holds back every message after it: sent, they would overtake
// the failed one in its group.
func Send(ctx context.Context, q Queues, msgs []Message) (unsent []int, err error) {
	for i, m := range msgs {
		if len(unsent) > 0 && IsFIFO(m.QueueArn) {
			unsent = append(unsent, i)
			continue
		}
		if e := q.Send(ctx, m); e != nil {
			unsent = append(unsent, i)
			if err == nil {
				err = e
			}
		}
	}
	return unsent, err
}
