package engine

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// attempt makes one delivery attempt and acts on its outcome. The batch's
// events are counted in flight by the caller.
func (e *Engine) attempt(rs *routeState, b *Batch, first bool, m outsideMark) {
	e.mu.Lock()
	route := rs.route
	rs.metrics.Attempts++
	if !first {
		rs.metrics.Retries++
	}
	e.mu.Unlock()

	now := e.clock.Now()
	b.Attempts++
	if b.Attempts == 1 {
		b.FirstAttemptAt = now
	}
	b.LastAttemptAt = now
	a := &Attempt{Route: route, Batch: b, Number: b.Attempts, At: now}

	o, injected := e.faults.outcomeFor(route, b)
	switch {
	case injected:
	case !m.awaited() && route.ResponseTimeout > 0:
		// Nothing waits for this attempt's work: it is made on this
		// goroutine, and a response timeout acts from its timer.
		e.deliverUnawaited(rs, route, a, func(o Outcome) { e.act(rs, route, b, a, first, o, now) })
		return
	default:
		var release func()
		o, release = e.deliver(rs, route, a, m)
		// Released once the outcome has been acted on (retry scheduled,
		// dead letter queued): see deliver.
		defer release()
	}
	e.act(rs, route, b, a, first, o, now)
}

// act records an attempt's outcome and does what it calls for: the
// delivery counted, a retry scheduled, the batch given up.
func (e *Engine) act(rs *routeState, route *Route, b *Batch, a *Attempt, first bool, o Outcome, now time.Time) {
	if o.OK && o.Name == "" {
		o.Name = "Success"
	}
	// The batch remembers the outcome for its dead-letter record, not what
	// was sent: the journal keeps that, and a pending batch should not hold
	// a copy of its last request.
	b.LastOutcome = o
	b.LastOutcome.Request = nil
	b.LastOutcome.Message = e.journal.intern(o.Message)
	b.LastOutcome.Destination = e.journal.intern(o.Destination)
	o.Message, o.Destination = b.LastOutcome.Message, b.LastOutcome.Destination

	// The entry refers to the batch's items rather than copying their ids
	// and bodies: the journal derives both on read (see journal_compact.go).
	entry := Entry{
		Time: now, Kind: KindAttempt, Route: route.ID, Labels: route.Labels,
		Attempt: a.Number, Outcome: o.Name, Status: o.Status,
		Message: o.Message, Request: o.Request, Destination: o.Destination, items: b.Items,
	}

	if o.OK {
		e.journal.Append(entry)
		e.journal.Append(Entry{
			Time: e.clock.Now(), Kind: KindDelivered, Route: route.ID, Labels: route.Labels,
			Attempt: a.Number, Outcome: o.Name, Status: o.Status, items: b.Items,
		})
		e.mu.Lock()
		rs.inFlightEvents -= len(b.Items)
		rs.metrics.Delivered += uint64(len(b.Items))
		e.finishAttemptLocked(rs, first)
		e.mu.Unlock()
		return
	}

	d := route.Retry.AfterFailure(b, o, e.clock.Now())
	if d.Action == Retry {
		next := e.clock.Now().Add(d.After)
		entry.NextAttemptAt = &next
	}
	// The attempt is journalled once its consequences are in force (the
	// hold, the retry, the accounting): whoever sees the entry, a test
	// waiting for it before it enqueues more, sees the route as it now is.
	e.mu.Lock()
	e.holdLocked(rs, d)
	rs.inFlightEvents -= len(b.Items)
	switch d.Action {
	case Retry:
		if !rs.removed {
			e.scheduleRetryLocked(rs, b, d.After)
			rs.retryingEvents += len(b.Items)
		}
		e.finishAttemptLocked(rs, first)
		e.mu.Unlock()
		e.journal.Append(entry)
	default:
		e.endLocked(rs, b, d)
		e.finishAttemptLocked(rs, first)
		e.mu.Unlock()
		e.journal.Append(entry)
		e.giveUp(rs, route, b, d)
	}
}

func (e *Engine) finishAttemptLocked(rs *routeState, first bool) {
	if first {
		rs.inflight--
	}
	e.scheduleDispatchLocked(rs)
}

