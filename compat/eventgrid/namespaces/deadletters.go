package namespaces

import (
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/dlwriter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/push"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/queue"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// ending is an event a subscription gave up on, with what its dead-letter
// record says.
type ending struct {
	ev                         *cloudevent.Event
	reason, result             string
	attempts                   int
	publishedAt, lastAttemptAt time.Time
	at                         time.Time
	custom                     map[string]string
	// settled is told how the dead letter ended ("" written, else the
	// drop's reason), for the subscription's metrics.
	settled func(dropReason string)
}

// pullSettled counts how a queue subscription's ended event was dead-lettered.
func (es *subscriptionState) pullSettled(dropReason string) {
	switch dropReason {
	case "":
		es.pull.deadLettered.Add(1)
	case engine.ReasonDeadLetterNotFound, engine.ReasonDeadLetterUnavailable:
		es.pull.deadLetterFailed.Add(1)
		fallthrough
	default:
		es.pull.dropped.Add(1)
	}
}

// pullEnded dead-letters events that left a queue unacknowledged (NS-2).
func (s *Service) pullEnded(es *subscriptionState, ends []queue.Ending) {
	for _, e := range ends {
		reason, result := deadletter.ReasonMaxDeliveryAttempts, deadletter.ResultNotSettled
		switch e.Cause {
		case queue.Rejected:
			reason, result = deadletter.ReasonRejected, deadletter.ResultRejected
		case queue.ReleasedOnLastDelivery:
			result = deadletter.ResultReleased
		case queue.Expired:
			reason = deadletter.ReasonTimeToLive
			if e.DeliveryCount == 0 {
				result = deadletter.ResultNeverDelivered
			}
		}
		s.deadLetter(es, ending{
			ev: e.Event, reason: reason, result: result, attempts: e.DeliveryCount,
			publishedAt: e.PublishedAt, lastAttemptAt: e.LastDeliveryAt, at: e.At,
			settled: es.pullSettled,
		})
	}
}

// pushGaveUp dead-letters the events of a push batch the engine gave up on
// (NS-2: retries or time exhausted, or a never-retried answer).
func (s *Service) pushGaveUp(es *subscriptionState, b *engine.Batch, reason string, now time.Time) {
	var attrs []push.Attribute
	if hook := es.runtime.Load().settings.Webhook; hook != nil {
		attrs = hook.Attributes
	}
	result := b.LastOutcome.Name
	if result == "" {
		result = deadletter.ResultNeverDelivered
	}
	// The engine counts the batch as awaiting its dead letter until each
	// event is reported written or dropped (DeadLetterPolicy.HandsOff).
	settled := func(dropReason string) { s.cfg.Engine.DeadLetterSettled(es.route, 1, dropReason) }
	for _, it := range b.Items {
		ev := push.EventOf(it)
		if ev == nil {
			s.journal.Append(engine.Entry{
				Time: now, Kind: engine.KindDrop, Route: es.route, Labels: es.labels, EventIDs: []string{it.ID},
				Outcome: engine.ReasonDeadLetterBuildFailed, Message: "no CloudEvent to dead-letter",
			})
			settled(engine.ReasonDeadLetterBuildFailed)
			continue
		}
		s.deadLetter(es, ending{
			ev: ev, reason: reason, result: result, attempts: b.Attempts,
			publishedAt: it.PublishedAt, lastAttemptAt: b.LastAttemptAt, at: now,
			custom: push.CustomDeliveryProperties(attrs, ev), settled: settled,
		})
	}
}

// deadLetter writes one event's NS-4 record to the NS-6 blob of its
// subscription, or drops it, journalled, when the subscription has no
// dead-letter destination (D-DROP).
func (s *Service) deadLetter(es *subscriptionState, e ending) {
	rt := es.runtime.Load()
	dl := rt.settings.DeadLetter
	ids := []string{e.ev.ID}
	if dl == nil {
		s.journal.Append(engine.Entry{
			Time: e.at, Kind: engine.KindDrop, Route: es.route, Labels: es.labels, EventIDs: ids,
			Outcome: engine.ReasonNoDeadLetterDestination, Attempt: e.attempts,
			Message: fmt.Sprintf("%s (%s); the subscription has no dead-letter destination", e.reason, e.result),
		})
		e.settled(engine.ReasonNoDeadLetterDestination)
		return
	}
	body, err := deadletter.MarshalBlob([]deadletter.Record{{
		Event: e.ev.JSON, CustomDeliveryProperties: e.custom,
		Reason: e.reason, DeliveryAttempts: e.attempts, DeliveryResult: e.result,
		PublishedAt: e.publishedAt, LastDeliveryAttemptAt: e.lastAttemptAt,
	}})
	if err != nil {
		s.journal.Append(engine.Entry{
			Time: e.at, Kind: engine.KindDrop, Route: es.route, Labels: es.labels, EventIDs: ids,
			Outcome: engine.ReasonDeadLetterBuildFailed, Message: err.Error(),
		})
		e.settled(engine.ReasonDeadLetterBuildFailed)
		return
	}
	path := deadletter.BlobPath(es.namespace, es.topicName, es.name, e.at, uuid.NewString())
	s.writer.Submit(dlwriter.Job{
		Route: es.route, Labels: es.labels, EventIDs: ids, Body: body, Reason: e.reason,
		Destination: dl.Account + "/" + dl.Container + "/" + path,
		Deadline: dlwriter.Deadline(e.at, e.publishedAt.Add(rt.retention),
			time.Duration(dl.RetryPeriodDays)*24*time.Hour),
		Done: e.settled,
	})
}

// lockExpired journals a pull lock that ran out, so a test can see each
// redelivery's cause.
func (s *Service) lockExpired(es *subscriptionState, ev *cloudevent.Event, count int, at time.Time) {
	s.journal.Append(engine.Entry{
		Time: at, Kind: engine.KindAttempt, Route: es.route, Labels: es.labels,
		EventIDs: []string{ev.ID}, Attempt: count, Outcome: outcomeLockExpired,
	})
}
