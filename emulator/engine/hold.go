package engine

import (
	"fmt"
	"slices"
	"time"
)

// holdLocked puts the route on the hold a failure's decision asks for
// (probation, delayed delivery), unless a hold in force ends later.
func (e *Engine) holdLocked(rs *routeState, d Decision) {
	if d.Hold <= 0 {
		return
	}
	until := e.clock.Now().Add(d.Hold)
	if until.After(rs.heldUntil) {
		rs.heldUntil = until
		rs.holdState = d.HoldState
	}
}

// deferLocked notes that work due now waits for the route's hold (probation,
// delayed delivery) to end: the hold's end is scheduled to release it, and
// the hold is journalled once — its route, state, end, how much it holds and
// a sample of ids — however many events wait behind it or come due during it.
func (e *Engine) deferLocked(rs *routeState, now time.Time) {
	if rs.holdTimer == nil {
		rs.holdTimer = e.clock.AfterFunc(rs.heldUntil.Sub(now), func() { e.endHold(rs) })
	}
	if rs.holdJournaled {
		return
	}
	rs.holdJournaled = true
	held := len(rs.pending) + rs.retryingEvents
	sample := make([]string, 0, min(held, deferredSample))
	for _, b := range rs.deferred {
		for _, it := range b.Items {
			if len(sample) < deferredSample {
				sample = append(sample, it.ID)
			}
		}
	}
	for _, r := range rs.retryQ.entries {
		for _, it := range r.b.Items {
			if len(sample) < deferredSample {
				sample = append(sample, it.ID)
			}
		}
	}
	for _, it := range rs.pending {
		if len(sample) == deferredSample {
			break
		}
		sample = append(sample, it.ID)
	}
	slices.Sort(sample)
	until := rs.heldUntil
	e.journal.Append(Entry{
		Time: now, Kind: KindDeferred, Route: rs.route.ID, Labels: rs.route.Labels,
		EventIDs: sample, Count: held, Outcome: rs.holdState, NextAttemptAt: &until,
		Message: fmt.Sprintf("no attempt: the route is held (%s) until %s; %d event(s) wait for it",
			rs.holdState, until.UTC().Format(time.RFC3339), held),
	})
}

// deferredSample bounds the event ids a deferred entry lists.
const deferredSample = 10

// endHold runs when the route's hold is due to end. If the hold was
// extended meanwhile it waits again; otherwise every retry the hold deferred
// and every pending event is released at the route's pace, each judged by
// the retry policy first (EG-14, at the latest when the hold ends).
func (e *Engine) endHold(rs *routeState) {
	e.mu.Lock()
	rs.holdTimer = nil
	if rs.removed {
		e.mu.Unlock()
		return
	}
	now := e.clock.Now()
	if now.Before(rs.heldUntil) {
		// Extended meanwhile: the same hold, which ends later.
		rs.holdTimer = e.clock.AfterFunc(rs.heldUntil.Sub(now), func() { e.endHold(rs) })
		e.mu.Unlock()
		return
	}
	rs.holdJournaled = false
	batches := rs.deferred
	rs.deferred = nil
	rs.release = len(rs.pending)
	route := rs.route
	var ended []ending
	var released []*Batch
	for _, b := range batches {
		rs.retryingEvents -= len(b.Items)
		if d := route.Retry.BeforeRetry(b, now); d.Action != Proceed && d.Action != Retry {
			e.endLocked(rs, b, d)
			ended = append(ended, ending{b, d})
			continue
		}
		rs.inFlightEvents += len(b.Items)
		released = append(released, b)
	}
	e.scheduleDispatchLocked(rs)
	e.mu.Unlock()
	for _, g := range ended {
		e.giveUp(rs, route, g.b, g.d)
	}
	// The released retries go at the route's concurrency, not all at once.
	workers := concurrency(route)
	for w := 0; w < workers && w < len(released); w++ {
		e.goAttempts(rs, func(m outsideMark) {
			for i := w; i < len(released); i += workers {
				e.attempt(rs, released[i], false, m)
			}
		})
	}
}
