package namespaces

import (
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

func (s *Service) patchNamespace(r *arm.Request) (arm.Response, *arm.Error) {
	body, err := r.ReadBody()
	if err != nil {
		return arm.Response{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ns, err := s.findNamespace(r)
	if err == nil {
		err = ns.res.Patch(body)
	}
	if err != nil {
		return arm.Response{}, err
	}
	ns.res.SystemData = ns.res.SystemData.Touch(s.clock.Now())
	return arm.OK(s.namespaceView(ns)), nil
}

func (s *Service) putNamespace(r *arm.Request) (arm.Response, *arm.Error) {
	sub, rg, name := r.Var("subscriptionId"), r.Var("resourceGroup"), r.Var("namespace")
	body, err := writeBody(r, "namespace", name)
	if err != nil {
		return arm.Response{}, err
	}
	res, err := armmodel.NewNamespace(body)
	if err != nil {
		return arm.Response{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	if ns := s.byARM[armKey(sub, rg, name)]; ns != nil {
		keys, err := arm.FixedKeys(r.Request, ns.keys)
		if err != nil {
			return arm.Response{}, err
		}
		res.ID, res.Name, res.SystemData = ns.res.ID, ns.res.Name, ns.res.SystemData.Touch(now)
		ns.res, ns.keys = res, keys
		return arm.OK(s.namespaceView(ns)), nil
	}
	if other := s.namespaceByName(name); other != nil {
		// The data-plane host name is the namespace name, which Azure makes
		// globally unique; GridBridge keeps it unique per emulator.
		return arm.Response{}, arm.Conflict("The namespace name '%s' is already in use by %s.", name, other.res.ID)
	}
	res.ID = "/subscriptions/" + sub + "/resourceGroups/" + rg + "/providers/Microsoft.EventGrid/namespaces/" + name
	res.Name, res.SystemData = name, armmodel.NewSystemData(now)
	keys, err := arm.FixedKeys(r.Request, newKeyPair())
	if err != nil {
		return arm.Response{}, err
	}
	ns := &namespaceState{res: res, keys: keys, topics: make(map[string]*topicState)}
	s.byARM[armKey(sub, rg, name)] = ns
	s.byName[lower(name)] = ns
	return arm.Created(s.namespaceView(ns)), nil
}

// detachNamespace unlinks the namespace r names and returns its event
// subscriptions.
func (s *Service) detachNamespace(r *arm.Request, ns *namespaceState) []*subscriptionState {
	delete(s.byARM, armKey(r.Var("subscriptionId"), r.Var("resourceGroup"), r.Var("namespace")))
	delete(s.byName, lower(ns.res.Name))
	var subs []*subscriptionState
	for _, t := range ns.topics {
		subs = append(subs, t.subList...)
	}
	return subs
}

// listNamespaces lists by Azure subscription, or by resource group when the
// path has one.
func (s *Service) listNamespaces(r *arm.Request) (arm.Response, *arm.Error) {
	prefix := lower(r.Var("subscriptionId")) + "/"
	if rg := r.Var("resourceGroup"); rg != "" {
		prefix += lower(rg) + "/"
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := armmodel.List[armmodel.Namespace]{Value: []armmodel.Namespace{}}
	for _, key := range sortedNames(s.byARM) {
		if len(key) > len(prefix) && strings.HasPrefix(key, prefix) {
			out.Value = append(out.Value, s.namespaceView(s.byARM[key]))
		}
	}
	return arm.OK(out), nil
}

// findNamespace looks up the namespace the path names.
func (s *Service) findNamespace(r *arm.Request) (*namespaceState, *arm.Error) {
	name, rg := r.Var("namespace"), r.Var("resourceGroup")
	if ns := s.byARM[armKey(r.Var("subscriptionId"), rg, name)]; ns != nil {
		return ns, nil
	}
	return nil, arm.NotFound("The Resource 'Microsoft.EventGrid/namespaces/%s' under resource group '%s' was not found.", name, rg)
}

// namespaceView is the namespace as the API returns it, with its data-plane
// host name.
func (s *Service) namespaceView(ns *namespaceState) armmodel.Namespace {
	v := ns.res
	v.Properties.TopicsConfiguration.Hostname = s.hostname(ns)
	return v
}
