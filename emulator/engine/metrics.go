package engine

import (
	"sort"
	"time"
)

// RouteMetrics counts what happened on one route (EB-D4). At every instant
// Queued = Delivered + DeadLettered + Dropped + Pending + Retrying +
// InFlight + AwaitingDeadLetter: each event accepted for the route is in
// exactly one of those places.
type RouteMetrics struct {
	Route        string            `json:"route"`
	Labels       map[string]string `json:"labels,omitempty"`
	Queued       uint64            `json:"queued"`
	Attempts     uint64            `json:"attempts"`
	Retries      uint64            `json:"retries"`
	Delivered    uint64            `json:"delivered"`
	DeadLettered uint64            `json:"deadLettered"`
	// Dropped counts events given up with no dead letter written, whatever
	// the reason (DeadLetterFailed included).
	Dropped uint64 `json:"dropped"`
	// DeadLetterFailed is the part of Dropped whose dead-letter write failed
	// for good (destination not found, unavailable too long).
	DeadLetterFailed uint64 `json:"deadLetterFailed"`
	// Pending events wait for their first attempt.
	Pending int `json:"pending"`
	// Retrying events wait for a retry (including retries a hold defers).
	Retrying int `json:"retrying"`
	// State is "Active", or the hold in force ("Probation", "DelayedDelivery").
	State     string     `json:"state"`
	HeldUntil *time.Time `json:"heldUntil,omitempty"`
	// InFlight events are in an attempt now.
	InFlight int `json:"inFlight"`
	// AwaitingDeadLetter events are given up and wait for their dead letter
	// to be written: the write delay (EG-21) or a storage outage (EG-22).
	AwaitingDeadLetter int       `json:"awaitingDeadLetter"`
	LastChange         time.Time `json:"-"`
}

// Metrics reports every route's counters, sorted by route id.
func (e *Engine) Metrics() []RouteMetrics {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.clock.Now()
	out := make([]RouteMetrics, 0, len(e.routes))
	for _, rs := range e.routes {
		m := rs.metrics
		m.Pending = len(rs.pending)
		m.Retrying = rs.retryingEvents
		m.InFlight = rs.inFlightEvents
		m.AwaitingDeadLetter = rs.awaitingEvents
		m.State = "Active"
		if now.Before(rs.heldUntil) {
			m.State = rs.holdState
			if m.State == "" {
				m.State = "Held"
			}
			until := rs.heldUntil
			m.HeldUntil = &until
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Route < out[j].Route })
	return out
}

// RouteMetrics reports one route's counters.
func (e *Engine) RouteMetrics(id string) (RouteMetrics, bool) {
	for _, m := range e.Metrics() {
		if m.Route == id {
			return m, true
		}
	}
	return RouteMetrics{}, false
}
