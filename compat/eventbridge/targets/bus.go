package targets

import (
	"context"
	"errors"

	"github.com/gridbridge/gridbridge/compat/aws/eventbus"
	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Forward sends each event on to another event bus, where that bus's rules
// match it again. Publish fails with eventbus's errors.
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
		case errors.Is(err, eventbus.ErrLoop):
			o.Name = retry.CodeLoopDetected
		case errors.Is(err, eventbus.ErrBusNotFound):
			o.Name = retry.CodeNoResource
		case errors.Is(err, eventbus.ErrNotAnEvent):
			o.Name = retry.CodeInvalidJSON
		case errors.Is(err, eventbus.ErrNotAuthorized):
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
