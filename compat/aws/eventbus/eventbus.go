// Package eventbus is what GridBridge's AWS services know of an EventBridge
// event bus from outside it: the event another service puts on a bus on its
// caller's behalf (EventBridge Scheduler's EventBridge targets), the bus
// that takes it, and why a bus refuses an event. compat/eventbridge's
// Service is the Bus; the services that put events on it depend on this
// package, not on compat/eventbridge.
package eventbus

import (
	"context"
	"errors"
	"time"
)

// Event is an event another AWS service puts on a bus.
type Event struct {
	// Account is the account putting the event; a bus of another account
	// takes it only when its resource policy allows that account.
	Account            string
	Source, DetailType string
	// Detail must be a JSON object.
	Detail    []byte
	Resources []string
	// Time is the event's time; zero means when the bus accepts it.
	Time time.Time
}

// Bus puts events on EventBridge buses by ARN, where each bus's rules meet
// them as they meet a PutEvents entry.
type Bus interface {
	// Inject puts ev on the bus busArn. It fails with an error wrapping
	// ErrBusNotFound, ErrNotAnEvent or ErrNotAuthorized, or any other error
	// for a failure worth retrying.
	Inject(ctx context.Context, busArn string, ev Event) error
}

// Why a bus refuses an event.
var (
	// ErrBusNotFound: the bus does not exist.
	ErrBusNotFound = errors.New("event bus does not exist")
	// ErrNotAnEvent: the input is not an event a bus can accept; it needs
	// source, detail-type and an object detail.
	ErrNotAnEvent = errors.New("the target input is not an event: it needs source, detail-type and an object detail")
	// ErrNotAuthorized: the bus belongs to another account whose resource
	// policy does not let the sending account put events on it.
	ErrNotAuthorized = errors.New("the bus's resource policy does not allow the sending account to put events on it")
	// ErrLoop: the event already passed through the bus (a rule forwarding
	// it from bus to bus).
	ErrLoop = errors.New("the event already passed through this event bus")
)
