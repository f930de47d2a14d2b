package namespaces

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

// Every ARM change is applied within its request and answered with
// provisioningState Succeeded and no polling headers: a Go Begin… plus
// PollUntilDone then makes exactly one request (reference §5.2).

func (s *Service) namespace(w http.ResponseWriter, r *http.Request) {
	v := mux.Vars(r)
	sub, rg, name := v["subscriptionId"], v["resourceGroup"], v["namespace"]
	switch r.Method {
	case http.MethodGet:
		s.mu.RLock()
		defer s.mu.RUnlock()
		ns, err := s.findNamespace(sub, rg, name)
		if err != nil {
			writeARMError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, s.namespaceView(ns))
	case http.MethodPut:
		s.putNamespace(w, r, sub, rg, name)
	case http.MethodPatch:
		body, ok := readARMBody(w, r)
		if !ok {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		ns, err := s.findNamespace(sub, rg, name)
		if err == nil {
			err = ns.res.Patch(body)
		}
		if err != nil {
			writeARMError(w, err)
			return
		}
		ns.res.SystemData = ns.res.SystemData.Touch(s.clock.Now())
		writeJSON(w, http.StatusOK, s.namespaceView(ns))
	case http.MethodDelete:
		s.deleteNamespace(w, sub, rg, name)
	default:
		methodNotAllowed(w, r, "GET, PUT, PATCH, DELETE")
	}
}

func (s *Service) putNamespace(w http.ResponseWriter, r *http.Request, sub, rg, name string) {
	if err := armmodel.ValidateName("namespace", name); err != nil {
		writeARMError(w, err)
		return
	}
	body, ok := readARMBody(w, r)
	if !ok {
		return
	}
	res, err := armmodel.NewNamespace(body)
	if err != nil {
		writeARMError(w, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	if ns := s.byARM[armKey(sub, rg, name)]; ns != nil {
		keys, err := keysFor(r, ns.keys)
		if err != nil {
			writeARMError(w, err)
			return
		}
		res.ID, res.Name, res.SystemData = ns.res.ID, ns.res.Name, ns.res.SystemData.Touch(now)
		ns.res, ns.keys = res, keys
		writeJSON(w, http.StatusOK, s.namespaceView(ns))
		return
	}
	if other := s.namespaceByName(name); other != nil {
		// The data-plane host name is the namespace name, which Azure makes
		// globally unique; GridBridge keeps it unique per emulator.
		writeARMError(w, &armmodel.Error{Status: http.StatusConflict, Code: armmodel.CodeConflict,
			Message: "The namespace name '" + name + "' is already in use by " + other.res.ID + "."})
		return
	}
	res.ID = "/subscriptions/" + sub + "/resourceGroups/" + rg + "/providers/Microsoft.EventGrid/namespaces/" + name
	res.Name, res.SystemData = name, armmodel.NewSystemData(now)
	keys, kerr := keysFor(r, newKeyPair())
	if kerr != nil {
		writeARMError(w, kerr)
		return
	}
	ns := &namespaceState{res: res, keys: keys, topics: make(map[string]*topicState)}
	s.byARM[armKey(sub, rg, name)] = ns
	s.byName[lower(name)] = ns
	writeJSON(w, http.StatusCreated, s.namespaceView(ns))
}

func (s *Service) deleteNamespace(w http.ResponseWriter, sub, rg, name string) {
	s.mu.Lock()
	ns := s.byARM[armKey(sub, rg, name)]
	if ns == nil {
		s.mu.Unlock()
		// ARM answers a delete of what does not exist with 204.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	delete(s.byARM, armKey(sub, rg, name))
	delete(s.byName, lower(name))
	var subs []*subscriptionState
	for _, t := range ns.topics {
		subs = append(subs, t.subList...)
	}
	s.mu.Unlock()
	for _, es := range subs {
		s.stopDelivery(es, reasonNamespaceDeleted)
	}
	w.WriteHeader(http.StatusOK)
}

func (s *Service) listNamespacesBySubscription(w http.ResponseWriter, r *http.Request) {
	s.listNamespaces(w, r, false)
}

func (s *Service) listNamespacesByResourceGroup(w http.ResponseWriter, r *http.Request) {
	s.listNamespaces(w, r, true)
}

func (s *Service) listNamespaces(w http.ResponseWriter, r *http.Request, byGroup bool) {
	if r.Method != http.MethodGet {
		methodNotAllowed(w, r, "GET")
		return
	}
	v := mux.Vars(r)
	prefix := lower(v["subscriptionId"]) + "/"
	if byGroup {
		prefix += lower(v["resourceGroup"]) + "/"
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := armmodel.List[armmodel.Namespace]{Value: []armmodel.Namespace{}}
	for _, key := range sortedNames(s.byARM) {
		if len(key) > len(prefix) && key[:len(prefix)] == prefix {
			out.Value = append(out.Value, s.namespaceView(s.byARM[key]))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// findNamespace looks a namespace up by its ARM path.
func (s *Service) findNamespace(sub, rg, name string) (*namespaceState, *armmodel.Error) {
	if ns := s.byARM[armKey(sub, rg, name)]; ns != nil {
		return ns, nil
	}
	return nil, armmodel.NotFound("The Resource 'Microsoft.EventGrid/namespaces/%s' under resource group '%s' was not found.", name, rg)
}

// namespaceView is the namespace as the API returns it, with its data-plane
// host name.
func (s *Service) namespaceView(ns *namespaceState) armmodel.Namespace {
	v := ns.res
	v.Properties.TopicsConfiguration.Hostname = s.hostname(ns)
	return v
}
