package namespaces

import (
	"net/http"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

func topicView(t *topicState) armmodel.Topic { return t.res }

// putTopic answers PUT, which creates or replaces (omitted settings return
// to their defaults), and PATCH, which merges into an existing topic.
func (s *Service) putTopic(r *arm.Request) (arm.Response, *arm.Error) {
	name := r.Var("topic")
	body, err := writeBody(r, "topic", name)
	if err != nil {
		return arm.Response{}, err
	}
	replace := r.Method == http.MethodPut
	s.mu.Lock()
	defer s.mu.Unlock()
	ns, err := s.findNamespace(r)
	if err != nil {
		if replace {
			err = arm.ParentNotFound("The parent namespace '%s' of topic '%s' was not found.", r.Var("namespace"), name)
		}
		return arm.Response{}, err
	}
	now := s.clock.Now()
	t := ns.topics[lower(name)]
	if t == nil {
		if !replace {
			return arm.Response{}, arm.NotFound("The namespace topic '%s' was not found.", name)
		}
		res, err := armmodel.NewTopic(body)
		if err != nil {
			return arm.Response{}, err
		}
		res.ID, res.Name, res.SystemData = ns.res.ID+"/topics/"+name, name, armmodel.NewSystemData(now)
		keys, err := arm.FixedKeys(r.Request, newKeyPair())
		if err != nil {
			return arm.Response{}, err
		}
		ns.topics[lower(name)] = &topicState{ns: ns, res: res, keys: keys, subs: make(map[string]*subscriptionState)}
		return arm.Created(res), nil
	}
	updated := t.res
	if replace {
		updated, err = armmodel.NewTopic(body)
	} else {
		err = updated.Patch(body)
	}
	if err != nil {
		return arm.Response{}, err
	}
	keys, err := arm.FixedKeys(r.Request, t.keys)
	if err != nil {
		return arm.Response{}, err
	}
	updated.ID, updated.Name, updated.SystemData = t.res.ID, t.res.Name, t.res.SystemData.Touch(now)
	t.res, t.keys = updated, keys
	s.retentionChanged(t)
	return arm.OK(t.res), nil
}

// detachTopic unlinks t from its namespace and returns its event
// subscriptions.
func detachTopic(_ *arm.Request, t *topicState) []*subscriptionState {
	delete(t.ns.topics, lower(t.res.Name))
	return t.subList
}

func listTopics(ns *namespaceState) armmodel.List[armmodel.Topic] {
	return listed(ns.topics, topicView)
}

// findTopic looks up the namespace topic the path names.
func (s *Service) findTopic(r *arm.Request) (*topicState, *arm.Error) {
	ns, err := s.findNamespace(r)
	if err != nil {
		return nil, err
	}
	if t := ns.topics[lower(r.Var("topic"))]; t != nil {
		return t, nil
	}
	return nil, arm.NotFound("The namespace topic '%s' was not found in namespace '%s'.", r.Var("topic"), ns.res.Name)
}
