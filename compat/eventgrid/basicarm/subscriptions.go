package basicarm

import (
	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

func subscriptionNotFound(tg target) *arm.Error {
	return resource.NotFound(tg.scopeName()+"/providers/Microsoft.EventGrid/eventSubscriptions/"+tg.EventSub, tg.ResourceGroup)
}

// findSubscription returns the topic and subscription a path names, or a
// 404.
func (h *Handler) findSubscription(tg target) (*resource.Topic, *resource.EventSubscription, *arm.Error) {
	t, err := h.findTopic(tg)
	if err != nil {
		return nil, nil, err
	}
	sub := h.Store.Subscription(t.ID, tg.EventSub)
	if sub == nil {
		return nil, nil, subscriptionNotFound(tg)
	}
	return t, sub, nil
}

// putSubscription creates or replaces a subscription: validated, then the
// endpoint handshake (in the request, as the service does it), then
// stored; 201 with the masked resource.
func (h *Handler) putSubscription(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	if err := resource.CheckSubscriptionName(tg.EventSub); err != nil {
		return arm.Response{}, err
	}
	body, err := r.ReadBody()
	if err != nil {
		return arm.Response{}, err
	}
	t, created, err := h.findOrAutoCreateTopic(tg)
	if err != nil {
		return arm.Response{}, err
	}
	resp, err := h.putSubscriptionOn(r, tg, t, body)
	if err != nil && created {
		// The domain topic created for this subscription goes with it.
		h.topicWrites.Lock()
		if h.Store.CountSubscriptions(t.ID) == 0 {
			h.Store.DeleteTopic(t.ID)
		}
		h.topicWrites.Unlock()
	}
	return resp, err
}

func (h *Handler) putSubscriptionOn(r *arm.Request, tg target, t *resource.Topic, body []byte) (arm.Response, *arm.Error) {
	prev := h.Store.Subscription(t.ID, tg.EventSub)
	if prev == nil && h.Store.CountSubscriptions(t.ID) >= resource.MaxSubscriptionsPerTopic {
		return arm.Response{}, arm.BadRequest("Topic '%s' already has the maximum of %d event subscriptions.", t.Name, resource.MaxSubscriptionsPerTopic)
	}
	sub, err := resource.SubscriptionFromPut(tg.EventSub, t.ID, body, prev, h.Hooks.Now())
	if err != nil {
		return arm.Response{}, err
	}
	return h.store(r, tg, t, sub, prev)
}

// patchSubscription applies the flat EventSubscriptionUpdateParameters and
// answers 201, the only status the Go SDK accepts for it.
func (h *Handler) patchSubscription(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	body, err := r.ReadBody()
	if err != nil {
		return arm.Response{}, err
	}
	t, prev, err := h.findSubscription(tg)
	if err != nil {
		return arm.Response{}, err
	}
	sub, err := prev.Patched(body, h.Hooks.Now())
	if err != nil {
		return arm.Response{}, err
	}
	return h.store(r, tg, t, sub, prev)
}

// store validates, provisions and stores sub in place of prev.
func (h *Handler) store(r *arm.Request, tg target, t *resource.Topic, sub, prev *resource.EventSubscription) (arm.Response, *arm.Error) {
	if err := sub.Validate(t); err != nil {
		return arm.Response{}, err
	}
	if err := h.Hooks.Provision(provisionContext(r), t, sub, prev); err != nil {
		return arm.Response{}, err
	}
	if !h.Store.PutSubscription(sub, prev) {
		if h.Store.Topic(t.ID) == nil {
			return arm.Response{}, topicNotFound(tg)
		}
		return arm.Response{}, arm.Conflict("The event subscription '%s' was changed by another request while this one ran; retry.", sub.Name)
	}
	h.Hooks.SubscriptionStored(t, sub, prev)
	return arm.Created(sub.JSON(t, tg.ScopeForm)), nil
}

func (h *Handler) getSubscription(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	t, sub, err := h.findSubscription(tg)
	if err != nil {
		return arm.Response{}, err
	}
	return arm.OK(sub.JSON(t, tg.ScopeForm)), nil
}

// deleteSubscription answers 204 whether or not it existed.
func (h *Handler) deleteSubscription(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	t := h.lookup(tg)
	if t != nil {
		if sub := h.Store.DeleteSubscription(t.ID, tg.EventSub, nil); sub != nil {
			h.Hooks.SubscriptionsRemoved(t, []*resource.EventSubscription{sub}, ReasonSubscriptionDeleted)
			h.autoDeleteDomainTopic(t)
		}
	}
	return arm.NoContent(), nil
}

// getFullURL reveals a WebHook's URL, query included: the only way to read
// it back (GET shows endpointUrl null).
func (h *Handler) getFullURL(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	_, sub, err := h.findSubscription(tg)
	if err != nil {
		return arm.Response{}, err
	}
	url := sub.WebHookURL()
	if url == "" {
		return arm.Response{}, arm.BadRequest("getFullUrl is available only for event subscriptions with a WebHook destination.")
	}
	return arm.OK(map[string]string{"endpointUrl": url}), nil
}

// getDeliveryAttributes reveals the delivery attributes, secrets included.
func (h *Handler) getDeliveryAttributes(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	_, sub, err := h.findSubscription(tg)
	if err != nil {
		return arm.Response{}, err
	}
	return arm.OK(sub.DeliveryAttributesJSON()), nil
}
