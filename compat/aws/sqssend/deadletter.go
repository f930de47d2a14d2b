package sqssend

import (
	"context"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// deadLetterWriteWaits are the waits before each new try of a dead-letter
// write that failed (the SQS server down or slow). They are short, because
// AWS gives up on a failing dead-letter queue quickly and counts the event
// as lost (InvocationsFailedToBeSentToDLQ, EB-11); after the last the
// engine drops the events with the reason in the journal. A queue that does
// not exist is given up at once.
var deadLetterWriteWaits = [...]time.Duration{time.Second, 5 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute}

// MaxDeadLetterWrites is how many failed writes of one dead letter
// DeadLetterPolicy retries.
const MaxDeadLetterWrites = len(deadLetterWriteWaits)

// DeadLetterPolicy returns the engine policy that writes the messages build
// returns for a batch given up to q, retrying a failed write on
// deadLetterWriteWaits.
func DeadLetterPolicy(q Queues, build func(b *engine.Batch, reason string, now time.Time) ([]Message, error)) *engine.DeadLetterPolicy {
	return &engine.DeadLetterPolicy{
		Sink:       deadLetterSink{q},
		RetryAfter: retryDeadLetterWrite,
		Build: func(b *engine.Batch, reason string, now time.Time) ([]engine.DeadLetter, error) {
			msgs, err := build(b, reason, now)
			if err != nil {
				return nil, err
			}
			out := make([]engine.DeadLetter, len(msgs))
			for i, m := range msgs {
				out[i] = engine.DeadLetter{
					Destination: m.QueueArn, Body: m.Body, ContentType: "application/json", Attributes: m.Attributes,
					MessageGroupID: m.MessageGroupID, DeduplicationID: m.DeduplicationID, EventIDs: m.EventIDs,
				}
			}
			return out, nil
		},
	}
}

func retryDeadLetterWrite(n int, _ time.Duration) (time.Duration, bool) {
	if n < 1 || n > len(deadLetterWriteWaits) {
		return 0, false
	}
	return deadLetterWriteWaits[n-1], true
}

// deadLetterSink writes the engine's dead letters as messages to its queues.
type deadLetterSink struct{ q Queues }

func (s deadLetterSink) Write(ctx context.Context, dl engine.DeadLetter) error {
	return s.q.Send(ctx, Message{
		QueueArn: dl.Destination, Body: dl.Body, Attributes: dl.Attributes,
		MessageGroupID: dl.MessageGroupID, DeduplicationID: dl.DeduplicationID, EventIDs: dl.EventIDs,
	})
}
