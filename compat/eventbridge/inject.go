package eventbridge

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/eventbridge/targets"
)

// InjectedEvent is an event another AWS service puts on a bus on its
// caller's behalf, as EventBridge Scheduler's EventBridge targets do.
type InjectedEvent struct {
	// Account is the account putting the event; a bus of another account
	// takes it only when its resource policy allows that account.
	Account            string
	Source, DetailType string
	// Detail must be a JSON object.
	Detail    []byte
	Resources []string
	Time      time.Time
}

// Inject puts ev on the bus busArn, where the bus's rules meet it as they
// meet a PutEvents entry. It fails with targets.ErrBusNotFound when the bus
// does not exist, targets.ErrNotAnEvent when Detail is not an object, and
// targets.ErrNotAuthorized when the bus belongs to another account whose
// policy does not let ev.Account in.
func (s *Service) Inject(_ context.Context, busArn string, ev InjectedEvent) error {
	key, name, ok := parseBusArn(busArn)
	if !ok {
		return fmt.Errorf("%w: %s", targets.ErrBusNotFound, busArn)
	}
	detail, ok := compactObject(string(ev.Detail))
	if !ok || ev.Source == "" || ev.DetailType == "" {
		return targets.ErrNotAnEvent
	}
	t, b, err := s.lockTargetBus(key, name, busArn)
	if err != nil {
		return err
	}
	if ev.Account != "" && ev.Account != key.account && !b.allowsPutEvents(ev.Account) {
		s.mu.Unlock()
		return fmt.Errorf("%w: account %s on %s", targets.ErrNotAuthorized, ev.Account, busArn)
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
	ds := s.acceptLocked(t, b, newEvent(env, now, []string{b.arn}))
	s.mu.Unlock()
	s.enqueue(ds)
	return nil
}
