package eventgrid

import (
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/compat/eventgrid/webhook"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// routeID names the engine route of an event subscription; ARM ids compare
// without case, so the id is lower-cased.
func routeID(t *resource.Topic, sub *resource.EventSubscription) string {
	return "eventgrid:" + resource.Key(resource.SubscriptionID(t.ID, sub.Name, true))
}

func routeLabels(t *resource.Topic, sub *resource.EventSubscription) map[string]string {
	labels := map[string]string{"cloud": "eventgrid", "topic": t.Name, "subscription": sub.Name}
	switch t.Type {
	case resource.TypeDomain:
		labels["domain"] = t.Name
	case resource.TypeDomainTopic:
		labels["domain"] = t.DomainID[strings.LastIndex(t.DomainID, "/")+1:]
	case resource.TypeSystemTopic:
		labels["systemTopic"] = t.Name
	}
	return labels
}

// route builds the delivery route of a provisioned subscription.
func (s *Service) route(t *resource.Topic, sub *resource.EventSubscription) *engine.Route {
	view := viewOf(t, sub)
	d := sub.EffectiveDestination()
	policy := s.retryPolicy(view)
	dest := s.destination(view, d)
	if o, ok := policy.(observer); ok {
		dest = o.Observe(dest)
	}
	r := &engine.Route{
		ID:                routeID(t, sub),
		Labels:            routeLabels(t, sub),
		Destination:       dest,
		Retry:             policy,
		MaxBatchEvents:    d.EventsPerBatch(),       // EG-15
		ResponseTimeout:   responseTimeout,          // EG-5
		LateSuccessWindow: lateSuccessWindow,        // EG-5: a late 2xx withdraws the retry
		NameFault:         webhook.OutcomeForStatus, // EG-24
	}
	if r.MaxBatchEvents > 1 {
		r.PreferredBatchBytes = d.BatchKilobytes() * 1024
	}
	if view.DeadLetter != nil && s.cfg.DeadLetterPolicy != nil {
		r.DeadLetter = s.cfg.DeadLetterPolicy(view, s.cfg.DeadLetterSink)
	}
	return r
}

func (s *Service) destination(view SubscriptionView, d *resource.Destination) engine.Destination {
	switch {
	case d.EndpointType == resource.EndpointStorageQueue && s.queues.configured():
		return s.storageQueue(d)
	case d.EndpointType != resource.EndpointWebHook:
		return &captureDestination{endpointType: d.EndpointType, resourceID: d.ResourceID()}
	}
	attrs := make([]webhook.Attribute, 0, len(d.DeliveryAttributeMappings))
	for _, a := range d.DeliveryAttributeMappings {
		if a.Type == "Dynamic" {
			attrs = append(attrs, webhook.Attribute{Name: a.Name, SourceField: a.SourceField})
		} else {
			attrs = append(attrs, webhook.Attribute{Name: a.Name, Value: a.Value, Secret: a.IsSecret})
		}
	}
	return &webhook.Destination{
		Client:           s.client,
		URL:              d.EndpointURL,
		SubscriptionName: view.Name,
		Schema:           view.DeliverySchema,
		Batched:          view.MaxEventsPerBatch > 1 && view.DeliverySchema == egevent.CloudEventSchemaV10,
		Attributes:       attrs,
		RecordSecrets:    s.cfg.Engine.RecordSecrets(),
	}
}

// observer is a retry policy that also wants to see successful attempts
// (the engine reports only failures to a policy): its Observe wraps the
// route's destination. compat/eventgrid/retry's Policy is one, for
// delayed delivery (EG-17).
type observer interface {
	Observe(engine.Destination) engine.Destination
}

func (s *Service) retryPolicy(view SubscriptionView) engine.RetryPolicy {
	if s.cfg.RetryPolicy != nil {
		if p := s.cfg.RetryPolicy(view); p != nil {
			return p
		}
	}
	return &standardRetry{maxAttempts: view.MaxDeliveryAttempts, ttl: view.EventTimeToLive, jitter: s.jitter}
}
