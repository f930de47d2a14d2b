package resource

import (
	"encoding/json"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/filter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
)

// Provisioning states of an event subscription.
const (
	StateSucceeded            = "Succeeded"
	StateAwaitingManualAction = "AwaitingManualAction"
	StateFailed               = "Failed"
)

// Retry defaults (EG-11, EG-12).
const (
	DefaultMaxDeliveryAttempts = retry.DefaultMaxDeliveryAttempts
	DefaultEventTTLMinutes     = retry.DefaultEventTimeToLiveMinutes
)

// EventSubscription is an event subscription of a topic. Like Topic, a
// stored value is never modified.
type EventSubscription struct {
	Name string
	// TopicID is the ARM id of the topic it belongs to.
	TopicID string

	Destination                  *Destination
	DeliveryWithResourceIdentity *DeliveryWithIdentity
	// Filter is properties.filter as stored and echoed; matcher is it
	// compiled (nil: every event passes).
	Filter                         filter.FilterJSON
	matcher                        *filter.Filter
	Labels                         []string
	ExpirationTimeUTC              *time.Time
	EventDeliverySchema            string // "" when the request left it out
	RetryPolicy                    RetryPolicy
	DeadLetterDestination          *DeadLetterDestination
	DeadLetterWithResourceIdentity *DeadLetterWithIdentity

	ProvisioningState string
	// ValidationCode and ValidationToken were sent in the last validation
	// handshake; a manual validation must quote both.
	ValidationCode  string
	ValidationToken string
	CreatedAt       time.Time
	LastModifiedAt  time.Time
}

// RetryPolicy is properties.retryPolicy.
type RetryPolicy struct {
	MaxDeliveryAttempts      int
	EventTimeToLiveInMinutes int
}

// DeliveryWithIdentity is properties.deliveryWithResourceIdentity.
type DeliveryWithIdentity struct {
	Identity    json.RawMessage
	Destination *Destination
}

// DeadLetterWithIdentity is properties.deadLetterWithResourceIdentity.
type DeadLetterWithIdentity struct {
	Identity              json.RawMessage
	DeadLetterDestination *DeadLetterDestination
}

// Key is the subscription's store key within its topic.
func (s *EventSubscription) Key() string { return Key(s.Name) }

// EffectiveDestination is where events go: destination, or the one given
// with a resource identity.
func (s *EventSubscription) EffectiveDestination() *Destination {
	if s.Destination != nil {
		return s.Destination
	}
	if s.DeliveryWithResourceIdentity != nil {
		return s.DeliveryWithResourceIdentity.Destination
	}
	return nil
}

// EffectiveDeadLetter is the dead-letter destination, plain or with a
// resource identity; nil when dead-lettering is off (EG-19).
func (s *EventSubscription) EffectiveDeadLetter() *DeadLetterDestination {
	if s.DeadLetterDestination != nil {
		return s.DeadLetterDestination
	}
	if s.DeadLetterWithResourceIdentity != nil {
		return s.DeadLetterWithResourceIdentity.DeadLetterDestination
	}
	return nil
}

// WebHookURL is the full URL of a WebHook destination, "" otherwise.
func (s *EventSubscription) WebHookURL() string {
	if d := s.EffectiveDestination(); d != nil && d.EndpointType == EndpointWebHook {
		return d.EndpointURL
	}
	return ""
}

// DeliverySchema is the schema events are delivered in. Left out, it is
// CloudEvents for a CloudEvents topic, the published custom shape for a
// custom-schema topic (see egevent.CustomInputSchema) and Event Grid
// otherwise (W-EG-4.5; the custom-topic default is UNCONFIRMED).
func (s *EventSubscription) DeliverySchema(topicInput string) egevent.Schema {
	if s.EventDeliverySchema != "" {
		return egevent.Schema(s.EventDeliverySchema)
	}
	switch topicInput {
	case InputCloudEvents:
		return egevent.CloudEventSchemaV10
	case InputCustom:
		return egevent.CustomInputSchema
	}
	return egevent.EventGridSchema
}

// Matches reports whether ev passes the subscription's filter: event
// types, subject prefix and suffix, advanced filters.
func (s *EventSubscription) Matches(ev filter.Event) bool { return s.matcher.Match(ev) }

// EventTTL is the retry policy's time to live.
func (s *EventSubscription) EventTTL() time.Duration {
	return time.Duration(s.RetryPolicy.EventTimeToLiveInMinutes) * time.Minute
}
