package eventsv2

import (
	"sort"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// SubscriberMetrics is what one subscriber did (EB-D4), for the inspection
// API and the testkit. Event counts are events, not batches, except the two
// record counts.
type SubscriberMetrics struct {
	SubscriberArn string `json:"subscriberArn"`
	Subscriber    string `json:"subscriber"`
	EventBusArn   string `json:"eventBusArn"`
	Route         string `json:"route"`

	// LiveEvents and ReplayedEvents were handed to the subscriber.
	LiveEvents     uint64 `json:"liveEvents"`
	ReplayedEvents uint64 `json:"replayedEvents"`
	// Deliveries counts events the target accepted.
	Deliveries uint64 `json:"deliveries"`
	// Attempts and Retries count delivery attempts (of batches).
	Attempts uint64 `json:"attempts"`
	Retries  uint64 `json:"retries"`
	// DeadLetteredEvents were written to the dead-letter queue, in
	// DeadLetterRecords records.
	DeadLetteredEvents uint64 `json:"deadLetteredEvents"`
	DeadLetterRecords  uint64 `json:"deadLetterRecords"`
	// EventsDropped exhausted their retries with no dead-letter queue (EB-1).
	EventsDropped uint64 `json:"eventsDropped"`
	// OnFailureDestinationFailed counts records that could not be written;
	// their events are lost (EB-11).
	OnFailureDestinationFailed uint64 `json:"onFailureDestinationFailed"`

	// Pending events wait for a first attempt; Retrying batches wait for a
	// retry; WaitingInGroups events of a FIFO subscriber wait behind an
	// earlier batch of their group (EB-4).
	Pending         int `json:"pending"`
	Retrying        int `json:"retrying"`
	WaitingInGroups int `json:"waitingInGroups"`
}

// Metrics reports every subscriber's counters, sorted by ARN. They combine
// the engine's route metrics with what the face counts itself: the engine
// does not see events that leave a partly failed batch, drops without a
// dead-letter queue (this face makes them), or records that could not be
// written. A deleted subscriber's counters go with it.
func (s *Service) Metrics() []SubscriberMetrics {
	byRoute := make(map[string]engine.RouteMetrics)
	for _, m := range s.engine.Metrics() {
		byRoute[m.Route] = m
	}
	s.mu.Lock()
	var subs []*subscriber
	for _, st := range s.scopes {
		for _, sub := range st.subscribers {
			subs = append(subs, sub)
		}
	}
	s.mu.Unlock()

	out := make([]SubscriberMetrics, 0, len(subs))
	for _, sub := range subs {
		rm := byRoute[sub.routeID]
		c := &sub.counts
		out = append(out, SubscriberMetrics{
			SubscriberArn:              sub.arn,
			Subscriber:                 sub.name,
			EventBusArn:                sub.bus.arn,
			Route:                      sub.routeID,
			LiveEvents:                 c.live.Load(),
			ReplayedEvents:             c.replayed.Load(),
			Deliveries:                 rm.Delivered + c.partialDelivered.Load(),
			Attempts:                   rm.Attempts,
			Retries:                    rm.Retries,
			DeadLetteredEvents:         rm.DeadLettered,
			DeadLetterRecords:          c.deadLetterRecords.Load(),
			EventsDropped:              c.eventsDropped.Load(),
			OnFailureDestinationFailed: c.onFailureFailed.Load(),
			Pending:                    rm.Pending,
			Retrying:                   rm.Retrying,
			WaitingInGroups:            sub.groups.waiting(),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SubscriberArn < out[j].SubscriberArn })
	return out
}
