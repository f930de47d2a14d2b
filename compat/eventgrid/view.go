package eventgrid

import (
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

// SubscriptionView is what the retry and dead-letter hooks see of an event
// subscription: a snapshot taken when it was stored.
type SubscriptionView struct {
	// ID is the subscription's ARM id (extension-resource form).
	ID        string
	Name      string
	TopicID   string
	TopicName string
	// EndpointType is the destination's type: "WebHook", "StorageQueue",
	// "ServiceBusQueue", "EventHub", "AzureFunction", …
	EndpointType string
	// EndpointURL is a WebHook's full URL; ResourceID an Azure-resource
	// destination's id.
	EndpointURL string
	ResourceID  string
	// DeliverySchema is the schema events are delivered (and
	// dead-lettered) in.
	DeliverySchema                egevent.Schema
	MaxDeliveryAttempts           int           // EG-11
	EventTimeToLive               time.Duration // EG-12
	MaxEventsPerBatch             int           // EG-15
	PreferredBatchSizeInKilobytes int           // EG-15
	// DeadLetter is nil when dead-lettering is off (EG-19).
	DeadLetter *DeadLetterView
	// DeliveryAttributes are the custom delivery properties (EG-26).
	DeliveryAttributes []DeliveryAttributeView
	Labels             []string
}

// DeadLetterView is a subscription's dead-letter destination.
type DeadLetterView struct {
	// ResourceID is the storage account's ARM id.
	ResourceID        string
	BlobContainerName string
	// WithResourceIdentity is true when it was given as
	// deadLetterWithResourceIdentity.
	WithResourceIdentity bool
}

// DeliveryAttributeView is one custom delivery property. Secret values
// must never be written into dead-letter records (EG-26).
type DeliveryAttributeView struct {
	Name        string
	Value       string // static value
	IsSecret    bool
	SourceField string // dynamic: dotted path into the delivered event
}

func viewOf(t *resource.Topic, sub *resource.EventSubscription) SubscriptionView {
	v := SubscriptionView{
		ID:                  resource.SubscriptionID(t.ID, sub.Name, true),
		Name:                sub.Name,
		TopicID:             t.ID,
		TopicName:           t.Name,
		DeliverySchema:      sub.DeliverySchema(t.InputSchema),
		MaxDeliveryAttempts: sub.RetryPolicy.MaxDeliveryAttempts,
		EventTimeToLive:     sub.EventTTL(),
		Labels:              sub.Labels,
	}
	if d := sub.EffectiveDestination(); d != nil {
		v.EndpointType, v.EndpointURL, v.ResourceID = d.EndpointType, sub.WebHookURL(), d.ResourceID()
		v.MaxEventsPerBatch, v.PreferredBatchSizeInKilobytes = d.EventsPerBatch(), d.BatchKilobytes()
		for _, a := range d.DeliveryAttributeMappings {
			v.DeliveryAttributes = append(v.DeliveryAttributes, DeliveryAttributeView{
				Name: a.Name, Value: a.Value, IsSecret: a.IsSecret, SourceField: a.SourceField})
		}
	}
	if dl := sub.EffectiveDeadLetter(); dl != nil {
		v.DeadLetter = &DeadLetterView{ResourceID: dl.ResourceID, BlobContainerName: dl.BlobContainerName,
			WithResourceIdentity: sub.DeadLetterDestination == nil}
	}
	return v
}
