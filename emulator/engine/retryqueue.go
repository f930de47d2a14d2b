package engine

import (
	"container/heap"
	"slices"
	"time"
)

// A route's retries wait in one queue, soonest first, served by one clock
// timer armed for the soonest: a backlog of failing events costs a queue
// entry per waiting batch, not a timer, a closure and a map entry each.
//
// On the virtual clock the queue keeps the clock's order: each retry takes
// the clock's next sequence number when it is scheduled, as a timer of its
// own would, and the route's timer is armed at the soonest retry's time and
// sequence number. Retries due at the same instant, on one route or on
// several, fire in the order they were scheduled, one per timer firing, and
// the clock waits for the work each starts before it fires the next (EG-8,
// EG-14: a retry is judged when it comes due).

// retryQueue is a route's batches waiting for a retry.
type retryQueue struct {
	entries retryHeap
	timer   Timer
	// armed identifies the timer in force; a timer that fires after it was
	// replaced finds another token and does nothing.
	armed, tokens uint64
}

// retryEntry is one batch waiting for its retry.
type retryEntry struct {
	due int64  // nanoseconds after the engine's epoch
	seq uint64 // order among retries due at the same instant
	b   *Batch
}

type retryHeap []retryEntry

func (h retryHeap) Len() int { return len(h) }
func (h retryHeap) Less(i, j int) bool {
	if h[i].due != h[j].due {
		return h[i].due < h[j].due
	}
	return h[i].seq < h[j].seq
}
func (h retryHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *retryHeap) Push(x any)   { *h = append(*h, x.(retryEntry)) }
func (h *retryHeap) Pop() any {
	old := *h
	n := len(old)
	e := old[n-1]
	old[n-1] = retryEntry{}
	*h = old[:n-1]
	return e
}

// scheduleRetryLocked queues b for a retry after wait.
func (e *Engine) scheduleRetryLocked(rs *routeState, b *Batch, wait time.Duration) {
	due := e.clock.Now().Add(max(wait, 0)).Sub(e.epoch)
	q := &rs.retryQ
	heap.Push(&q.entries, retryEntry{due: int64(due), seq: e.clock.nextSeq(), b: b})
	if q.entries[0].b == b {
		e.armRetryLocked(rs, wait <= 0)
	}
}

// armRetryLocked arms the route's retry timer for its soonest retry,
// replacing the timer in force. now runs it without waiting for the clock
// to move, as a timer of its own with no wait would (a retry due at once).
func (e *Engine) armRetryLocked(rs *routeState, now bool) {
	q := &rs.retryQ
	if q.timer != nil {
		q.timer.Stop()
		q.timer, q.armed = nil, 0
	}
	if len(q.entries) == 0 || rs.removed {
		return
	}
	q.tokens++
	token := q.tokens
	fire := func() { e.retryTimerFired(rs, token) }
	next := q.entries[0]
	when := e.epoch.Add(time.Duration(next.due))
	q.armed = token
	if now {
		q.timer = e.clock.AfterFunc(when.Sub(e.clock.Now()), fire)
		return
	}
	q.timer = e.clock.afterFuncAt(when, next.seq, fire)
}

// retryTimerFired takes the route's soonest retry off its queue, if due,
// re-arms the timer for the next and lets the retry go (retryDueLocked).
func (e *Engine) retryTimerFired(rs *routeState, token uint64) {
	e.mu.Lock()
	q := &rs.retryQ
	if rs.removed || q.armed != token {
		e.mu.Unlock()
		return
	}
	q.timer, q.armed = nil, 0
	if len(q.entries) == 0 {
		e.mu.Unlock()
		return
	}
	if e.epoch.Add(time.Duration(q.entries[0].due)).After(e.clock.Now()) {
		// The retry it was armed for was withdrawn (lateSuccess).
		e.armRetryLocked(rs, false)
		e.mu.Unlock()
		return
	}
	b := heap.Pop(&q.entries).(retryEntry).b
	e.armRetryLocked(rs, false)
	e.retryDueLocked(rs, b)
}

// withdrawRetryLocked takes b off the retry queue; it reports whether b was
// there. The timer stays armed: if it was armed for b it finds the next
// retry not yet due and re-arms.
func (e *Engine) withdrawRetryLocked(rs *routeState, b *Batch) bool {
	q := &rs.retryQ
	i := slices.IndexFunc(q.entries, func(r retryEntry) bool { return r.b == b })
	if i < 0 {
		return false
	}
	heap.Remove(&q.entries, i)
	return true
}

// clearRetriesLocked stops the route's retry timer and empties its queue,
// returning the batches it held.
func (e *Engine) clearRetriesLocked(rs *routeState) []*Batch {
	q := &rs.retryQ
	if q.timer != nil {
		q.timer.Stop()
	}
	batches := make([]*Batch, len(q.entries))
	for i, r := range q.entries {
		batches[i] = r.b
	}
	rs.retryQ = retryQueue{}
	return batches
}

// retryDueLocked runs when a scheduled retry comes due, with the engine's
// lock held, which it releases. The retry policy judges the batch now, at
// its scheduled attempt (EG-14), even when the route is held: a hold never
// keeps an expired event alive.
func (e *Engine) retryDueLocked(rs *routeState, b *Batch) {
	route := rs.route
	now := e.clock.Now()
	d := route.Retry.BeforeRetry(b, now)
	if d.Action != Proceed && d.Action != Retry {
		rs.retryingEvents -= len(b.Items)
		e.endLocked(rs, b, d)
		e.mu.Unlock()
		e.giveUp(rs, route, b, d)
		return
	}
	if now.Before(rs.heldUntil) {
		// The route is on hold: the retry waits for the hold to end, when
		// it is judged again (EG-10: a retry slot inside a hold is skipped).
		rs.deferred = append(rs.deferred, b)
		e.deferLocked(rs, now)
		e.mu.Unlock()
		return
	}
	if wait := paced(route, now); wait > 0 {
		// Over the rate: the retry waits its turn on the clock.
		e.scheduleRetryLocked(rs, b, wait)
		e.mu.Unlock()
		return
	}
	rs.retryingEvents -= len(b.Items)
	rs.inFlightEvents += len(b.Items)
	e.mu.Unlock()
	// Its own task, which can say when it waits for the endpoint (the
	// timer's task ends once this one is counted).
	e.goAttempts(rs, func(m outsideMark) { e.attempt(rs, b, false, m) })
}
