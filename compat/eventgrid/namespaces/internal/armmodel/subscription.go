package armmodel

import (
	"time"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// EventSubscription is a namespace-topic event subscription as stored and
// returned.
type EventSubscription struct {
	ID         string                 `json:"id"`
	Name       string                 `json:"name"`
	Type       string                 `json:"type"`
	Properties SubscriptionProperties `json:"properties"`
	SystemData *SystemData            `json:"systemData,omitempty"`
}

// SubscriptionProperties are a subscription's settings.
type SubscriptionProperties struct {
	ProvisioningState     string                 `json:"provisioningState"`
	DeliveryConfiguration *DeliveryConfiguration `json:"deliveryConfiguration,omitempty"`
	EventDeliverySchema   string                 `json:"eventDeliverySchema"`
	FiltersConfiguration  *FiltersConfiguration  `json:"filtersConfiguration,omitempty"`
	ExpirationTimeUTC     *string                `json:"expirationTimeUtc,omitempty"`
}

// DeliveryConfiguration says how events reach the consumer.
type DeliveryConfiguration struct {
	DeliveryMode string     `json:"deliveryMode"`
	Queue        *QueueInfo `json:"queue,omitempty"`
	Push         *PushInfo  `json:"push,omitempty"`
}

// QueueInfo configures a pull subscription. Defaults are filled in when the
// subscription is stored, so GET shows what is in force.
type QueueInfo struct {
	ReceiveLockDurationInSeconds *int                            `json:"receiveLockDurationInSeconds,omitempty"`
	MaxDeliveryCount             *int                            `json:"maxDeliveryCount,omitempty"`
	EventTimeToLive              *string                         `json:"eventTimeToLive,omitempty"`
	DeadLetter                   *DeadLetterWithResourceIdentity `json:"deadLetterDestinationWithResourceIdentity,omitempty"`
}

// PushInfo configures a push subscription.
type PushInfo struct {
	MaxDeliveryCount             *int                            `json:"maxDeliveryCount,omitempty"`
	EventTimeToLive              *string                         `json:"eventTimeToLive,omitempty"`
	DeadLetter                   *DeadLetterWithResourceIdentity `json:"deadLetterDestinationWithResourceIdentity,omitempty"`
	DeliveryWithResourceIdentity *DeliveryWithResourceIdentity   `json:"deliveryWithResourceIdentity,omitempty"`
	Destination                  *Destination                    `json:"destination,omitempty"`
}

type subscriptionBody struct {
	Properties *struct {
		DeliveryConfiguration *DeliveryConfiguration `json:"deliveryConfiguration"`
		EventDeliverySchema   *string                `json:"eventDeliverySchema"`
		FiltersConfiguration  *FiltersConfiguration  `json:"filtersConfiguration"`
		ExpirationTimeUTC     *string                `json:"expirationTimeUtc"`
	} `json:"properties"`
}

// NewEventSubscription reads a PUT body and validates it against the
// topic's retention; the caller sets ID, Name and SystemData.
func NewEventSubscription(body []byte, retention time.Duration) (EventSubscription, Settings, *arm.Error) {
	s := EventSubscription{Type: TypeEventSubscription, Properties: SubscriptionProperties{
		ProvisioningState: ProvisioningSucceeded, EventDeliverySchema: "CloudEventSchemaV1_0",
	}}
	set, err := s.merge(body, retention)
	if err != nil {
		return EventSubscription{}, Settings{}, err
	}
	return s, set, nil
}

// Patch merges a PATCH body (SubscriptionUpdateParameters): each property
// present replaces the stored one.
func (s *EventSubscription) Patch(body []byte, retention time.Duration) (Settings, *arm.Error) {
	c := *s
	set, err := c.merge(body, retention)
	if err != nil {
		return Settings{}, err
	}
	*s = c
	return set, nil
}

func (s *EventSubscription) merge(body []byte, retention time.Duration) (Settings, *arm.Error) {
	var req subscriptionBody
	if err := decode(body, &req); err != nil {
		return Settings{}, err
	}
	if p := req.Properties; p != nil {
		if p.DeliveryConfiguration != nil {
			s.Properties.DeliveryConfiguration = p.DeliveryConfiguration
		}
		if p.EventDeliverySchema != nil {
			s.Properties.EventDeliverySchema = *p.EventDeliverySchema
		}
		if p.FiltersConfiguration != nil {
			s.Properties.FiltersConfiguration = p.FiltersConfiguration
		}
		if p.ExpirationTimeUTC != nil {
			s.Properties.ExpirationTimeUTC = p.ExpirationTimeUTC
		}
	}
	return s.Settings(retention)
}

// View is the subscription as GET returns it: secret delivery attribute
// values left out.
func (s EventSubscription) View() EventSubscription {
	dc := s.Properties.DeliveryConfiguration
	if dc == nil || dc.Push == nil {
		return s
	}
	push := *dc.Push
	if push.Destination != nil {
		d := *push.Destination
		d.Properties = d.Properties.hideSecrets()
		push.Destination = &d
	}
	if dri := push.DeliveryWithResourceIdentity; dri != nil && dri.Destination != nil {
		c, d := *dri, *dri.Destination
		d.Properties = d.Properties.hideSecrets()
		c.Destination = &d
		push.DeliveryWithResourceIdentity = &c
	}
	dcCopy := *dc
	dcCopy.Push = &push
	s.Properties.DeliveryConfiguration = &dcCopy
	return s
}

// webhook returns the push destination's webhook properties, nil for a
// queue subscription.
func (s EventSubscription) webhook() *WebHookProperties {
	dc := s.Properties.DeliveryConfiguration
	if dc == nil || dc.Push == nil {
		return nil
	}
	if d := dc.Push.Destination; d != nil {
		return d.Properties
	}
	if dri := dc.Push.DeliveryWithResourceIdentity; dri != nil && dri.Destination != nil {
		return dri.Destination.Properties
	}
	return nil
}

// FullURL is the getFullUrl answer: the webhook URL, query included.
func (s EventSubscription) FullURL() (map[string]string, *arm.Error) {
	w := s.webhook()
	if w == nil {
		return nil, arm.BadRequest("The event subscription '%s' has no webhook destination.", s.Name)
	}
	return map[string]string{"endpointUrl": w.EndpointURL}, nil
}

// DeliveryAttributes is the getDeliveryAttributes answer, secret values
// included.
func (s EventSubscription) DeliveryAttributes() List[DeliveryAttributeMapping] {
	out := List[DeliveryAttributeMapping]{Value: []DeliveryAttributeMapping{}}
	if w := s.webhook(); w != nil && w.DeliveryAttributeMappings != nil {
		out.Value = w.DeliveryAttributeMappings
	}
	return out
}
