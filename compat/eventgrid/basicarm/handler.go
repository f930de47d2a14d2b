package basicarm

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
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
	// CheckSystemTopicSource refuses a system topic whose source cannot
	// send events (a storage account GridBridge was not given).
	CheckSystemTopicSource(t *resource.Topic) *arm.Error
	// SystemTopicsChanged is told that system topics were stored or
	// deleted, so what watches their sources can follow.
	SystemTopicsChanged()
}

// Reasons given to SubscriptionsRemoved.
const (
	ReasonSubscriptionDeleted = "EventSubscriptionDeleted"
	ReasonTopicDeleted        = "TopicDeleted"
	ReasonDomainDeleted       = "DomainDeleted"
	ReasonDomainTopicDeleted  = "DomainTopicDeleted"
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

// Path templates (compat/azure/arm matches their literals in any case).
const (
	azureSubscription = "/subscriptions/{subscriptionId}"
	resourceGroup     = azureSubscription + "/resourceGroups/{resourceGroup}"
	provider          = "/providers/Microsoft.EventGrid"
	topicPath         = resourceGroup + provider + "/topics/{topic}"
	domainPath        = resourceGroup + provider + "/domains/{domain}"
	domainTopicPath   = domainPath + "/topics/{topic}"
	systemTopicPath   = resourceGroup + provider + "/systemTopics/{systemTopic}"
	// storageAccountPath is a storage account as an event subscription's
	// scope: its events come through its system topic.
	storageAccountPath = resourceGroup + "/providers/Microsoft.Storage/storageAccounts/{storageAccount}"
)

// Endpoints is every path and method served, for arm.NewTable. A new
// resource type (domains, system topics) is more rows here.
func (h *Handler) Endpoints() []arm.Endpoint { return h.endpoints(atForm) }

// listedEverywhere is the two list rows of a kind of tracked resource
// ("topics", "domains", "systemTopics"): all of an Azure subscription's and
// one resource group's, answered by one handler (listOfType).
func listedEverywhere(kind string, list arm.Handler) []arm.Endpoint {
	return []arm.Endpoint{
		arm.List(azureSubscription+provider+"/"+kind, list),
		arm.List(resourceGroup+provider+"/"+kind, list),
	}
}

// endpoints builds the rows; bind turns a handler of the path's target into
// an arm.Handler (tests bind a probe).
func (h *Handler) endpoints(bind func(scopeForm bool, fn handlerAt) arm.Handler) []arm.Endpoint {
	at := func(fn handlerAt) arm.Handler { return bind(false, fn) }
	eps := slices.Concat(
		[]arm.Endpoint{
			{Method: http.MethodGet, Path: azureSubscription + provider, Handle: at(h.provider)},
			{Method: http.MethodPost, Path: azureSubscription + provider + "/register", Handle: at(h.provider)},
		},
		listedEverywhere("topics", at(h.listOfType(resource.TypeTopic))),
		[]arm.Endpoint{arm.List(topicPath+provider+"/eventTypes", at(h.listEventTypes))},
		arm.Resource{
			Get: at(h.getTopic), Put: at(h.putTopic), Patch: at(h.patchWith((*resource.Topic).Patched)), Delete: at(h.deleteTopic),
			Actions: []arm.Action{{Name: "listKeys", Handle: at(h.listKeys)}, {Name: "regenerateKey", Handle: at(h.regenerateKey)}},
		}.At(topicPath),
		h.domainEndpoints(at),
		h.systemTopicEndpoints(at),
	)
	// Event subscriptions answer the same way in both URL forms, nested
	// (TopicEventSubscriptionsClient) and extension resource
	// (EventSubscriptionsClient), over one store (W-EG-8.8);
	// domains, domain topics and system topics hold them as topics do.
	type form struct {
		collection string
		scopeForm  bool
	}
	var forms []form
	for _, scope := range []string{topicPath, domainPath, domainTopicPath, systemTopicPath} {
		forms = append(forms, form{scope + "/eventSubscriptions", false}, form{scope + provider + "/eventSubscriptions", true})
	}
	forms = append(forms, form{storageAccountPath + provider + "/eventSubscriptions", true})
	for _, form := range forms {
		in := func(fn handlerAt) arm.Handler { return bind(form.scopeForm, fn) }
		eps = append(eps, arm.List(form.collection, in(h.listTopicSubscriptions)))
		eps = append(eps, arm.Resource{
			Get: in(h.getSubscription), Put: in(h.putSubscription), Patch: in(h.patchSubscription), Delete: in(h.deleteSubscription),
			Actions: []arm.Action{{Name: "getFullUrl", Handle: in(h.getFullURL)}, {Name: "getDeliveryAttributes", Handle: in(h.getDeliveryAttributes)}},
		}.At(form.collection+"/{eventSubscription}")...)
	}
	// Event subscriptions by Azure subscription or resource group,
	// optionally narrowed by location and topic type.
	for _, scope := range []string{azureSubscription, resourceGroup} {
		for _, narrow := range []string{"", "/locations/{location}", "/topicTypes/{topicType}", "/locations/{location}/topicTypes/{topicType}"} {
			eps = append(eps, arm.List(scope+provider+narrow+"/eventSubscriptions", at(h.listGlobalSubscriptions)))
		}
	}
	return eps
}

// target is what an ARM path names.
type target struct {
	SubscriptionID string
	ResourceGroup  string // "" when the path has none
	Topic          string // a basic topic, or a domain topic when Domain is set
	Domain         string
	SystemTopic    string
	// StorageAccount is set when a storage account is the scope of event
	// subscriptions: they live on its system topic.
	StorageAccount string
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
			Topic: r.Var("topic"), Domain: r.Var("domain"), SystemTopic: r.Var("systemTopic"), StorageAccount: r.Var("storageAccount"), EventSub: r.Var("eventSubscription"),
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
