package engine

import (
	"context"
	"errors"
)

// A DeadLetter is one write to a dead-letter destination: a blob, an SQS
// message, or an entry in the in-memory default. The cloud face decides the
// layout (blob path, record JSON, message attributes); the sink only stores it.
type DeadLetter struct {
	// Destination names where the write goes, in the sink's own terms:
	// "<account>/<container>/<blob path>" for blob sinks, a queue ARN for SQS.
	Destination string `json:"destination"`
	// Body is the bytes to store: a blob's content or an SQS message body.
	Body []byte `json:"-"`
	// ContentType of Body, e.g. "application/json".
	ContentType string `json:"contentType,omitempty"`
	// Attributes travel beside the body where the destination supports it
	// (SQS message attributes, blob metadata).
	Attributes []Attribute `json:"attributes,omitempty"`
	// MessageGroupID and DeduplicationID apply to FIFO queues only.
	MessageGroupID  string `json:"messageGroupId,omitempty"`
	DeduplicationID string `json:"deduplicationId,omitempty"`
	// EventIDs are the events the write carries, for the journal; sinks
	// ignore them.
	EventIDs []string `json:"eventIds,omitempty"`
}

// Attribute is a typed name/value pair; Type is "String" or "Number" as SQS
// message attributes spell it.
type Attribute struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
}

// Sink stores dead letters. Implementations must be safe for concurrent use.
//
// Write returns nil when the dead letter is durably stored, an error wrapping
// ErrDestinationNotFound when the destination does not exist (the cloud drops
// the event at once: EG-22), and any other error for a transient failure that
// the engine retries on the cloud's write-retry schedule (EG-22, NS-7).
type Sink interface {
	Write(ctx context.Context, dl DeadLetter) error
}

// ErrDestinationNotFound marks a permanent dead-letter failure: the container
// or queue does not exist.
var ErrDestinationNotFound = errors.New("dead-letter destination not found")

// SinkFunc adapts a function to Sink.
type SinkFunc func(ctx context.Context, dl DeadLetter) error

// Write implements Sink.
func (f SinkFunc) Write(ctx context.Context, dl DeadLetter) error { return f(ctx, dl) }
