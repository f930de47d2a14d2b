package basicarm

import (
	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

// domainEndpoints are the rows of domains and domain topics; their event
// subscriptions are the rows Endpoints adds for every scope.
func (h *Handler) domainEndpoints(at func(handlerAt) arm.Handler) []arm.Endpoint {
	eps := append(listedEverywhere("domains", at(h.listOfType(resource.TypeDomain))), arm.List(domainPath+"/topics", at(h.listDomainTopics)))
	eps = append(eps, arm.Resource{
		Get: at(h.getTopic), Put: at(h.putDomain), Patch: at(h.patchWith((*resource.Topic).DomainPatched)), Delete: at(h.deleteDomain),
		Actions: []arm.Action{{Name: "listKeys", Handle: at(h.listKeys)}, {Name: "regenerateKey", Handle: at(h.regenerateKey)}},
	}.At(domainPath)...)
	eps = append(eps, arm.Resource{
		Get: at(h.getTopic), Put: at(h.putDomainTopic), Delete: at(h.deleteDomainTopic),
	}.At(domainTopicPath)...)
	return eps
}

// putDomain creates or replaces a domain: a topic's PUT (201 with
// provisioningState Succeeded, the only answer the Go SDK accepts) plus
// autoCreateTopicWithFirstSubscription and autoDeleteTopicWithLastSubscription.
func (h *Handler) putDomain(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	return h.putKeyed(r, tg, tg.Domain, "Domain", resource.DomainFromPut)
}

// deleteDomain removes the domain, its domain topics and every event
// subscription on them; 204 whether or not it existed.
func (h *Handler) deleteDomain(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	h.topicWrites.Lock()
	id := tg.scopeID()
	var removed []removal
	for _, dt := range h.Store.DomainTopics(id) {
		if t, subs := h.Store.DeleteTopic(dt.ID); t != nil {
			removed = append(removed, removal{t, subs})
		}
	}
	if d, subs := h.Store.DeleteTopic(id); d != nil {
		removed = append(removed, removal{d, subs})
	}
	h.topicWrites.Unlock()
	for _, r := range removed {
		if len(r.subs) > 0 {
			h.Hooks.SubscriptionsRemoved(r.topic, r.subs, ReasonDomainDeleted)
		}
	}
	return arm.NoContent(), nil
}

type removal struct {
	topic *resource.Topic
	subs  []*resource.EventSubscription
}

func (h *Handler) listDomainTopics(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	d, err := h.findTopic(tg)
	if err != nil {
		return arm.Response{}, err
	}
	var items []listed
	for _, t := range h.Store.DomainTopics(d.ID) {
		items = append(items, listed{t.Name, h.topicJSON(t)})
	}
	return page(r.Request, items), nil
}

// putDomainTopic creates a domain topic (201; it has no settings, so an
// existing one is answered as it is).
func (h *Handler) putDomainTopic(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	if err := resource.CheckDomainTopicName(tg.Topic); err != nil {
		return arm.Response{}, err
	}
	d := h.Store.Topic(resource.DomainID(tg.SubscriptionID, tg.ResourceGroup, tg.Domain))
	if d == nil {
		return arm.Response{}, resource.NotFound("Microsoft.EventGrid/domains/"+tg.Domain, tg.ResourceGroup)
	}
	t := h.Store.PutTopicIfAbsent(resource.NewDomainTopic(d, tg.Topic, h.Hooks.Now()))
	return arm.Created(h.topicJSON(t)), nil
}

// deleteDomainTopic removes a domain topic and its event subscriptions;
// 204 whether or not it existed.
func (h *Handler) deleteDomainTopic(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	h.topicWrites.Lock()
	t, subs := h.Store.DeleteTopic(tg.scopeID())
	h.topicWrites.Unlock()
	if t != nil && len(subs) > 0 {
		h.Hooks.SubscriptionsRemoved(t, subs, ReasonDomainTopicDeleted)
	}
	return arm.NoContent(), nil
}

// findOrAutoCreateTopic is findTopic for an event subscription PUT: a
// domain topic that does not exist yet is created when its domain has
// autoCreateTopicWithFirstSubscription on (the default).
func (h *Handler) findOrAutoCreateTopic(tg target) (t *resource.Topic, created bool, _ *arm.Error) {
	t, err := h.findTopic(tg)
	if err == nil {
		return t, false, nil
	}
	if tg.StorageAccount != "" {
		return h.autoCreateSystemTopic(tg)
	}
	if tg.Domain == "" || tg.Topic == "" {
		return nil, false, err
	}
	d := h.Store.Topic(resource.DomainID(tg.SubscriptionID, tg.ResourceGroup, tg.Domain))
	if d == nil {
		return nil, false, resource.NotFound("Microsoft.EventGrid/domains/"+tg.Domain, tg.ResourceGroup)
	}
	if !d.AutoCreateTopics {
		return nil, false, arm.NotFound("The domain topic '%s' does not exist in domain '%s', whose autoCreateTopicWithFirstSubscription is false: create the domain topic first.", tg.Topic, tg.Domain)
	}
	if err := resource.CheckDomainTopicName(tg.Topic); err != nil {
		return nil, false, err
	}
	fresh := resource.NewDomainTopic(d, tg.Topic, h.Hooks.Now())
	t = h.Store.PutTopicIfAbsent(fresh)
	return t, t == fresh, nil
}

// autoDeleteDomainTopic deletes domain topic t once its last event
// subscription is gone, when its domain has
// autoDeleteTopicWithLastSubscription on (the default).
func (h *Handler) autoDeleteDomainTopic(t *resource.Topic) {
	if t.Type != resource.TypeDomainTopic || h.Store.CountSubscriptions(t.ID) > 0 {
		return
	}
	if d := h.Store.Topic(t.DomainID); d != nil && d.AutoDeleteTopics {
		h.topicWrites.Lock()
		if h.Store.CountSubscriptions(t.ID) == 0 {
			h.Store.DeleteTopic(t.ID)
		}
		h.topicWrites.Unlock()
	}
}
