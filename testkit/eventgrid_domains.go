package testkit

import (
	"context"
	"fmt"

	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// DomainID is the ARM id of an Event Grid domain in ResourceGroup.
func DomainID(domain string) string {
	return "/subscriptions/" + SubscriptionID + "/resourceGroups/" + ResourceGroup +
		"/providers/Microsoft.EventGrid/domains/" + domain
}

// DomainTopicID is the ARM id of a domain topic: the `topic` of the events
// delivered from it.
func DomainTopicID(domain, topic string) string { return DomainID(domain) + "/topics/" + topic }

// CreateDomain creates (or updates) an Event Grid domain in ResourceGroup
// and returns it as ARM answered:
//
//	emu.CreateDomain("tenants", nil)
//	emu.CreateDomainTopic("tenants", "contoso")
func (e *Emulator) CreateDomain(name string, props *armeventgrid.DomainProperties) armeventgrid.Domain {
	e.t.Helper()
	poller, err := e.ARM().NewDomainsClient().BeginCreateOrUpdate(context.Background(), ResourceGroup, name,
		armeventgrid.Domain{Location: ptr("westus"), Properties: props}, nil)
	return created(e, fmt.Sprintf("domain %q", name), poller, err).Domain
}

// CreateDomainTopic creates a topic of domain (a domain whose
// autoCreateTopicWithFirstSubscription is on, the default, also creates it
// with its first event subscription).
func (e *Emulator) CreateDomainTopic(domain, topic string) armeventgrid.DomainTopic {
	e.t.Helper()
	poller, err := e.ARM().NewDomainTopicsClient().BeginCreateOrUpdate(context.Background(), ResourceGroup, domain, topic, nil)
	return created(e, fmt.Sprintf("topic %q of domain %q", topic, domain), poller, err).DomainTopic
}

// CreateScopedEventSubscription creates (or replaces) an event subscription
// on any ARM scope (a domain, a domain topic, a system topic, a topic)
// through armeventgrid's EventSubscriptionsClient, as
// CreateEventSubscription does for topics:
//
//	emu.CreateScopedEventSubscription(testkit.DomainTopicID("tenants", "contoso"), "audit",
//		armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL())})
func (e *Emulator) CreateScopedEventSubscription(scope, name string, props armeventgrid.EventSubscriptionProperties) armeventgrid.EventSubscription {
	e.t.Helper()
	poller, err := e.ARM().NewEventSubscriptionsClient().BeginCreateOrUpdate(context.Background(), scope, name,
		armeventgrid.EventSubscription{Properties: &props}, nil)
	return created(e, fmt.Sprintf("event subscription %q on %s", name, scope), poller, err).EventSubscription
}

// DomainPublisher returns an azeventgrid client for domain's endpoint, with
// key1 read through ARM. Each event names its domain topic in `topic`
// (Event Grid schema) or `source` (CloudEvents).
func (e *Emulator) DomainPublisher(domain string) *azeventgrid.Client {
	e.t.Helper()
	domains := e.ARM().NewDomainsClient()
	got, keys := readWithKeys(e, "domain", domain, domains.Get, domains.ListSharedAccessKeys)
	return e.eventGridClient(fmt.Sprintf("domain %q", domain), *got.Properties.Endpoint, *keys.Key1)
}
