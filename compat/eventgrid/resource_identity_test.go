package eventgrid_test

import (
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// The destination and dead-letter destination may come with a managed
// identity; both are stored, echoed, and the destination is delivered to.
func TestDestinationsWithResourceIdentity(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	identity := &armeventgrid.EventSubscriptionIdentity{Type: to.Ptr(armeventgrid.EventSubscriptionIdentityTypeSystemAssigned)}
	h.subscribe("orders", "managed", armeventgrid.EventSubscriptionProperties{
		DeliveryWithResourceIdentity: &armeventgrid.DeliveryWithResourceIdentity{Identity: identity, Destination: webhook(hook.URL() + "?k=v")},
		DeadLetterWithResourceIdentity: &armeventgrid.DeadLetterWithResourceIdentity{Identity: identity,
			DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
				Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{ResourceID: to.Ptr("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct"), BlobContainerName: to.Ptr("ccc")}}},
	})
	got, err := h.topicSubs().Get(ctx(t), resourceGroup, "orders", "managed", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := got.Properties
	wh, ok := p.DeliveryWithResourceIdentity.Destination.(*armeventgrid.WebHookEventSubscriptionDestination)
	if !ok || wh.Properties.EndpointURL != nil || *wh.Properties.EndpointBaseURL != hook.URL() ||
		*p.DeliveryWithResourceIdentity.Identity.Type != armeventgrid.EventSubscriptionIdentityTypeSystemAssigned {
		t.Fatalf("deliveryWithResourceIdentity %#v", p.DeliveryWithResourceIdentity)
	}
	if dl, ok := p.DeadLetterWithResourceIdentity.DeadLetterDestination.(*armeventgrid.StorageBlobDeadLetterDestination); !ok || *dl.Properties.BlobContainerName != "ccc" {
		t.Fatalf("deadLetterWithResourceIdentity %#v", p.DeadLetterWithResourceIdentity)
	}
	full, err := h.topicSubs().GetFullURL(ctx(t), resourceGroup, "orders", "managed", nil)
	if err != nil || *full.EndpointURL != hook.URL()+"?k=v" {
		t.Fatalf("getFullUrl %v %v", full.EndpointURL, err)
	}
	h.publishOne("orders")
	if n := len(hook.Deliveries()); n != 1 {
		t.Fatalf("%d deliveries", n)
	}
}

// The provider and eventTypes endpoints answer as ARM does for custom topics.
func TestProviderAndEventTypes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	status, body := h.armRequest("POST", "/subscriptions/"+subscriptionID+"/providers/Microsoft.EventGrid/register", "")
	if status != http.StatusOK || body["registrationState"] != "Registered" {
		t.Fatalf("register: %d %v", status, body)
	}
	pager := h.factory.NewTopicsClient().NewListEventTypesPager(resourceGroup, "Microsoft.EventGrid", "topics", "orders", nil)
	page, err := pager.NextPage(ctx(t))
	if err != nil || len(page.Value) != 0 {
		t.Fatalf("eventTypes: %v %v", page.Value, err)
	}
}
