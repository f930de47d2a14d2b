package eventgrid

import (
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
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

// route builds the delivery route of a provisioned subscription: Azure's
// retry rules (retryPolicy) and, when the subscription names a container,
// its dead letters as EG-23 blobs (blobDeadLetters).
func (s *basicTopics) route(t *resource.Topic, sub *resource.EventSubscription) *engine.Route {
	d := sub.EffectiveDestination()
	schema := sub.DeliverySchema(t.InputSchema)
	policy := s.retryPolicy(sub, d)
	r := &engine.Route{
		ID:     routeID(t, sub),
		Labels: routeLabels(t, sub),
		// The policy sees successes too: they end a failure streak (EG-17).
		Destination:       policy.Observe(s.destination(sub.Name, schema, d)),
		Retry:             policy,
		MaxBatchEvents:    d.EventsPerBatch(),       // EG-15
		ResponseTimeout:   responseTimeout,          // EG-5
		LateSuccessWindow: lateSuccessWindow,        // EG-5: a late 2xx withdraws the retry
		NameFault:         webhook.OutcomeForStatus, // EG-24
	}
	if r.MaxBatchEvents > 1 {
		r.PreferredBatchBytes = d.BatchKilobytes() * 1024
	}
	if dl := sub.EffectiveDeadLetter(); dl != nil {
		r.DeadLetter = blobDeadLetters(sub.Name, schema, dl, s.sink)
	}
	return r
}

// retryPolicy applies Azure's full retry rules (EG-4 … EG-18) to an event
// subscription delivering to d, with jitter and probation as the face's
// options say.
func (s *basicTopics) retryPolicy(sub *resource.EventSubscription, d *resource.Destination) *retry.Policy {
	kind := retry.AzureResource
	if d.EndpointType == resource.EndpointWebHook {
		kind = retry.Webhook
	}
	return retry.NewPolicy(retry.Config{
		MaxDeliveryAttempts: sub.RetryPolicy.MaxDeliveryAttempts,
		EventTimeToLive:     sub.EventTTL(),
		Destination:         kind,
		Jitter:              s.cfg.Jitter,
		Seed:                uint64(s.cfg.Seed),
		Probation:           s.cfg.Probation,
	})
}

// blobDeadLetters writes the give-ups of the subscription named name as
// EG-23 records in schema into the blob container dl names (EG-19 … EG-22).
func blobDeadLetters(name string, schema egevent.Schema, dl *resource.DeadLetterDestination, sink engine.Sink) *engine.DeadLetterPolicy {
	dest, err := deadletter.ParseDestination(dl.ResourceID, dl.BlobContainerName)
	if err != nil {
		// ARM validated the destination at create; an unusable one drops
		// give-ups with a reason naming it rather than losing them silently.
		return deadletter.UnusablePolicy(sink, err)
	}
	b := deadletter.NewBuilder(name, dest)
	b.DeliverySchema = schema
	return b.Policy(sink)
}

// destination is where the subscription named name delivers to: a webhook,
// a Storage Queue when a queue service is configured, or the capture of the
// other Azure-resource destinations.
func (s *basicTopics) destination(name string, schema egevent.Schema, d *resource.Destination) engine.Destination {
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
		SubscriptionName: name,
		Schema:           schema,
		Batched:          d.EventsPerBatch() > 1 && schema == egevent.CloudEventSchemaV10,
		Attributes:       attrs,
		RecordSecrets:    s.cfg.Engine.RecordSecrets(),
	}
}
