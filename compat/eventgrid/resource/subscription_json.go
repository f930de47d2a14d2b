package resource

import (
	"encoding/json"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/filter"
)

// SubscriptionID is the ARM id of an event subscription in the URL form
// the request used: nested under the topic, or as an extension resource.
func SubscriptionID(topicID, name string, scopeForm bool) string {
	if scopeForm {
		return topicID + "/providers/Microsoft.EventGrid/eventSubscriptions/" + name
	}
	return topicID + "/eventSubscriptions/" + name
}

type subscriptionJSON struct {
	ID         string                `json:"id"`
	Name       string                `json:"name"`
	Type       string                `json:"type"`
	SystemData arm.SystemData        `json:"systemData"`
	Properties subscriptionPropsJSON `json:"properties"`
}

type subscriptionPropsJSON struct {
	Topic                          string            `json:"topic"`
	ProvisioningState              string            `json:"provisioningState"`
	Destination                    any               `json:"destination,omitempty"`
	DeliveryWithResourceIdentity   any               `json:"deliveryWithResourceIdentity,omitempty"`
	Filter                         filter.FilterJSON `json:"filter"`
	Labels                         []string          `json:"labels,omitempty"`
	ExpirationTimeUTC              string            `json:"expirationTimeUtc,omitempty"`
	EventDeliverySchema            string            `json:"eventDeliverySchema,omitempty"`
	RetryPolicy                    retryPolicyJSON   `json:"retryPolicy"`
	DeadLetterDestination          any               `json:"deadLetterDestination,omitempty"`
	DeadLetterWithResourceIdentity any               `json:"deadLetterWithResourceIdentity,omitempty"`
}

type retryPolicyJSON struct {
	MaxDeliveryAttempts      int `json:"maxDeliveryAttempts"`
	EventTimeToLiveInMinutes int `json:"eventTimeToLiveInMinutes"`
}

type identityDestinationJSON struct {
	Identity    json.RawMessage `json:"identity,omitempty"`
	Destination any             `json:"destination,omitempty"`
}

type identityDeadLetterJSON struct {
	Identity              json.RawMessage `json:"identity,omitempty"`
	DeadLetterDestination any             `json:"deadLetterDestination,omitempty"`
}

// JSON returns the subscription as ARM returns it from PUT, PATCH, GET and
// list: the WebHook URL and secret values masked, defaults filled in.
func (s *EventSubscription) JSON(topic *Topic, scopeForm bool) any {
	typ := topic.Type.ARMType() + "/eventSubscriptions"
	if scopeForm {
		typ = "Microsoft.EventGrid/eventSubscriptions"
	}
	p := subscriptionPropsJSON{
		// The service writes the provider segment lower-case here.
		Topic:             strings.Replace(topic.ID, "/providers/Microsoft.EventGrid/", "/providers/microsoft.eventgrid/", 1),
		ProvisioningState: s.ProvisioningState,
		Filter:            s.Filter,
		Labels:            s.Labels,
		RetryPolicy:       retryPolicyJSON(s.RetryPolicy),
	}
	if s.Destination != nil {
		p.Destination = s.Destination.json(true)
	}
	if w := s.DeliveryWithResourceIdentity; w != nil {
		out := identityDestinationJSON{Identity: w.Identity}
		if w.Destination != nil {
			out.Destination = w.Destination.json(true)
		}
		p.DeliveryWithResourceIdentity = out
	}
	if s.ExpirationTimeUTC != nil {
		p.ExpirationTimeUTC = arm.Time(*s.ExpirationTimeUTC)
	}
	// A custom-schema topic's subscription that left the schema out
	// delivers the published shape; the field stays empty then.
	if s.EventDeliverySchema != "" || topic.InputSchema != InputCustom {
		p.EventDeliverySchema = string(s.DeliverySchema(topic.InputSchema))
	}
	if s.DeadLetterDestination != nil {
		p.DeadLetterDestination = s.DeadLetterDestination.json()
	}
	if w := s.DeadLetterWithResourceIdentity; w != nil {
		out := identityDeadLetterJSON{Identity: w.Identity}
		if w.DeadLetterDestination != nil {
			out.DeadLetterDestination = w.DeadLetterDestination.json()
		}
		p.DeadLetterWithResourceIdentity = out
	}
	return subscriptionJSON{
		ID: SubscriptionID(topic.ID, s.Name, scopeForm), Name: s.Name, Type: typ,
		SystemData: arm.SystemDataAt(s.CreatedAt, s.LastModifiedAt), Properties: p,
	}
}

// DeliveryAttributesJSON is the body of getDeliveryAttributes: the
// mappings with secret values shown.
func (s *EventSubscription) DeliveryAttributesJSON() any {
	value := []any{}
	if d := s.EffectiveDestination(); d != nil && d.DeliveryAttributeMappings != nil {
		value = attributesJSON(d.DeliveryAttributeMappings, false)
	}
	return struct {
		Value []any `json:"value"`
	}{value}
}
