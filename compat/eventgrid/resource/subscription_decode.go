package resource

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"time"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/filter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
)

// subscriptionFields are the members of EventSubscriptionProperties (PUT)
// and of the flat EventSubscriptionUpdateParameters (PATCH). Each is kept
// raw so absent, null and present can be told apart.
type subscriptionFields struct {
	Destination                    json.RawMessage `json:"destination"`
	DeliveryWithResourceIdentity   json.RawMessage `json:"deliveryWithResourceIdentity"`
	Filter                         json.RawMessage `json:"filter"`
	Labels                         json.RawMessage `json:"labels"`
	ExpirationTimeUTC              json.RawMessage `json:"expirationTimeUtc"`
	EventDeliverySchema            json.RawMessage `json:"eventDeliverySchema"`
	RetryPolicy                    json.RawMessage `json:"retryPolicy"`
	DeadLetterDestination          json.RawMessage `json:"deadLetterDestination"`
	DeadLetterWithResourceIdentity json.RawMessage `json:"deadLetterWithResourceIdentity"`
}

// SubscriptionFromPut builds the subscription a PUT describes; prev is the
// stored one of that name, or nil. A PUT replaces every property, except
// what a client cannot send back (see keepStoredSecrets).
func SubscriptionFromPut(name, topicID string, body []byte, prev *EventSubscription, now time.Time) (*EventSubscription, *arm.Error) {
	var w struct {
		Properties *subscriptionFields `json:"properties"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, arm.BadContent(err)
	}
	s := &EventSubscription{Name: name, TopicID: topicID, CreatedAt: now, LastModifiedAt: now,
		RetryPolicy: RetryPolicy{DefaultMaxDeliveryAttempts, DefaultEventTTLMinutes}}
	if prev != nil {
		s.Name, s.CreatedAt = prev.Name, prev.CreatedAt
	}
	if w.Properties == nil {
		w.Properties = &subscriptionFields{}
	}
	if err := w.Properties.apply(s, prev, now); err != nil {
		return nil, err
	}
	return s, nil
}

// Patched applies a PATCH: each member present replaces the stored one.
func (s *EventSubscription) Patched(body []byte, now time.Time) (*EventSubscription, *arm.Error) {
	var w subscriptionFields
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, arm.BadContent(err)
	}
	n := *s
	n.LastModifiedAt = now
	if err := w.apply(&n, s, now); err != nil {
		return nil, err
	}
	return &n, nil
}

func present(raw json.RawMessage) bool { return len(raw) > 0 }
func isNull(raw json.RawMessage) bool  { return string(raw) == "null" }

// apply sets every member present in w on s.
func (w *subscriptionFields) apply(s, prev *EventSubscription, now time.Time) *arm.Error {
	var err *arm.Error
	var prevDest, prevIdentityDest *Destination
	if prev != nil {
		prevDest = prev.Destination
		if prev.DeliveryWithResourceIdentity != nil {
			prevIdentityDest = prev.DeliveryWithResourceIdentity.Destination
		}
	}
	if present(w.Destination) {
		s.Destination = nil
		if !isNull(w.Destination) {
			if s.Destination, err = decodeDestination("destination", w.Destination); err != nil {
				return err
			}
			s.Destination.keepStoredSecrets(prevDest)
		}
	}
	if present(w.DeliveryWithResourceIdentity) {
		if s.DeliveryWithResourceIdentity, err = decodeDeliveryWithIdentity(w.DeliveryWithResourceIdentity, prevIdentityDest); err != nil {
			return err
		}
	}
	if present(w.Filter) {
		if err := s.setFilter(w.Filter); err != nil {
			return err
		}
	}
	if present(w.Labels) {
		s.Labels = nil
		if e := json.Unmarshal(w.Labels, &s.Labels); e != nil {
			return arm.BadRequest("labels must be an array of strings.")
		}
	}
	if present(w.ExpirationTimeUTC) {
		if s.ExpirationTimeUTC, err = decodeExpiration(w.ExpirationTimeUTC, now); err != nil {
			return err
		}
	}
	if present(w.EventDeliverySchema) {
		s.EventDeliverySchema = ""
		var v *string
		if e := json.Unmarshal(w.EventDeliverySchema, &v); e != nil {
			return arm.BadRequest("eventDeliverySchema must be a string.")
		}
		if s.EventDeliverySchema, err = canonicalPtr("eventDeliverySchema", v, "EventGridSchema", "CloudEventSchemaV1_0", "CustomInputSchema"); err != nil {
			return err
		}
	}
	if present(w.RetryPolicy) {
		if s.RetryPolicy, err = decodeRetryPolicy(w.RetryPolicy); err != nil {
			return err
		}
	}
	if present(w.DeadLetterDestination) {
		s.DeadLetterDestination = nil
		if !isNull(w.DeadLetterDestination) {
			if s.DeadLetterDestination, err = decodeDeadLetter("deadLetterDestination", w.DeadLetterDestination); err != nil {
				return err
			}
		}
	}
	if present(w.DeadLetterWithResourceIdentity) {
		if s.DeadLetterWithResourceIdentity, err = decodeDeadLetterWithIdentity(w.DeadLetterWithResourceIdentity); err != nil {
			return err
		}
	}
	return nil
}

// setFilter reads and compiles properties.filter; the filter package's
// refusals (bad JSON types, Azure's limits) are 400s with its code and
// message.
func (s *EventSubscription) setFilter(raw json.RawMessage) *arm.Error {
	var f filter.FilterJSON
	if !isNull(raw) {
		if err := json.Unmarshal(raw, &f); err != nil {
			return filterError(err)
		}
	}
	compiled, err := filter.Compile(f)
	if err != nil {
		return filterError(err)
	}
	s.Filter, s.matcher = f, compiled
	return nil
}

func filterError(err error) *arm.Error {
	var ve *filter.ValidationError
	if errors.As(err, &ve) {
		return &arm.Error{Status: http.StatusBadRequest, Code: ve.Code, Message: ve.Message}
	}
	return arm.BadRequest("The filter of the event subscription is not valid: %v.", err)
}

func decodeExpiration(raw json.RawMessage, now time.Time) (*time.Time, *arm.Error) {
	if isNull(raw) {
		return nil, nil
	}
	var text string
	if json.Unmarshal(raw, &text) != nil {
		return nil, arm.BadRequest("expirationTimeUtc must be a date-time string.")
	}
	t, ok := schema.ParseTime(text)
	if !ok {
		return nil, arm.BadRequest("expirationTimeUtc '%s' is not a valid date-time.", text)
	}
	if !t.After(now) {
		return nil, arm.BadRequest("Invalid expiration time. The expiration time '%s' must be in the future.", text)
	}
	t = t.UTC()
	return &t, nil
}

func decodeRetryPolicy(raw json.RawMessage) (RetryPolicy, *arm.Error) {
	p := RetryPolicy{DefaultMaxDeliveryAttempts, DefaultEventTTLMinutes}
	if isNull(raw) {
		return p, nil
	}
	var w struct {
		MaxDeliveryAttempts      json.RawMessage `json:"maxDeliveryAttempts"`
		EventTimeToLiveInMinutes json.RawMessage `json:"eventTimeToLiveInMinutes"`
	}
	if json.Unmarshal(raw, &w) != nil {
		return p, arm.BadRequest("retryPolicy must be an object.")
	}
	var err *arm.Error
	if present(w.MaxDeliveryAttempts) && !isNull(w.MaxDeliveryAttempts) {
		if p.MaxDeliveryAttempts, err = integer("retryPolicy.maxDeliveryAttempts", w.MaxDeliveryAttempts); err != nil {
			return p, err
		}
	}
	if present(w.EventTimeToLiveInMinutes) && !isNull(w.EventTimeToLiveInMinutes) {
		if p.EventTimeToLiveInMinutes, err = integer("retryPolicy.eventTimeToLiveInMinutes", w.EventTimeToLiveInMinutes); err != nil {
			return p, err
		}
	}
	return p, nil
}

func decodeDeliveryWithIdentity(raw json.RawMessage, prev *Destination) (*DeliveryWithIdentity, *arm.Error) {
	if isNull(raw) {
		return nil, nil
	}
	var w struct {
		Identity    json.RawMessage `json:"identity"`
		Destination json.RawMessage `json:"destination"`
	}
	if json.Unmarshal(raw, &w) != nil {
		return nil, arm.BadRequest("deliveryWithResourceIdentity must be an object.")
	}
	out := &DeliveryWithIdentity{}
	var err *arm.Error
	if out.Identity, err = canonicalIdentity("deliveryWithResourceIdentity.identity", w.Identity, subscriptionIdentityTypes()...); err != nil {
		return nil, err
	}
	if present(w.Destination) && !isNull(w.Destination) {
		if out.Destination, err = decodeDestination("deliveryWithResourceIdentity.destination", w.Destination); err != nil {
			return nil, err
		}
		out.Destination.keepStoredSecrets(prev)
	}
	return out, nil
}

func decodeDeadLetterWithIdentity(raw json.RawMessage) (*DeadLetterWithIdentity, *arm.Error) {
	if isNull(raw) {
		return nil, nil
	}
	var w struct {
		Identity              json.RawMessage `json:"identity"`
		DeadLetterDestination json.RawMessage `json:"deadLetterDestination"`
	}
	if json.Unmarshal(raw, &w) != nil {
		return nil, arm.BadRequest("deadLetterWithResourceIdentity must be an object.")
	}
	out := &DeadLetterWithIdentity{}
	var err *arm.Error
	if out.Identity, err = canonicalIdentity("deadLetterWithResourceIdentity.identity", w.Identity, subscriptionIdentityTypes()...); err != nil {
		return nil, err
	}
	if present(w.DeadLetterDestination) && !isNull(w.DeadLetterDestination) {
		if out.DeadLetterDestination, err = decodeDeadLetter("deadLetterWithResourceIdentity.deadLetterDestination", w.DeadLetterDestination); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// integer reads a JSON number that must be a whole number within int32.
func integer(field string, raw json.RawMessage) (int, *arm.Error) {
	var f float64
	if json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) || f > math.MaxInt32 || f < math.MinInt32 {
		return 0, arm.BadRequest("%s must be an integer; got %s.", field, string(raw))
	}
	return int(f), nil
}
