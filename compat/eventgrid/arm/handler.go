package arm

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/armpath"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

// Hooks is what the ARM face needs from the rest of GridBridge: time, ids,
// topic endpoints, and the side effects of event subscriptions (the
// validation handshake, delivery routes).
type Hooks interface {
	Now() time.Time
	NewID() string
	// NewKey makes a topic access key.
	NewKey() string
	// TopicEndpoint is the publish URL advertised in properties.endpoint.
	TopicEndpoint(t *resource.Topic) string
	// Provision is called for a subscription about to be stored (prev is
	// the one it replaces, or nil). It validates the endpoint when needed
	// and sets ProvisioningState and ValidationCode; an error refuses the
	// request.
	Provision(ctx context.Context, t *resource.Topic, sub, prev *resource.EventSubscription) *resource.Error
	// SubscriptionStored is told of a subscription that was stored.
	SubscriptionStored(t *resource.Topic, sub, prev *resource.EventSubscription)
	// SubscriptionsRemoved is told of subscriptions that were deleted.
	SubscriptionsRemoved(t *resource.Topic, subs []*resource.EventSubscription, reason string)
}

// Reasons given to SubscriptionsRemoved.
const (
	ReasonSubscriptionDeleted = "EventSubscriptionDeleted"
	ReasonTopicDeleted        = "TopicDeleted"
)

// Handler serves the ARM paths armpath recognises.
type Handler struct {
	Store *resource.Store
	Hooks Hooks
	// topicWrites serialises read-modify-write of topics (PATCH,
	// regenerateKey), so concurrent updates are not lost.
	topicWrites sync.Mutex
}

// Matches reports whether r is for a path this handler serves; the
// service mounts it with a gorilla/mux MatcherFunc.
func (h *Handler) Matches(r *http.Request) bool {
	_, ok := armpath.Parse(r.URL.EscapedPath())
	return ok
}

// ServeHTTP dispatches on the parsed path and the method.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t, ok := armpath.Parse(r.URL.EscapedPath())
	if !ok {
		writeError(w, &resource.Error{Status: http.StatusNotFound, Code: "NotFound", Message: "GridBridge serves no Event Grid resource at " + r.URL.Path + "."})
		return
	}
	switch t.Kind {
	case armpath.Provider:
		h.provider(w, r, t)
	case armpath.Topics:
		h.onlyGet(w, r, func() { h.listTopics(w, r, t) })
	case armpath.Topic:
		h.topic(w, r, t)
	case armpath.TopicEventTypes:
		h.onlyGet(w, r, func() { h.listEventTypes(w, r, t) })
	case armpath.TopicSubscriptions:
		h.onlyGet(w, r, func() { h.listTopicSubscriptions(w, r, t) })
	case armpath.Subscription:
		h.subscription(w, r, t)
	case armpath.GlobalSubscriptions:
		h.onlyGet(w, r, func() { h.listGlobalSubscriptions(w, r, t) })
	}
}

func (h *Handler) onlyGet(w http.ResponseWriter, r *http.Request, serve func()) {
	if r.Method != http.MethodGet {
		methodNotAllowed(w, r)
		return
	}
	serve()
}

// provider answers the resource-provider GET and register POST, so a
// client whose registration policy asks finds Microsoft.EventGrid
// registered.
func (h *Handler) provider(w http.ResponseWriter, r *http.Request, t armpath.Target) {
	if (t.Action == "" && r.Method != http.MethodGet) || (t.Action == "register" && r.Method != http.MethodPost) {
		methodNotAllowed(w, r)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":                "/subscriptions/" + t.SubscriptionID + "/providers/Microsoft.EventGrid",
		"namespace":         "Microsoft.EventGrid",
		"registrationState": "Registered",
		"resourceTypes":     []any{},
	})
}
