package engine

import (
	"fmt"
	"sort"
	"time"
)

// routeState is one route and all the engine holds for it: its queue,
// attempts in flight, retries, hold, dead-letter writes and counters. The
// engine's lock guards it.
type routeState struct {
	route   *Route
	pending []*Item
	// inflight counts first-attempt batches in flight, which the route's
	// concurrency bounds.
	inflight int
	// dispatching is true while a dispatch is scheduled or running.
	dispatching bool
	heldUntil   time.Time
	holdState   string
	// holdJournaled is true once the current hold has its deferred entry:
	// a hold is journalled once, however many events it holds back.
	holdJournaled bool
	// holdTimer ends the current hold: it releases deferred and pending.
	holdTimer Timer
	// deferred are retries that came due while the route was held; they go
	// when the hold ends.
	deferred []*Batch
	// release counts pending events let through by the end of a hold (or
	// found queued while the route was active): they are sent at the
	// route's pace even when their own failures start a new hold, so a
	// backlog drains instead of trickling out a few per hold (EG-17).
	release int
	removed bool
	// retryQ holds the batches waiting for a retry (retryqueue.go).
	retryQ retryQueue
	// writes are the dead-letter writes waiting for their time, so Reset
	// can cancel them and let go of what they hold.
	writes   map[uint64]Timer
	writeSeq uint64
	// Events, not batches, in each state the metrics report.
	inFlightEvents, retryingEvents, awaitingEvents int
	metrics                                        RouteMetrics
}

// PutRoute adds a route or replaces one with the same id. Events already
// queued or retrying keep going, under the new settings.
func (e *Engine) PutRoute(r *Route) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if rs, ok := e.routes[r.ID]; ok {
		rs.route = r
		rs.metrics.Labels = r.Labels
		return
	}
	e.routes[r.ID] = &routeState{
		route:   r,
		writes:  make(map[uint64]Timer),
		metrics: RouteMetrics{Route: r.ID, Labels: r.Labels},
	}
}

// RemoveRoute deletes a route. What it still held is dropped and journalled
// with reason (D-DROP).
func (e *Engine) RemoveRoute(id, reason string) {
	e.mu.Lock()
	rs, ok := e.routes[id]
	if !ok {
		e.mu.Unlock()
		return
	}
	delete(e.routes, id)
	rs.removed = true
	var lost []*Item
	lost = append(lost, rs.pending...)
	rs.pending = nil
	for _, b := range e.clearRetriesLocked(rs) {
		lost = append(lost, b.Items...)
	}
	for _, b := range rs.deferred {
		lost = append(lost, b.Items...)
	}
	rs.deferred = nil
	if rs.holdTimer != nil {
		rs.holdTimer.Stop()
		rs.holdTimer = nil
	}
	route := rs.route
	e.mu.Unlock()
	if len(lost) > 0 {
		if reason == "" {
			reason = ReasonRouteDeleted
		}
		e.journal.Append(Entry{
			Time: e.clock.Now(), Kind: KindDrop, Route: route.ID, Labels: route.Labels,
			EventIDs: itemIDs(lost), Outcome: reason,
			Message: fmt.Sprintf("%d event(s) were still queued or retrying when the route was deleted", len(lost)),
		})
	}
}

// Routes lists the ids of every route.
func (e *Engine) Routes() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	ids := make([]string, 0, len(e.routes))
	for id := range e.routes {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func itemIDs(items []*Item) []string {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	return ids
}
