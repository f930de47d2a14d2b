package namespaces

import (
	"net/http"

	"github.com/gridbridge/gridbridge/compat/eventgrid/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

func (s *Service) getEventSubscription(r *arm.Request) (arm.Response, *arm.Error) {
	return s.readEventSubscription(r, func(es *subscriptionState) (any, *arm.Error) { return es.res.View(), nil })
}

// getFullURL reveals a push webhook's URL, query included.
func (s *Service) getFullURL(r *arm.Request) (arm.Response, *arm.Error) {
	return s.readEventSubscription(r, func(es *subscriptionState) (any, *arm.Error) { return es.res.FullURL() })
}

// getDeliveryAttributes reveals the delivery attributes, secrets included.
func (s *Service) getDeliveryAttributes(r *arm.Request) (arm.Response, *arm.Error) {
	return s.readEventSubscription(r, func(es *subscriptionState) (any, *arm.Error) { return es.res.DeliveryAttributes(), nil })
}

// readEventSubscription answers 200 with what view makes of the event
// subscription the path names, under the read lock.
func (s *Service) readEventSubscription(r *arm.Request, view func(*subscriptionState) (any, *arm.Error)) (arm.Response, *arm.Error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	es, err := s.findEventSubscription(r)
	if err != nil {
		return arm.Response{}, err
	}
	body, err := view(es)
	if err != nil {
		return arm.Response{}, err
	}
	return arm.OK(body), nil
}

// putEventSubscription answers PUT, which creates or replaces, and PATCH,
// which merges into an existing subscription.
func (s *Service) putEventSubscription(r *arm.Request) (arm.Response, *arm.Error) {
	name := r.Var("eventSubscription")
	body, err := writeBody(r, "event subscription", name)
	if err != nil {
		return arm.Response{}, err
	}
	// Before the lock: the handshake is a network call.
	if err := s.validatePush(r.Request, body); err != nil {
		return arm.Response{}, err
	}
	replace := r.Method == http.MethodPut
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.findTopic(r)
	if err != nil {
		if replace {
			err.Code = arm.CodeParentNotFound
		}
		return arm.Response{}, err
	}
	now := s.clock.Now()
	es := t.subs[lower(name)]
	if es == nil {
		if !replace {
			return arm.Response{}, arm.NotFound("The event subscription '%s' was not found.", name)
		}
		res, set, err := armmodel.NewEventSubscription(body, t.res.Retention())
		if err != nil {
			return arm.Response{}, err
		}
		res.ID, res.Name, res.SystemData = t.res.ID+"/eventSubscriptions/"+name, name, armmodel.NewSystemData(now)
		es = s.newSubscriptionState(t, res)
		s.startDelivery(es, set)
		t.subs[lower(name)] = es
		t.rebuildSubList()
		return arm.Created(es.res.View()), nil
	}
	updated := es.res
	var set armmodel.Settings
	if replace {
		updated, set, err = armmodel.NewEventSubscription(body, t.res.Retention())
		updated.ID, updated.Name = es.res.ID, es.res.Name
	} else {
		set, err = updated.Patch(body, t.res.Retention())
	}
	if err != nil {
		return arm.Response{}, err
	}
	updated.SystemData = es.res.SystemData.Touch(now)
	es.res = updated
	s.updateDelivery(es, set)
	return arm.OK(es.res.View()), nil
}

func (s *Service) deleteEventSubscription(r *arm.Request) (arm.Response, *arm.Error) {
	s.mu.Lock()
	es, err := s.findEventSubscription(r)
	if err != nil {
		s.mu.Unlock()
		return deleted(false)
	}
	t := es.topic
	delete(t.subs, lower(es.res.Name))
	t.rebuildSubList()
	s.mu.Unlock()
	s.stopDelivery(es, reasonSubscriptionDeleted)
	return deleted(true)
}

func (s *Service) listEventSubscriptions(r *arm.Request) (arm.Response, *arm.Error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.findTopic(r)
	if err != nil {
		return arm.Response{}, err
	}
	out := armmodel.List[armmodel.EventSubscription]{Value: []armmodel.EventSubscription{}}
	for _, name := range sortedNames(t.subs) {
		out.Value = append(out.Value, t.subs[name].res.View())
	}
	return arm.OK(out), nil
}

// findEventSubscription looks up the event subscription the path names.
func (s *Service) findEventSubscription(r *arm.Request) (*subscriptionState, *arm.Error) {
	t, err := s.findTopic(r)
	if err != nil {
		return nil, err
	}
	if es := t.subs[lower(r.Var("eventSubscription"))]; es != nil {
		return es, nil
	}
	return nil, arm.NotFound("The event subscription '%s' was not found on namespace topic '%s'.", r.Var("eventSubscription"), t.res.Name)
}
