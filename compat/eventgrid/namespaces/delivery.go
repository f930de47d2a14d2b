package namespaces

import (
	"fmt"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/push"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/queue"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Drop reasons for events a subscription still held when it went away
// (D-DROP: nothing disappears silently).
const (
	reasonSubscriptionDeleted = "SubscriptionDeleted"
	reasonTopicDeleted        = "TopicDeleted"
	reasonNamespaceDeleted    = "NamespaceDeleted"
	reasonDeliveryModeChanged = "DeliveryModeChanged"
	// reasonNoMatchingSubscription: the topic accepted an event that no
	// subscription's filter takes.
	reasonNoMatchingSubscription = "NoMatchingSubscription"
)

// cloudLabel is the "cloud" label of every journal entry this face writes.
const cloudLabel = "eventgrid"

func topicRoute(ns, topic string) string { return "eventgrid-namespaces/" + ns + "/" + topic }

// newSubscriptionState builds the state of a new subscription. The caller
// holds Service.mu.
func (s *Service) newSubscriptionState(t *topicState, res armmodel.EventSubscription) *subscriptionState {
	s.subSeq++
	es := &subscriptionState{
		topic: t, res: res, seq: s.subSeq,
		namespace: t.ns.res.Name, topicName: t.res.Name, name: res.Name,
	}
	es.route = topicRoute(es.namespace, es.topicName) + "/" + es.name
	es.labels = map[string]string{
		"cloud": cloudLabel, "namespace": es.namespace, "topic": es.topicName, "subscription": es.name,
	}
	return es
}

// startDelivery sets up a queue (pull) or an engine route (push) for a
// subscription. The caller holds Service.mu.
func (s *Service) startDelivery(es *subscriptionState, set armmodel.Settings) {
	rt := &subscriptionRuntime{settings: set, retention: es.topic.res.Retention()}
	es.runtime.Store(rt)
	if set.Push {
		es.queue = nil
		s.cfg.Engine.PutRoute(s.pushRoute(es, rt))
		return
	}
	es.queue = queue.New(s.clock, queueConfig(rt), queue.Hooks{
		Ended:       func(ends []queue.Ending) { s.pullEnded(es, ends) },
		LockExpired: func(ev *cloudevent.Event, count int, at time.Time) { s.lockExpired(es, ev, count, at) },
	})
}

// updateDelivery applies changed settings. Events already held keep going
// under the new settings; a change of delivery mode drops them, journalled.
// The caller holds Service.mu.
func (s *Service) updateDelivery(es *subscriptionState, set armmodel.Settings) {
	old := es.runtime.Load()
	if old.settings.Push != set.Push {
		s.stopDelivery(es, reasonDeliveryModeChanged)
		s.startDelivery(es, set)
		return
	}
	rt := &subscriptionRuntime{settings: set, retention: es.topic.res.Retention()}
	es.runtime.Store(rt)
	if set.Push {
		s.cfg.Engine.PutRoute(s.pushRoute(es, rt))
	} else {
		es.queue.SetConfig(queueConfig(rt))
	}
}

// retentionChanged re-caps every subscription's time to live after a topic
// PATCH. The caller holds Service.mu.
func (s *Service) retentionChanged(t *topicState) {
	for _, es := range t.subList {
		s.updateDelivery(es, es.runtime.Load().settings)
	}
}

// stopDelivery ends a subscription's delivery. Events it still held are
// dropped and journalled with reason; an empty reason drops them silently
// (Reset).
func (s *Service) stopDelivery(es *subscriptionState, reason string) {
	if es.queue == nil {
		if reason == "" {
			reason = engine.ReasonRouteDeleted
		}
		s.cfg.Engine.RemoveRoute(es.route, reason)
		return
	}
	held := es.queue.Close()
	if len(held) == 0 || reason == "" {
		return
	}
	ids := make([]string, len(held))
	for i, ev := range held {
		ids[i] = ev.ID
	}
	s.journal.Append(engine.Entry{
		Time: s.clock.Now(), Kind: engine.KindDrop, Route: es.route, Labels: es.labels, EventIDs: ids,
		Outcome: reason, Message: fmt.Sprintf("%d event(s) were still queued when the subscription was removed", len(held)),
	})
}

func queueConfig(rt *subscriptionRuntime) queue.Config {
	return queue.Config{
		LockDuration:     rt.settings.LockDuration,
		MaxDeliveryCount: rt.settings.MaxDeliveryCount,
		TimeToLive:       rt.timeToLive(),
	}
}

// pushRoute is the engine route of a push subscription: CloudEvents to the
// webhook under the namespace push retry policy. When the engine gives a
// batch up, Build hands it to the face's own dead-lettering, which writes
// NS-4 records on the NS-7 schedule for pull and push alike; it returns no
// writes for the engine to make.
func (s *Service) pushRoute(es *subscriptionState, rt *subscriptionRuntime) *engine.Route {
	hook := rt.settings.Webhook
	return &engine.Route{
		ID: es.route, Labels: es.labels,
		Destination: &push.Webhook{Client: s.cfg.HTTPClient, URL: hook.URL, Batched: hook.Batched, Attributes: hook.Attributes,
			RecordSecrets: s.cfg.Engine.RecordSecrets()},
		Retry: push.Policy{MaxDeliveryCount: rt.settings.MaxDeliveryCount, TimeToLive: rt.timeToLive()},
		DeadLetter: &engine.DeadLetterPolicy{
			Sink: s.cfg.DeadLetterSink,
			Build: func(b *engine.Batch, reason string, now time.Time) ([]engine.DeadLetter, error) {
				s.pushGaveUp(es, b, reason, now)
				return nil, nil
			},
			HandsOff: true,
		},
		MaxBatchEvents:      hook.MaxEventsPerBatch,
		PreferredBatchBytes: hook.PreferredBatchBytes,
		ResponseTimeout:     pushResponseTimeout,
		NameFault:           push.OutcomeForStatus,
	}
}
