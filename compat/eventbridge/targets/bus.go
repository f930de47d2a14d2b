package targets

import (
	"context"
	"errors"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Errors a bus Publish function reports.
var (
	// ErrLoop: the event already passed through the target bus.
	ErrLoop = errors.New("the event already passed through this event bus")
	// ErrBusNotFound: the target bus does not exist.
	ErrBusNotFound = errors.New("event bus does not exist")
	// ErrNotAnEvent: the target's input is not an event a bus can accept.
	ErrNotAnEvent = errors.New("the target input is not an event: it needs source, detail-type and an object detail")
	// ErrNotAuthorized is a hop into another account's bus whose resource
	// policy does not let the sending account put events on it.
	ErrNotAuthorized = errors.New("the bus's resource policy does not allow the sending account to put events on it")
)

// Forward sends each event on to another event bus, where that bus's rules
// match it again.
type Forward struct {
	BusArn  string
	Publish func(ctx context.Context, busArn string, it *engine.Item) error
}

// Deliver implements engine.Destination.
func (f Forward) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	o := engine.Outcome{
		Destination: f.BusArn,
		Request:     &engine.RecordedRequest{Method: "PutEvents", URL: f.BusArn, Body: batchBody(a.Batch)},
	}
	for _, it := range a.Batch.Items {
		err := f.Publish(ctx, f.BusArn, it)
		switch {
		case err == nil:
			continue
		case errors.Is(err, ErrLoop):
			o.Name = retry.CodeLoopDetected
		case errors.Is(err, ErrBusNotFound):
			o.Name = retry.CodeNoResource
		case errors.Is(err, ErrNotAnEvent):
			o.Name = retry.CodeInvalidJSON
		case errors.Is(err, ErrNotAuthorized):
			o.Name = retry.CodeNoPermissions
		default:
			o.Name = retry.CodeInternalError
		}
		o.Message = "Event bus " + f.BusArn + ": " + err.Error()
		return o
	}
	o.OK = true
	return o
}
