package namespaces

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

func (s *Service) eventSubscription(w http.ResponseWriter, r *http.Request) {
	v := mux.Vars(r)
	switch r.Method {
	case http.MethodGet:
		s.mu.RLock()
		defer s.mu.RUnlock()
		es, err := s.findEventSubscription(v)
		if err != nil {
			writeARMError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, es.res.View())
	case http.MethodPut, http.MethodPatch:
		s.putEventSubscription(w, r, v)
	case http.MethodDelete:
		s.deleteEventSubscription(w, v)
	default:
		methodNotAllowed(w, r, "GET, PUT, PATCH, DELETE")
	}
}

func (s *Service) putEventSubscription(w http.ResponseWriter, r *http.Request, v map[string]string) {
	name := v["eventSubscription"]
	if r.Method == http.MethodPut {
		if err := armmodel.ValidateName("event subscription", name); err != nil {
			writeARMError(w, err)
			return
		}
	}
	body, ok := readARMBody(w, r)
	if !ok {
		return
	}
	// Before the lock: the handshake is a network call.
	if err := s.validatePush(r, body); err != nil {
		writeARMError(w, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.findTopic(v)
	if err != nil {
		if r.Method == http.MethodPut {
			err.Code = armmodel.CodeParentNotFound
		}
		writeARMError(w, err)
		return
	}
	now := s.clock.Now()
	es := t.subs[lower(name)]
	switch {
	case es == nil && r.Method == http.MethodPatch:
		writeARMError(w, armmodel.NotFound("The event subscription '%s' was not found.", name))
	case es == nil:
		res, set, err := armmodel.NewEventSubscription(body, t.res.Retention())
		if err != nil {
			writeARMError(w, err)
			return
		}
		res.ID, res.Name, res.SystemData = t.res.ID+"/eventSubscriptions/"+name, name, armmodel.NewSystemData(now)
		es = s.newSubscriptionState(t, res)
		s.startDelivery(es, set)
		t.subs[lower(name)] = es
		t.rebuildSubList()
		writeJSON(w, http.StatusCreated, es.res.View())
	default:
		updated := es.res
		var set armmodel.Settings
		if r.Method == http.MethodPut {
			updated, set, err = armmodel.NewEventSubscription(body, t.res.Retention())
			updated.ID, updated.Name = es.res.ID, es.res.Name
		} else {
			set, err = updated.Patch(body, t.res.Retention())
		}
		if err != nil {
			writeARMError(w, err)
			return
		}
		updated.SystemData = es.res.SystemData.Touch(now)
		es.res = updated
		s.updateDelivery(es, set)
		writeJSON(w, http.StatusOK, es.res.View())
	}
}

func (s *Service) deleteEventSubscription(w http.ResponseWriter, v map[string]string) {
	s.mu.Lock()
	t, err := s.findTopic(v)
	var es *subscriptionState
	if err == nil {
		es = t.subs[lower(v["eventSubscription"])]
	}
	if es == nil {
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	delete(t.subs, lower(v["eventSubscription"]))
	t.rebuildSubList()
	s.mu.Unlock()
	s.stopDelivery(es, reasonSubscriptionDeleted)
	w.WriteHeader(http.StatusOK)
}

func (s *Service) eventSubscriptionAction(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, r, "POST")
		return
	}
	v := mux.Vars(r)
	s.mu.RLock()
	defer s.mu.RUnlock()
	es, err := s.findEventSubscription(v)
	if err != nil {
		writeARMError(w, err)
		return
	}
	if lower(v["action"]) == "getfullurl" {
		url, err := es.res.FullURL()
		if err != nil {
			writeARMError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, url)
		return
	}
	writeJSON(w, http.StatusOK, es.res.DeliveryAttributes())
}

func (s *Service) listEventSubscriptions(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		methodNotAllowed(w, r, "GET")
		return
	}
	v := mux.Vars(r)
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.findTopic(v)
	if err != nil {
		writeARMError(w, err)
		return
	}
	out := armmodel.List[armmodel.EventSubscription]{Value: []armmodel.EventSubscription{}}
	for _, name := range sortedNames(t.subs) {
		out.Value = append(out.Value, t.subs[name].res.View())
	}
	writeJSON(w, http.StatusOK, out)
}

// findEventSubscription looks a subscription up by the ARM path variables.
func (s *Service) findEventSubscription(v map[string]string) (*subscriptionState, *armmodel.Error) {
	t, err := s.findTopic(v)
	if err != nil {
		return nil, err
	}
	if es := t.subs[lower(v["eventSubscription"])]; es != nil {
		return es, nil
	}
	return nil, armmodel.NotFound("The event subscription '%s' was not found on namespace topic '%s'.", v["eventSubscription"], t.res.Name)
}
