package eventbridge

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/aws/eventbus"
)

var _ eventbus.Bus = (*Service)(nil)

// Inject implements eventbus.Bus: another AWS service puts ev on the bus
// busArn, where the bus's rules meet it as they meet a PutEvents entry. It
// fails with eventbus.ErrBusNotFound when the bus does not exist,
// eventbus.ErrNotAnEvent when Detail is not an object, and
// eventbus.ErrNotAuthorized when the bus belongs to another account whose
// policy does not let ev.Account in.
func (s *Service) Inject(_ context.Context, busArn string, ev eventbus.Event) error {
	key, name, ok := parseBusArn(busArn)
	if !ok {
		return fmt.Errorf("%w: %s", eventbus.ErrBusNotFound, busArn)
	}
	detail, ok := compactObject(string(ev.Detail))
	if !ok || ev.Source == "" || ev.DetailType == "" {
		return eventbus.ErrNotAnEvent
	}
	t, b, err := s.lockTargetBus(key, name, busArn)
	if err != nil {
		return err
	}
	if ev.Account != "" && ev.Account != key.account && !b.allowsPutEvents(ev.Account) {
		s.mu.Unlock()
		return fmt.Errorf("%w: account %s on %s", eventbus.ErrNotAuthorized, ev.Account, busArn)
	}
	now := s.clock.Now()
	at := ev.Time
	if at.IsZero() {
		at = now
	}
	env := envelope{
		ID: uuid.NewString(), DetailType: ev.DetailType, Source: ev.Source, Account: key.account,
		Time: at, Region: key.region, Resources: ev.Resources, Detail: detail,
	}
	ds := s.acceptOneLocked(t, b, newEvent(env, now, []string{b.arn}))
	s.mu.Unlock()
	s.enqueue(ds)
	return nil
}
