package eventsv2

import (
	"fmt"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

func (s *Service) createSubscriber(sc scope, in *createSubscriberInput) (subscriberShape, error) {
	cfg, err := newSubscriberConfig(in)
	if err != nil {
		return subscriberShape{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.busLocked(sc, in.EventBusArn, "eventBusArn")
	if err != nil {
		return subscriberShape{}, err
	}
	// Subscriber ARNs do not name their bus, so names are unique in the
	// bus's account and region.
	st := s.scopeLocked(scope{account: b.account, region: b.region})
	if _, exists := st.subscribers[*in.Name]; exists {
		return subscriberShape{}, awsjson.AlreadyExists("Subscriber %s already exists.", *in.Name)
	}
	now := s.clock.Now().UTC()
	sub := newSubscriber(s, b, *in.Name, cfg, now)
	s.engine.PutRoute(sub.route(cfg))
	st.subscribers[sub.name] = sub
	b.subscribers = append(b.subscribers, sub)
	if cfg.window != nil {
		s.replayLocked(sub, cfg, now)
	}
	return cfg.describe(sub), nil
}

// replayLocked hands a new POINT_IN_TIME subscriber the retained events of
// its window, oldest first, marked REPLAY (EB-12, EB-13). Later events of the
// window arrive live.
func (s *Service) replayLocked(sub *subscriber, cfg *subscriberConfig, now time.Time) {
	var items []*engine.Item
	for _, ev := range sub.bus.retained(now) {
		if it, ok := sub.admit(cfg, ev, DeliveryReplay, now); ok {
			items = append(items, it)
		}
	}
	sub.enqueue(items, DeliveryReplay)
}

func (s *Service) describeSubscriber(sc scope, in *nameInput) (subscriberShape, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sub, err := s.subscriberLocked(sc, in.Name)
	if err != nil {
		return subscriberShape{}, err
	}
	return sub.config().describe(sub), nil
}

func (s *Service) listSubscribers(sc scope, in *listSubscribersInput) (listSubscribersOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var onBus *eventBus
	if in.EventBusArn != nil {
		b, err := s.busLocked(sc, in.EventBusArn, "eventBusArn")
		if err != nil {
			return listSubscribersOutput{}, err
		}
		onBus, sc = b, scope{account: b.account, region: b.region}
	}
	var subscribers map[string]*subscriber
	if st := s.scopes[sc]; st != nil {
		subscribers = st.subscribers
	}
	onTheBus := func(sub *subscriber) bool { return onBus == nil || sub.bus == onBus }
	describe := func(sub *subscriber) subscriberShape { return sub.config().describe(sub) }
	items, next, err := listPage(subscribers, onTheBus, in.pageInput, describe)
	if err != nil {
		return listSubscribersOutput{}, err
	}
	return listSubscribersOutput{Subscribers: items, NextToken: next}, nil
}

func (s *Service) updateSubscriber(sc scope, in *updateSubscriberInput) (subscriberShape, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sub, err := s.subscriberLocked(sc, in.Name)
	if err != nil {
		return subscriberShape{}, err
	}
	cfg, err := updatedSubscriberConfig(sub.config(), in)
	if err != nil {
		return subscriberShape{}, err
	}
	sub.cfg.Store(cfg)
	sub.modified = s.clock.Now().UTC()
	s.engine.PutRoute(sub.route(cfg))
	return cfg.describe(sub), nil
}

// deleteSubscriber removes the subscriber and its route. What it still held
// is dropped and journalled with reason RouteDeleted (D-DROP).
func (s *Service) deleteSubscriber(sc scope, in *nameInput) (emptyOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sub, err := s.subscriberLocked(sc, in.Name)
	if err != nil {
		return emptyOutput{}, err
	}
	delete(s.scopes[scope{account: sub.bus.account, region: sub.bus.region}].subscribers, sub.name)
	sub.bus.removeSubscriber(sub)
	sub.close()
	s.engine.RemoveRoute(sub.routeID, engine.ReasonRouteDeleted)
	return emptyOutput{}, nil
}

// subscriberLocked finds a subscriber by name or ARN.
func (s *Service) subscriberLocked(sc scope, nameOrARN *string) (*subscriber, error) {
	var v awsjson.Violations
	awsjson.Require(&v, nameOrARN, "name")
	checkLength(&v, nameOrARN, "name", 1, maxTargetArnLen)
	if err := v.Err(); err != nil {
		return nil, err
	}
	id := *nameOrARN
	var sub *subscriber
	if strings.HasPrefix(id, "arn:") {
		ref, ok := parseEventsARN(id, subscriberResourceType)
		if !ok {
			return nil, invalidParameter("Name", fmt.Sprintf("%s is not a subscriber ARN (arn:aws:events:<region>:<account>:subscriber/<name>/<id>).", id))
		}
		// A stale ARN (of a deleted and re-created subscriber) is not found.
		if sub = s.scopes[ref.scope].subscriberNamed(ref.name); sub != nil && sub.id != ref.id {
			sub = nil
		}
	} else {
		sub = s.scopes[sc].subscriberNamed(id)
	}
	if sub == nil {
		return nil, awsjson.NotFound("Subscriber %s does not exist.", id)
	}
	return sub, nil
}
