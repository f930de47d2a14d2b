package basicarm

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/arm"
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
	Provision(ctx context.Context, t *resource.Topic, sub, prev *resource.EventSubscription) *arm.Error
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

// Handler answers the ARM requests of basic topics and their event
// subscriptions; Endpoints says which.
type Handler struct {
	Store *resource.Store
	Hooks Hooks
	// topicWrites serialises read-modify-write of topics (PATCH,
	// regenerateKey), so concurrent updates are not lost.
	topicWrites sync.Mutex
}

// Path templates (compat/eventgrid/arm matches their literals in any case).
const (
	azureSubscription = "/subscriptions/{subscriptionId}"
	resourceGroup     = azureSubscription + "/resourceGroups/{resourceGroup}"
	provider          = "/providers/Microsoft.EventGrid"
	topicPath         = resourceGroup + provider + "/topics/{topic}"
)

// Endpoints is every path and method served, for arm.NewTable. A new
// resource type (domains, system topics) is more rows here.
func (h *Handler) Endpoints() []arm.Endpoint { return h.endpoints(atForm) }

// endpoints builds the rows; bind turns a handler of the path's target into
// an arm.Handler (tests bind a probe).
func (h *Handler) endpoints(bind func(scopeForm bool, fn handlerAt) arm.Handler) []arm.Endpoint {
	at := func(fn handlerAt) arm.Handler { return bind(false, fn) }
	get, put, patch, del, post := http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodPost
	eps := []arm.Endpoint{
		{Method: get, Path: azureSubscription + provider, Handle: at(h.provider)},
		{Method: post, Path: azureSubscription + provider + "/register", Handle: at(h.provider)},
		{Method: get, Path: azureSubscription + provider + "/topics", Handle: at(h.listTopics)},
		{Method: get, Path: resourceGroup + provider + "/topics", Handle: at(h.listTopics)},
		{Method: put, Path: topicPath, Handle: at(h.putTopic)},
		{Method: get, Path: topicPath, Handle: at(h.getTopic)},
		{Method: patch, Path: topicPath, Handle: at(h.patchTopic)},
		{Method: del, Path: topicPath, Handle: at(h.deleteTopic)},
		{Method: post, Path: topicPath + "/listKeys", Handle: at(h.listKeys)},
		{Method: post, Path: topicPath + "/regenerateKey", Handle: at(h.regenerateKey)},
		{Method: get, Path: topicPath + provider + "/eventTypes", Handle: at(h.listEventTypes)},
	}
	// Event subscriptions answer the same way in both URL forms, nested
	// (TopicEventSubscriptionsClient) and extension resource
	// (EventSubscriptionsClient), over one store (reference §8, trap 8).
	for _, form := range []struct {
		collection string
		scopeForm  bool
	}{{topicPath + "/eventSubscriptions", false}, {topicPath + provider + "/eventSubscriptions", true}} {
		one := form.collection + "/{eventSubscription}"
		in := func(fn handlerAt) arm.Handler { return bind(form.scopeForm, fn) }
		eps = append(eps,
			arm.Endpoint{Method: get, Path: form.collection, Handle: in(h.listTopicSubscriptions)},
			arm.Endpoint{Method: put, Path: one, Handle: in(h.putSubscription)},
			arm.Endpoint{Method: get, Path: one, Handle: in(h.getSubscription)},
			arm.Endpoint{Method: patch, Path: one, Handle: in(h.patchSubscription)},
			arm.Endpoint{Method: del, Path: one, Handle: in(h.deleteSubscription)},
			arm.Endpoint{Method: post, Path: one + "/getFullUrl", Handle: in(h.getFullURL)},
			arm.Endpoint{Method: post, Path: one + "/getDeliveryAttributes", Handle: in(h.getDeliveryAttributes)},
		)
	}
	// Event subscriptions by Azure subscription or resource group,
	// optionally narrowed by location and topic type.
	for _, scope := range []string{azureSubscription, resourceGroup} {
		for _, narrow := range []string{"", "/locations/{location}", "/topicTypes/{topicType}", "/locations/{location}/topicTypes/{topicType}"} {
			eps = append(eps, arm.Endpoint{Method: get, Path: scope + provider + narrow + "/eventSubscriptions", Handle: at(h.listGlobalSubscriptions)})
		}
	}
	return eps
}

// target is what an ARM path names.
type target struct {
	SubscriptionID string
	ResourceGroup  string // "" when the path has none
	Topic          string
	EventSub       string
	Location       string
	TopicType      string
	// ScopeForm is true when an event subscription is addressed as an
	// extension resource (…/topics/{t}/providers/Microsoft.EventGrid/eventSubscriptions/{n})
	// rather than nested (…/topics/{t}/eventSubscriptions/{n}).
	ScopeForm bool
}

// handlerAt is a handler of what the path names.
type handlerAt func(r *arm.Request, tg target) (arm.Response, *arm.Error)

// atForm binds fn to the target of each request's path.
func atForm(scopeForm bool, fn handlerAt) arm.Handler {
	return func(r *arm.Request) (arm.Response, *arm.Error) {
		return fn(r, target{
			SubscriptionID: r.Var("subscriptionId"), ResourceGroup: r.Var("resourceGroup"),
			Topic: r.Var("topic"), EventSub: r.Var("eventSubscription"),
			Location: r.Var("location"), TopicType: r.Var("topicType"), ScopeForm: scopeForm,
		})
	}
}

// provider answers the resource-provider GET and register POST, so a
// client whose registration policy asks finds Microsoft.EventGrid
// registered.
func (h *Handler) provider(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	return arm.OK(map[string]any{
		"id":                "/subscriptions/" + tg.SubscriptionID + "/providers/Microsoft.EventGrid",
		"namespace":         "Microsoft.EventGrid",
		"registrationState": "Registered",
		"resourceTypes":     []any{},
	}), nil
}
