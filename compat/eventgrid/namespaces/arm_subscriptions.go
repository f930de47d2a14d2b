package namespaces

import (
	"net/http"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

// The views of an event subscription: as GET shows it (secrets masked),
// its full webhook URL, and its delivery attributes with their secrets.

func subscriptionView(es *subscriptionState) armmodel.EventSubscription { return es.res.View() }

func fullURL(es *subscriptionState) (any, *arm.Error) { return es.res.FullURL() }

func deliveryAttributes(es *subscriptionState) any { return es.res.DeliveryAttributes() }

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

// detachEventSubscription unlinks es from its topic and returns it.
func detachEventSubscription(_ *arm.Request, es *subscriptionState) []*subscriptionState {
	t := es.topic
	delete(t.subs, lower(es.res.Name))
	t.rebuildSubList()
	return []*subscriptionState{es}
}

func listEventSubscriptions(t *topicState) armmodel.List[armmodel.EventSubscription] {
	return listed(t.subs, subscriptionView)
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
