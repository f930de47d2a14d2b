package resource

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
)

// Limits Azure enforces on an event subscription.
const (
	MaxEventsPerBatchLimit   = 5000 // EG-15
	MaxPreferredBatchKB      = 1024 // EG-15
	MaxDeliveryAttributes    = 10   // EG-26
	MaxDeliveryAttributeSize = 4096 // EG-26, bytes per value
	MaxSubscriptionsPerTopic = 500
)

// Validate checks a subscription about to be stored on topic against
// Azure's rules; the ARM face answers a failure with 400.
func (s *EventSubscription) Validate(topic *Topic) *arm.Error {
	d := s.EffectiveDestination()
	if d == nil {
		return arm.BadRequest("The event subscription must have a destination (properties.destination or properties.deliveryWithResourceIdentity.destination).")
	}
	if err := d.validate(); err != nil {
		return err
	}
	if err := s.RetryPolicy.validate(); err != nil {
		return err
	}
	return s.validateSchema(topic)
}

func (d *Destination) validate() *arm.Error {
	if d.EndpointType == EndpointWebHook {
		if d.EndpointURL == "" {
			return arm.BadRequest("destination.properties.endpointUrl is required for a WebHook destination.")
		}
		u, err := url.Parse(d.EndpointURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return arm.BadRequest("The endpointUrl '%s' is not a valid absolute http or https URL.", BaseURL(d.EndpointURL))
		}
	}
	if d.EndpointType == EndpointStorageQueue {
		if err := d.validateStorageQueue(); err != nil {
			return err
		}
	}
	if d.MaxEventsPerBatch != 0 && (d.MaxEventsPerBatch < 1 || d.MaxEventsPerBatch > MaxEventsPerBatchLimit) {
		return arm.BadRequest("maxEventsPerBatch must be between 1 and %d; got %d.", MaxEventsPerBatchLimit, d.MaxEventsPerBatch)
	}
	if d.PreferredBatchSizeInKilobytes != 0 && (d.PreferredBatchSizeInKilobytes < 1 || d.PreferredBatchSizeInKilobytes > MaxPreferredBatchKB) {
		return arm.BadRequest("preferredBatchSizeInKilobytes must be between 1 and %d; got %d.", MaxPreferredBatchKB, d.PreferredBatchSizeInKilobytes)
	}
	return validateAttributes(d.DeliveryAttributeMappings)
}

// validateAttributes applies EG-26: at most 10 headers, each value at most
// 4,096 bytes, and no names in Event Grid's own aeg- space.
func validateAttributes(attrs []DeliveryAttribute) *arm.Error {
	if len(attrs) > MaxDeliveryAttributes {
		return arm.BadRequest("An event subscription can have at most %d delivery attribute mappings; got %d.", MaxDeliveryAttributes, len(attrs))
	}
	for _, a := range attrs {
		switch {
		case a.Name == "":
			return arm.BadRequest("Every delivery attribute mapping needs a name.")
		case strings.HasPrefix(strings.ToLower(a.Name), "aeg-"):
			return arm.BadRequest("The delivery attribute name '%s' is not allowed: names starting with 'aeg-' are reserved.", a.Name)
		case a.Type == "Static" && len(a.Value) > MaxDeliveryAttributeSize:
			return arm.BadRequest("The value of the delivery attribute '%s' is %d bytes; the limit is %d.", a.Name, len(a.Value), MaxDeliveryAttributeSize)
		case a.Type == "Dynamic" && a.SourceField == "":
			return arm.BadRequest("The dynamic delivery attribute '%s' needs properties.sourceField.", a.Name)
		case a.Type == "Dynamic" && len(a.SourceField) > MaxDeliveryAttributeSize:
			return arm.BadRequest("The sourceField of the delivery attribute '%s' is over %d bytes.", a.Name, MaxDeliveryAttributeSize)
		}
	}
	return nil
}

// validate applies EG-11 (maxDeliveryAttempts 1..30) and EG-12
// (eventTimeToLiveInMinutes 1..1440) with the retry package's wording.
func (p RetryPolicy) validate() *arm.Error {
	err := retry.Validate(p.MaxDeliveryAttempts, p.EventTimeToLiveInMinutes)
	var ve *retry.ValidationError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ve):
		return &arm.Error{Status: http.StatusBadRequest, Code: ve.Code, Message: ve.Message}
	}
	return arm.BadRequest("%v", err)
}

// validateSchema applies the input→delivery compatibility table
// (W-EG-4.5): CloudEvents topics deliver only CloudEvents, and only
// custom-schema topics can deliver the published shape.
func (s *EventSubscription) validateSchema(topic *Topic) *arm.Error {
	want := s.EventDeliverySchema
	if want == "" {
		return nil
	}
	ok := want == "CloudEventSchemaV1_0" ||
		want == "EventGridSchema" && topic.InputSchema != InputCloudEvents ||
		want == "CustomInputSchema" && topic.InputSchema == InputCustom
	if !ok {
		return arm.BadRequest("The event delivery schema %s is not supported for a topic whose input schema is %s.", want, topic.InputSchema)
	}
	return nil
}
