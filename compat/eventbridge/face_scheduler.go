package eventbridge

import (
	"context"
	"errors"

	"github.com/gridbridge/gridbridge/compat/eventbridge/targets"
	"github.com/gridbridge/gridbridge/compat/scheduler"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// newScheduler builds EventBridge Scheduler beside EventBridge: its SQS
// targets and dead-letter queues use sqs (the sink EventBridge writes to),
// and its EventBridge targets put events on eb's buses.
func newScheduler(cfg FaceConfig, eb *Service, sqs engine.Sink) *scheduler.Service {
	return scheduler.New(scheduler.Config{
		Engine: cfg.Engine,
		SQS:    sqs,
		PutEvent: func(ctx context.Context, busArn string, ev scheduler.BusEvent) error {
			err := eb.Inject(ctx, busArn, InjectedEvent{
				Account: ev.Account, Source: ev.Source, DetailType: ev.DetailType, Detail: ev.Detail, Resources: ev.Resources, Time: ev.Time,
			})
			switch {
			case errors.Is(err, targets.ErrBusNotFound):
				return scheduler.ErrBusNotFound
			case errors.Is(err, targets.ErrNotAnEvent):
				return scheduler.ErrBadEvent
			case errors.Is(err, targets.ErrNotAuthorized):
				return scheduler.ErrNotAuthorized
			}
			return err
		},
		Jitter: cfg.Jitter,
		Seed:   cfg.Seed,
	})
}
