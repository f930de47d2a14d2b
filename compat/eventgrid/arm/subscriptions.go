package arm

import (
	"net/http"

	"github.com/gridbridge/gridbridge/compat/eventgrid/armpath"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

// Event subscriptions answer the same way in both URL forms, nested
// (TopicEventSubscriptionsClient) and extension resource
// (EventSubscriptionsClient), over one store (reference §8, trap 8).
func (h *Handler) subscription(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	switch {
	case tg.Action == "" && r.Method == http.MethodPut:
		h.putSubscription(w, r, tg)
	case tg.Action == "" && r.Method == http.MethodGet:
		h.getSubscription(w, tg)
	case tg.Action == "" && r.Method == http.MethodPatch:
		h.patchSubscription(w, r, tg)
	case tg.Action == "" && r.Method == http.MethodDelete:
		h.deleteSubscription(w, tg)
	case tg.Action == "getFullUrl" && r.Method == http.MethodPost:
		h.getFullURL(w, tg)
	case tg.Action == "getDeliveryAttributes" && r.Method == http.MethodPost:
		h.getDeliveryAttributes(w, tg)
	default:
		methodNotAllowed(w, r)
	}
}

func subscriptionNotFound(tg armpath.Target) *resource.Error {
	return resource.NotFound("Microsoft.EventGrid/topics/"+tg.Topic+"/providers/Microsoft.EventGrid/eventSubscriptions/"+tg.EventSub, tg.ResourceGroup)
}

// findSubscription returns the topic and subscription a path names, or
// answers 404.
func (h *Handler) findSubscription(w http.ResponseWriter, tg armpath.Target) (*resource.Topic, *resource.EventSubscription) {
	t := h.findTopic(w, tg)
	if t == nil {
		return nil, nil
	}
	sub := h.Store.Subscription(t.ID, tg.EventSub)
	if sub == nil {
		writeError(w, subscriptionNotFound(tg))
		return nil, nil
	}
	return t, sub
}

// putSubscription creates or replaces a subscription: validated, then the
// endpoint handshake (in the request, as the service does it), then
// stored; 201 with the masked resource.
func (h *Handler) putSubscription(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	if err := resource.CheckSubscriptionName(tg.EventSub); err != nil {
		writeError(w, err)
		return
	}
	body, err := readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	t := h.findTopic(w, tg)
	if t == nil {
		return
	}
	prev := h.Store.Subscription(t.ID, tg.EventSub)
	if prev == nil && h.Store.CountSubscriptions(t.ID) >= resource.MaxSubscriptionsPerTopic {
		writeError(w, resource.Invalid("Topic '%s' already has the maximum of %d event subscriptions.", t.Name, resource.MaxSubscriptionsPerTopic))
		return
	}
	sub, err := resource.SubscriptionFromPut(tg.EventSub, t.ID, body, prev, h.Hooks.Now())
	if err != nil {
		writeError(w, err)
		return
	}
	h.store(w, r, tg, t, sub, prev)
}

// patchSubscription applies the flat EventSubscriptionUpdateParameters and
// answers 201, the only status the Go SDK accepts for it.
func (h *Handler) patchSubscription(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	body, err := readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	t, prev := h.findSubscription(w, tg)
	if prev == nil {
		return
	}
	sub, err := prev.Patched(body, h.Hooks.Now())
	if err != nil {
		writeError(w, err)
		return
	}
	h.store(w, r, tg, t, sub, prev)
}

// store validates, provisions and stores sub in place of prev.
func (h *Handler) store(w http.ResponseWriter, r *http.Request, tg armpath.Target, t *resource.Topic, sub, prev *resource.EventSubscription) {
	if err := sub.Validate(t); err != nil {
		writeError(w, err)
		return
	}
	if err := h.Hooks.Provision(provisionContext(r), t, sub, prev); err != nil {
		writeError(w, err)
		return
	}
	if !h.Store.PutSubscription(sub, prev) {
		if h.Store.Topic(t.ID) == nil {
			writeError(w, topicNotFound(tg))
			return
		}
		writeError(w, &resource.Error{Status: http.StatusConflict, Code: resource.CodeConflict,
			Message: "The event subscription '" + sub.Name + "' was changed by another request while this one ran; retry."})
		return
	}
	h.Hooks.SubscriptionStored(t, sub, prev)
	writeJSON(w, http.StatusCreated, sub.JSON(t, tg.ScopeForm))
}

func (h *Handler) getSubscription(w http.ResponseWriter, tg armpath.Target) {
	if t, sub := h.findSubscription(w, tg); sub != nil {
		writeJSON(w, http.StatusOK, sub.JSON(t, tg.ScopeForm))
	}
}

// deleteSubscription answers 204 whether or not it existed.
func (h *Handler) deleteSubscription(w http.ResponseWriter, tg armpath.Target) {
	t := h.Store.Topic(resource.TopicID(tg.SubscriptionID, tg.ResourceGroup, tg.Topic))
	if t != nil {
		if sub := h.Store.DeleteSubscription(t.ID, tg.EventSub, nil); sub != nil {
			h.Hooks.SubscriptionsRemoved(t, []*resource.EventSubscription{sub}, ReasonSubscriptionDeleted)
		}
	}
	writeNoContent(w)
}

// getFullURL reveals a WebHook's URL, query included: the only way to read
// it back (GET shows endpointUrl null).
func (h *Handler) getFullURL(w http.ResponseWriter, tg armpath.Target) {
	_, sub := h.findSubscription(w, tg)
	if sub == nil {
		return
	}
	url := sub.WebHookURL()
	if url == "" {
		writeError(w, resource.Invalid("getFullUrl is available only for event subscriptions with a WebHook destination."))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"endpointUrl": url})
}

// getDeliveryAttributes reveals the delivery attributes, secrets included.
func (h *Handler) getDeliveryAttributes(w http.ResponseWriter, tg armpath.Target) {
	if _, sub := h.findSubscription(w, tg); sub != nil {
		writeJSON(w, http.StatusOK, sub.DeliveryAttributesJSON())
	}
}