// deliver calls the destination with the route's response timeout running
// on the emulator clock. The caller must call release once it has acted on
// the outcome.
func (e *Engine) deliver(rs *routeState, route *Route, a *Attempt, m outsideMark) (o Outcome, release func()) {
	if route.ResponseTimeout <= 0 {
		return route.Destination.Deliver(context.Background(), a), func() {}
	}
	lingers := route.LateSuccessWindow > route.ResponseTimeout
	ctx, cancel := context.WithCancelCause(context.Background())
	acted := make(chan struct{})
	timedOut := make(chan struct{})
	timer := e.clock.AfterFunc(route.ResponseTimeout, func() {
		close(timedOut)
		if !lingers {
			cancel(ErrResponseTimeout)
		}
		// Hold the clock until the attempt has acted on its timeout, so a
		// virtual clock does not move past the retry it schedules.
		<-acted
	})
	result := make(chan Outcome, 1)
	waiting := m.start(e.clock.Now().Add(route.ResponseTimeout))
	e.workers.Go(func() { result <- route.Destination.Deliver(waiting.trace(ctx), a) })
	select {
	case o = <-result:
		waiting.end()
		timer.Stop()
	case <-timedOut:
		waiting.end()
		if !lingers {
			o = <-result // cancelled with ErrResponseTimeout: the destination names it
			break
		}
		// The attempt has failed, but the request stays open: an answer
		// within the late-success window withdraws the retry (EG-5).
		name := route.TimeoutOutcome
		if name == "" {
			name = "TimedOut"
		}
		o = Outcome{Name: name, Message: fmt.Sprintf("no answer within %s", route.ResponseTimeout)}
		giveUp := e.clock.AfterFunc(route.LateSuccessWindow-route.ResponseTimeout, func() { cancel(ErrResponseTimeout) })
		go func() {
			late := <-result
			giveUp.Stop()
			cancel(nil)
			if late.OK {
				e.lateSuccess(rs, route, a.Batch, late)
			}
		}()
		return o, func() { close(acted) }
	}
	return o, func() {
		cancel(nil)
		close(acted)
	}
}

// deliverUnawaited is deliver for an attempt no clock waits for (real or
// scaled time): the destination is called on this goroutine, not on a
// second one this goroutine would wait for, and act is called once with
// the outcome. When the response timeout fires first, a route that does
// not linger has its request cancelled and acts on the destination's
// outcome, as deliver does; one that lingers acts on the timeout from the
// timer, while the request stays open through the late-success window,
// and a late success withdraws the retry (EG-5).
func (e *Engine) deliverUnawaited(rs *routeState, route *Route, a *Attempt, act func(Outcome)) {
	lingers := route.LateSuccessWindow > route.ResponseTimeout
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	st := &unawaitedAttempt{}
	timer := e.clock.AfterFunc(route.ResponseTimeout, func() {
		// Decided under st.mu, so a late answer that finds the timeout
		// first waits for the timeout to be acted on.
		st.mu.Lock()
		defer st.mu.Unlock()
		if !st.decided.CompareAndSwap(false, true) {
			return // answered first
		}
		if !lingers {
			cancel(ErrResponseTimeout)
			return
		}
		st.giveUp = e.clock.AfterFunc(route.LateSuccessWindow-route.ResponseTimeout, func() { cancel(ErrResponseTimeout) })
		name := route.TimeoutOutcome
		if name == "" {
			name = "TimedOut"
		}
		act(Outcome{Name: name, Message: fmt.Sprintf("no answer within %s", route.ResponseTimeout)})
	})
	o := route.Destination.Deliver(ctx, a)
	if st.decided.CompareAndSwap(false, true) {
		timer.Stop()
		act(o)
		return
	}
	if !lingers {
		act(o) // cancelled with ErrResponseTimeout: the destination names it
		return
	}
	// The late answer of a lingering attempt; the timer decided and acted
	// on the timeout holding st.mu, so once it is ours the retry a late
	// success withdraws is scheduled.
	st.mu.Lock()
	giveUp := st.giveUp
	st.mu.Unlock()
	giveUp.Stop()
	if o.OK {
		e.lateSuccess(rs, route, a.Batch, o)
	}
}

// unawaitedAttempt is what deliverUnawaited's goroutine and its timeout
// share: decided is set by whichever of the answer and the timeout comes
// first.
type unawaitedAttempt struct {
	decided atomic.Bool
	mu      sync.Mutex
	giveUp  Timer
}

// lateSuccess takes a batch off the retry queue when its timed-out attempt
// was answered with success after all. Best effort, as in the cloud: a retry
// already made stays made, so duplicates remain possible.
func (e *Engine) lateSuccess(rs *routeState, route *Route, b *Batch, o Outcome) {
	e.mu.Lock()
	pending := e.withdrawRetryLocked(rs, b)
	if !pending {
		if i := slices.Index(rs.deferred, b); i >= 0 {
			rs.deferred = slices.Delete(rs.deferred, i, i+1)
			pending = true
		}
	}
	if pending {
		rs.retryingEvents -= len(b.Items)
		rs.metrics.Delivered += uint64(len(b.Items))
	}
	e.mu.Unlock()
	if !pending {
		return
	}
	e.journal.Append(Entry{
		Time: e.clock.Now(), Kind: KindDelivered, Route: route.ID, Labels: route.Labels,
		EventIDs: b.EventIDs(), Attempt: b.Attempts, Outcome: o.Name, Status: o.Status,
		Message: "answered after the response timeout; the pending retry was withdrawn",
	})
}
