package engine

import (
	"fmt"
	"time"
)

// defaultConcurrency is how many first-attempt batches a route has in
// flight when its Concurrency is not set.
const defaultConcurrency = 16

// Enqueue queues items for their first attempt on route id. It never waits
// for delivery.
func (e *Engine) Enqueue(id string, items ...*Item) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	rs, ok := e.routes[id]
	if !ok {
		return fmt.Errorf("no route %q", id)
	}
	rs.pending = append(rs.pending, items...)
	rs.metrics.Queued += uint64(len(items))
	e.scheduleDispatchLocked(rs)
	return nil
}

func (e *Engine) scheduleDispatchLocked(rs *routeState) { e.scheduleDispatchAfterLocked(rs, 0) }

// scheduleDispatchAfterLocked dispatches rs's pending events after a wait
// on the clock (a route's Pace).
func (e *Engine) scheduleDispatchAfterLocked(rs *routeState, after time.Duration) {
	if rs.dispatching || rs.removed || len(rs.pending) == 0 {
		return
	}
	rs.dispatching = true
	e.clock.AfterFunc(after, func() { e.dispatch(rs) })
}

// dispatch starts first attempts for pending events, as many batches as the
// route's concurrency allows. It never waits to fill a batch (EG-16).
//
// Every batch is judged by the route's retry policy before its first
// attempt, as before a retry: an event that waited out its time to live in
// the queue, or behind a hold, is given up without an attempt (EG-14: the
// TTL is checked when the next attempt is due).
//
// A route whose destination runs inline has its first attempts made here,
// one after another once the lock is released, instead of in a goroutine
// each; the route stays dispatching meanwhile, so events enqueued during
// them are taken by the next round of this loop, not by a new dispatch.
// The dispatch is clock work (it runs from a timer), so a virtual clock
// still waits for every attempt it makes.
func (e *Engine) dispatch(rs *routeState) {
	for e.dispatchRound(rs) {
	}
}

// dispatchRound is one pass of dispatch; it reports whether it made
// attempts inline, after which the queue is looked at again.
func (e *Engine) dispatchRound(rs *routeState) (again bool) {
	e.mu.Lock()
	rs.dispatching = false
	if rs.removed {
		e.mu.Unlock()
		return false
	}
	now := e.clock.Now()
	held := now.Before(rs.heldUntil)
	if !held {
		rs.release = len(rs.pending)
	}
	limit := concurrency(rs.route)
	inline := runsInline(rs.route)
	var ended []ending
	var inlined []*Batch
	for len(rs.pending) > 0 && rs.inflight < limit && rs.release > 0 {
		if wait := paced(rs.route, now); wait > 0 {
			// Over the rate: the rest waits on the clock, still queued.
			e.scheduleDispatchAfterLocked(rs, wait)
			break
		}
		b := takeBatch(&rs.pending, rs.route)
		items := b.Items
		rs.release = max(0, rs.release-len(items))
		if d := rs.route.Retry.BeforeRetry(b, now); d.Action != Proceed && d.Action != Retry {
			e.endLocked(rs, b, d)
			ended = append(ended, ending{b, d})
			continue
		}
		rs.inflight++
		rs.inFlightEvents += len(items)
		if inline {
			inlined = append(inlined, b)
			continue
		}
		e.goAttempts(rs, func(w outsideMark) { e.attempt(rs, b, true, w) })
	}
	if len(inlined) > 0 {
		rs.dispatching = true // this goroutine looks at the queue again
	}
	if len(rs.pending) > 0 && rs.release == 0 && now.Before(rs.heldUntil) {
		// New deliveries wait out the hold too (EG-17).
		e.deferLocked(rs, now)
	}
	route := rs.route
	e.mu.Unlock()
	for _, g := range ended {
		e.giveUp(rs, route, g.b, g.d)
	}
	for _, b := range inlined {
		// An inline destination never waits outside the emulator: the
		// attempt has no mark to set.
		e.attempt(rs, b, true, outsideMark{})
	}
	return len(inlined) > 0
}

// runsInline reports whether r's first attempts are made in the
// dispatching goroutine: its destination says it answers in-process, and
// nothing about the route waits on the clock between attempts (a Pace) or
// during one (a response timeout).
func runsInline(r *Route) bool {
	return r.Inline && r.Pace == nil && r.ResponseTimeout <= 0
}

// takeBatch cuts the next batch off the queue: up to MaxBatchEvents, and up
// to PreferredBatchBytes unless the first event alone is larger (EG-15).
func takeBatch(queue *[]*Item, r *Route) *Batch {
	q := *queue
	maxEvents := r.MaxBatchEvents
	if maxEvents < 1 {
		maxEvents = 1
	}
	n, bytes := 0, 0
	for n < len(q) && n < maxEvents {
		size := q[n].Len()
		if n > 0 && r.PreferredBatchBytes > 0 && bytes+size > r.PreferredBatchBytes {
			break
		}
		bytes += size
		n++
	}
	var b *Batch
	if n == 1 {
		// One event a batch (EventBridge's targets): the batch and its
		// item slice in one allocation.
		one := &struct {
			batch Batch
			items [1]*Item
		}{}
		one.items[0] = q[0]
		b = &one.batch
		b.Items = one.items[:]
	} else {
		b = &Batch{Items: make([]*Item, n)}
		copy(b.Items, q[:n])
	}
	// Release the taken slots so the queue does not pin delivered events.
	clear(q[:n])
	*queue = q[n:]
	if len(*queue) == 0 {
		*queue = nil
	}
	return b
}

// concurrency is how many first-attempt batches r has in flight at most,
// and how many retries released together go at once.
func concurrency(r *Route) int {
	if r.Concurrency > 0 {
		return r.Concurrency
	}
	return defaultConcurrency
}

// paced asks the route's Pace, if any, how long its next attempt waits.
func paced(r *Route, now time.Time) time.Duration {
	if r.Pace == nil {
		return 0
	}
	return r.Pace(now)
}
