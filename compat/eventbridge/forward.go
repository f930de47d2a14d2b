package eventbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/aws/eventbus"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// forward is the Publish function of event-bus targets: the target's input,
// which must still be an event, enters the target bus and meets its rules.
// An event never enters a bus it already passed through, so a pair of rules
// forwarding to each other's buses cannot loop.
func (s *Service) forward(_ context.Context, busArn string, it *engine.Item) error {
	key, name, ok := parseBusArn(busArn)
	if !ok {
		return eventbus.ErrBusNotFound
	}
	env, err := forwardedEnvelope(it.Body)
	if err != nil {
		return err
	}
	var hops []string
	if m, ok := it.Meta.(*itemMeta); ok {
		hops = m.ev.hops
	}
	t, b, err := s.lockTargetBus(key, name, busArn)
	if err != nil {
		return err
	}
	if slices.Contains(hops, b.arn) {
		s.mu.Unlock()
		return fmt.Errorf("%w (its path: %v)", eventbus.ErrLoop, hops)
	}
	if len(hops) > 0 {
		// A hop into another account needs that bus's policy to allow the
		// account of the bus the event comes from.
		if from, _, ok := parseBusArn(hops[len(hops)-1]); ok && from.account != key.account && !b.allowsPutEvents(from.account) {
			s.mu.Unlock()
			return fmt.Errorf("%w: account %s on %s", eventbus.ErrNotAuthorized, from.account, b.arn)
		}
	}
	now := s.clock.Now()
	if env.ID == "" {
		env.ID = uuid.NewString()
	}
	if env.Time.IsZero() {
		env.Time = now
	}
	if env.Account == "" {
		env.Account = key.account
	}
	if env.Region == "" {
		env.Region = key.region
	}
	ds := s.acceptOneLocked(t, b, newEvent(env, now, append(slices.Clone(hops), b.arn)))
	s.mu.Unlock()
	s.enqueue(ds)
	return nil
}

// forwardedEnvelope reads a target input back into an event, keeping its
// id, time, account and region as the source bus delivered them.
func forwardedEnvelope(body []byte) (envelope, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil || raw == nil {
		return envelope{}, eventbus.ErrNotAnEvent
	}
	var env envelope
	str := func(key string) string {
		var v string
		_ = json.Unmarshal(raw[key], &v)
		return v
	}
	env.Source, env.DetailType = str("source"), str("detail-type")
	detail, ok := compactObject(string(raw["detail"]))
	if env.Source == "" || env.DetailType == "" || !ok {
		return envelope{}, eventbus.ErrNotAnEvent
	}
	env.Detail = detail
	env.ID, env.Account, env.Region, env.ReplayName = str("id"), str("account"), str("region"), str("replay-name")
	if t, err := time.Parse(time.RFC3339, str("time")); err == nil {
		env.Time = t
	}
	_ = json.Unmarshal(raw["resources"], &env.Resources)
	return env, nil
}

// lockTargetBus takes the service lock and finds the bus an event enters
// (forward, Inject); the caller releases the lock. With no such bus it
// releases the lock itself and answers eventbus.ErrBusNotFound.
func (s *Service) lockTargetBus(key tenantKey, name, busArn string) (*tenant, *bus, error) {
	s.mu.Lock()
	t := s.tenantLocked(key)
	b, ok := t.buses[name]
	if !ok {
		s.mu.Unlock()
		return nil, nil, fmt.Errorf("%w: %s", eventbus.ErrBusNotFound, busArn)
	}
	return t, b, nil
}
