// Package sqssource is how a GridBridge service reads an SQS queue as a
// source, as an EventBridge pipe reads its SQS source: it takes messages
// into flight, deletes those it has processed, and leaves the rest to come
// back when their visibility timeout ends, so the queue's own redrive
// policy applies to them as on AWS.
//
// GridBridge's own SQS (compat/sqs) implements Queues; the services that
// read queues depend on this package, not on compat/sqs. A reader is told
// when messages may have become visible without time passing (Watch), and
// when the next one becomes visible as time passes (NextVisible), so it can
// poll on the emulator clock: a virtual-clock test sees a message taken at
// the instant it is sent, or at the instant its visibility timeout ends.
package sqssource

import (
	"context"
	"errors"
	"time"
)

// Queues are the SQS queues a reader takes messages from, by ARN.
// Implementations are safe for concurrent use.
type Queues interface {
	// Receive takes up to max visible messages of the queue into flight
	// for the queue's visibility timeout, oldest first (a FIFO queue: in
	// group order, one batch in flight per group), as ReceiveMessage does.
	// Messages whose receive count reached the queue's maxReceiveCount are
	// moved to its dead-letter queue instead and reported in Redriven. A
	// queue that does not exist is ErrNoQueue.
	Receive(ctx context.Context, queueArn string, max int) (Received, error)
	// Delete deletes received messages by receipt handle. A message
	// already gone is no error, as on SQS.
	Delete(ctx context.Context, queueArn string, receiptHandles []string) error
	// Watch calls wake whenever messages may have become visible on the
	// queue without time passing: sent, moved in from another queue, made
	// visible by ChangeMessageVisibility, or the queue created. The queue
	// need not exist yet. wake runs while the queue is locked: it must not
	// call back into Queues, only schedule work. stop ends the watch.
	Watch(queueArn string, wake func()) (stop func())
	// NextVisible reports when the earliest message now delayed or in
	// flight becomes visible, false when none will.
	NextVisible(queueArn string) (time.Time, bool)
	// Holding reports, for each id, whether the queue still holds that
	// message (visible, delayed or in flight); false for a message
	// deleted, expired, purged or moved away, or for a queue that is gone.
	Holding(queueArn string, ids []string) []bool
	// VisibilityTimeout is the queue's visibility timeout: how long a
	// received message stays in flight.
	VisibilityTimeout(queueArn string) (time.Duration, error)
}

// ErrNoQueue is Receive's error for a queue that does not exist.
var ErrNoQueue = errors.New("the queue does not exist")

// Received is what one Receive took.
type Received struct {
	Messages []Message
	// Redriven are the messages the receive moved to the queue's
	// dead-letter queue instead of handing them out.
	Redriven []Redriven
}

// Redriven is a message moved to a dead-letter queue by the source
// queue's redrive policy.
type Redriven struct {
	ID string
	// DeadLetterQueueArn is where it went.
	DeadLetterQueueArn string
	// ReceiveCount is how often it had been received.
	ReceiveCount int
}

// Message is one received message.
type Message struct {
	ID            string
	ReceiptHandle string
	Body          string
	MD5OfBody     string
	// MD5OfMessageAttributes is "" when the message has none.
	MD5OfMessageAttributes string
	// Attributes are its system attributes as ReceiveMessage names them
	// (ApproximateReceiveCount, SentTimestamp, SenderId,
	// ApproximateFirstReceiveTimestamp; MessageGroupId,
	// MessageDeduplicationId and SequenceNumber on a FIFO queue;
	// DeadLetterQueueSourceArn once redriven).
	Attributes        map[string]string
	MessageAttributes map[string]Attribute
	// ReceiveCount is ApproximateReceiveCount, this receive included.
	ReceiveCount int
}

// Attribute is a message attribute: a DataType ("String", "Number",
// "Binary", with an optional ".custom" suffix) and its value.
type Attribute struct {
	DataType    string
	StringValue *string
	BinaryValue []byte
}
