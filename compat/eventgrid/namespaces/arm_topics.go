package namespaces

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

func (s *Service) topic(w http.ResponseWriter, r *http.Request) {
	v := mux.Vars(r)
	switch r.Method {
	case http.MethodGet:
		s.mu.RLock()
		defer s.mu.RUnlock()
		t, err := s.findTopic(v)
		if err != nil {
			writeARMError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, t.res)
	case http.MethodPut, http.MethodPatch:
		s.putTopic(w, r, v)
	case http.MethodDelete:
		s.deleteTopic(w, v)
	default:
		methodNotAllowed(w, r, "GET, PUT, PATCH, DELETE")
	}
}

func (s *Service) putTopic(w http.ResponseWriter, r *http.Request, v map[string]string) {
	name := v["topic"]
	if r.Method == http.MethodPut {
		if err := armmodel.ValidateName("topic", name); err != nil {
			writeARMError(w, err)
			return
		}
	}
	body, ok := readARMBody(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ns, err := s.findNamespace(v["subscriptionId"], v["resourceGroup"], v["namespace"])
	if err != nil {
		if r.Method == http.MethodPut {
			err = armmodel.ParentNotFound("The parent namespace '%s' of topic '%s' was not found.", v["namespace"], name)
		}
		writeARMError(w, err)
		return
	}
	now := s.clock.Now()
	t := ns.topics[lower(name)]
	switch {
	case t == nil && r.Method == http.MethodPatch:
		writeARMError(w, armmodel.NotFound("The namespace topic '%s' was not found.", name))
	case t == nil:
		res, err := armmodel.NewTopic(body)
		if err != nil {
			writeARMError(w, err)
			return
		}
		res.ID, res.Name, res.SystemData = ns.res.ID+"/topics/"+name, name, armmodel.NewSystemData(now)
		keys, kerr := keysFor(r, newKeyPair())
		if kerr != nil {
			writeARMError(w, kerr)
			return
		}
		ns.topics[lower(name)] = &topicState{ns: ns, res: res, keys: keys, subs: make(map[string]*subscriptionState)}
		writeJSON(w, http.StatusCreated, res)
	default:
		// PUT replaces (omitted settings return to their defaults); PATCH merges.
		var updated armmodel.Topic
		var err *armmodel.Error
		if r.Method == http.MethodPatch {
			updated = t.res
			err = updated.Patch(body)
		} else {
			updated, err = armmodel.NewTopic(body)
		}
		if err != nil {
			writeARMError(w, err)
			return
		}
		keys, kerr := keysFor(r, t.keys)
		if kerr != nil {
			writeARMError(w, kerr)
			return
		}
		updated.ID, updated.Name, updated.SystemData = t.res.ID, t.res.Name, t.res.SystemData.Touch(now)
		t.res, t.keys = updated, keys
		s.retentionChanged(t)
		writeJSON(w, http.StatusOK, t.res)
	}
}

func (s *Service) deleteTopic(w http.ResponseWriter, v map[string]string) {
	s.mu.Lock()
	ns, err := s.findNamespace(v["subscriptionId"], v["resourceGroup"], v["namespace"])
	var t *topicState
	if err == nil {
		t = ns.topics[lower(v["topic"])]
	}
	if t == nil {
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	delete(ns.topics, lower(v["topic"]))
	subs := t.subList
	s.mu.Unlock()
	for _, es := range subs {
		s.stopDelivery(es, reasonTopicDeleted)
	}
	w.WriteHeader(http.StatusOK)
}

func (s *Service) listTopics(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		methodNotAllowed(w, r, "GET")
		return
	}
	v := mux.Vars(r)
	s.mu.RLock()
	defer s.mu.RUnlock()
	ns, err := s.findNamespace(v["subscriptionId"], v["resourceGroup"], v["namespace"])
	if err != nil {
		writeARMError(w, err)
		return
	}
	out := armmodel.List[armmodel.Topic]{Value: []armmodel.Topic{}}
	for _, name := range sortedNames(ns.topics) {
		out.Value = append(out.Value, ns.topics[name].res)
	}
	writeJSON(w, http.StatusOK, out)
}

// findTopic looks a topic up by the ARM path variables.
func (s *Service) findTopic(v map[string]string) (*topicState, *armmodel.Error) {
	ns, err := s.findNamespace(v["subscriptionId"], v["resourceGroup"], v["namespace"])
	if err != nil {
		return nil, err
	}
	if t := ns.topics[lower(v["topic"])]; t != nil {
		return t, nil
	}
	return nil, armmodel.NotFound("The namespace topic '%s' was not found in namespace '%s'.", v["topic"], ns.res.Name)
}
