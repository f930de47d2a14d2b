package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Engine delivers queued events along routes, on the clock, under each
// route's retry and dead-letter policy, and journals everything it does.
// It knows nothing of Azure or AWS: the cloud faces supply routes.
type Engine struct {
	clock   Clock
	journal *Journal
	faults  *Faults
	// recordSecrets keeps secret values readable in recorded requests
	// (secrets.go).
	recordSecrets atomic.Bool

	// epoch is the clock's time when the engine started: retry queues keep
	// their due times as offsets from it (retryqueue.go).
	epoch time.Time

	mu     sync.Mutex
	routes map[string]*routeState
}

// Drop reasons the engine itself produces.
const (
	ReasonRouteDeleted            = "RouteDeleted"
	ReasonNoDeadLetterDestination = "NoDeadLetterDestination"
	ReasonDeadLetterNotFound      = "DeadLetterDestinationNotFound"
	ReasonDeadLetterUnavailable   = "DeadLetterDestinationUnavailable"
	ReasonDeadLetterBuildFailed   = "DeadLetterRecordFailed"
)

const defaultConcurrency = 16

// sinkWriteTimeout bounds one dead-letter write in real time, so a hung
// storage service is seen as unavailable and retried on the cloud schedule.
const sinkWriteTimeout = 10 * time.Second

// New returns an engine on clock that journals into journal.
func New(clock Clock, journal *Journal) *Engine {
	return &Engine{clock: clock, journal: journal, faults: NewFaults(), routes: make(map[string]*routeState), epoch: clock.Now()}
}

// Clock returns the engine's clock.
func (e *Engine) Clock() Clock { return e.clock }

// Journal returns the engine's journal.
func (e *Engine) Journal() *Journal { return e.journal }

// Faults returns the engine's fault rules.
func (e *Engine) Faults() *Faults { return e.faults }

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

// ending is a batch given up without an attempt, to dead-letter or drop
// once the engine's lock is released.
type ending struct {
	b *Batch
	d Decision
}

// dispatch starts first attempts for pending events, as many batches as the
// route's concurrency allows. It never waits to fill a batch (EG-16).
//
// Every batch is judged by the route's retry policy before its first
// attempt, as before a retry: an event that waited out its time to live in
// the queue, or behind a hold, is given up without an attempt (EG-14: the
// TTL is checked when the next attempt is due).
func (e *Engine) dispatch(rs *routeState) {
	e.mu.Lock()
	rs.dispatching = false
	if rs.removed {
		e.mu.Unlock()
		return
	}
	now := e.clock.Now()
	held := now.Before(rs.heldUntil)
	if !held {
		rs.release = len(rs.pending)
	}
	limit := rs.route.Concurrency
	if limit <= 0 {
		limit = defaultConcurrency
	}
	var ended []ending
	for len(rs.pending) > 0 && rs.inflight < limit && rs.release > 0 {
		if wait := paced(rs.route, now); wait > 0 {
			// Over the rate: the rest waits on the clock, still queued.
			e.scheduleDispatchAfterLocked(rs, wait)
			break
		}
		items := takeBatch(&rs.pending, rs.route)
		rs.release = max(0, rs.release-len(items))
		b := &Batch{Items: items}
		if d := rs.route.Retry.BeforeRetry(b, now); d.Action != Proceed && d.Action != Retry {
			e.endLocked(rs, b, d)
			ended = append(ended, ending{b, d})
			continue
		}
		rs.inflight++
		rs.inFlightEvents += len(items)
		e.goAttempts(func(w outsideMark) { e.attempt(rs, b, true, w) })
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
}

// takeBatch cuts the next batch off the queue: up to MaxBatchEvents, and up
// to PreferredBatchBytes unless the first event alone is larger (EG-15).
func takeBatch(queue *[]*Item, r *Route) []*Item {
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
	batch := make([]*Item, n)
	copy(batch, q[:n])
	// Release the taken slots so the queue does not pin delivered events.
	clear(q[:n])
	*queue = q[n:]
	if len(*queue) == 0 {
		*queue = nil
	}
	return batch
}

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

	o, injected := e.faults.outcomeFor(route)
	if !injected {
		var release func()
		o, release = e.deliver(rs, route, a, m)
		// Released once the outcome has been acted on (retry scheduled,
		// dead letter queued): see deliver.
		defer release()
	}
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
	workers := route.Concurrency
	if workers <= 0 {
		workers = defaultConcurrency
	}
	for w := 0; w < workers && w < len(released); w++ {
		e.goAttempts(func(m outsideMark) {
			for i := w; i < len(released); i += workers {
				e.attempt(rs, released[i], false, m)
			}
		})
	}
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
	waiting := m.start()
	go func() { result <- route.Destination.Deliver(waiting.trace(ctx), a) }()
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
	e.goAttempts(func(m outsideMark) { e.attempt(rs, b, false, m) })
}

// endLocked accounts for a batch being given up: its events await their
// dead letter, or count as dropped at once. The caller has taken them out
// of pending, in flight or retrying, and calls giveUp after unlocking.
func (e *Engine) endLocked(rs *routeState, b *Batch, d Decision) {
	if d.Action == GiveUpDeadLetter && rs.route.DeadLetter != nil {
		rs.awaitingEvents += len(b.Items)
		return
	}
	rs.metrics.Dropped += uint64(len(b.Items))
}

// giveUp ends delivery of b: dead-lettered when the policy says so and the
// route has a destination, otherwise dropped with the reason. endLocked has
// counted the batch already.
func (e *Engine) giveUp(rs *routeState, route *Route, b *Batch, d Decision) {
	now := e.clock.Now()
	if d.Action == GiveUpDeadLetter && route.DeadLetter != nil {
		writes, err := route.DeadLetter.Build(b, d.Reason, now)
		if err != nil {
			e.drop(rs, route, b.EventIDs(), ReasonDeadLetterBuildFailed, err.Error(), true)
			return
		}
		written := 0
		for _, w := range writes {
			written += len(w.EventIDs)
			e.scheduleDeadLetter(rs, route, w, d.Reason, 0, time.Time{}, route.DeadLetter.Delay)
		}
		if written != len(b.Items) && !route.DeadLetter.HandsOff {
			// A builder that writes fewer events than it was given leaves
			// the rest nowhere: count them dropped rather than lose them.
			e.mu.Lock()
			rs.awaitingEvents -= len(b.Items) - written
			rs.metrics.Dropped += uint64(len(b.Items) - written)
			e.mu.Unlock()
		}
		return
	}
	msg := fmt.Sprintf("delivery given up (%s)", d.Reason)
	reason := d.Reason
	if d.Action == GiveUpDeadLetter {
		msg = fmt.Sprintf("delivery given up (%s) and the route has no dead-letter destination", d.Reason)
	}
	e.drop(rs, route, b.EventIDs(), reason, msg, false)
}

// drop journals events given up with reason. awaiting says they were
// counted as awaiting their dead letter, which has now failed: they move to
// dropped (and to its deadLetterFailed part when the write itself failed).
func (e *Engine) drop(rs *routeState, route *Route, ids []string, reason, msg string, awaiting bool) {
	e.journal.Append(Entry{
		Time: e.clock.Now(), Kind: KindDrop, Route: route.ID, Labels: route.Labels,
		EventIDs: ids, Outcome: reason, Message: msg,
	})
	if !awaiting {
		return
	}
	e.mu.Lock()
	rs.awaitingEvents -= len(ids)
	rs.metrics.Dropped += uint64(len(ids))
	if reason == ReasonDeadLetterNotFound || reason == ReasonDeadLetterUnavailable {
		rs.metrics.DeadLetterFailed += uint64(len(ids))
	}
	e.mu.Unlock()
}

// DeadLetterSettled reports that n events of route id, handed to the face's
// own dead-lettering (DeadLetterPolicy.HandsOff), have ended: written when
// dropReason is "", otherwise dropped with that reason.
func (e *Engine) DeadLetterSettled(id string, n int, dropReason string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	rs, ok := e.routes[id]
	if !ok {
		return
	}
	rs.awaitingEvents -= n
	if dropReason == "" {
		rs.metrics.DeadLettered += uint64(n)
		return
	}
	rs.metrics.Dropped += uint64(n)
	if dropReason == ReasonDeadLetterNotFound || dropReason == ReasonDeadLetterUnavailable {
		rs.metrics.DeadLetterFailed += uint64(n)
	}
}

// scheduleDeadLetter writes w after wait, retrying on the route's
// write-retry schedule while the sink fails. reason, why the events were
// given up, is the dead-letter entry's outcome, as it is a drop's.
func (e *Engine) scheduleDeadLetter(rs *routeState, route *Route, w DeadLetter, reason string, failures int, failingSince time.Time, wait time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if rs.writes == nil { // reset: nothing is written any more
		return
	}
	rs.writeSeq++
	id := rs.writeSeq
	rs.writes[id] = e.clock.AfterFunc(wait, func() {
		e.mu.Lock()
		_, due := rs.writes[id]
		delete(rs.writes, id)
		e.mu.Unlock()
		if !due {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), sinkWriteTimeout)
		err := route.DeadLetter.Sink.Write(ctx, w)
		cancel()
		now := e.clock.Now()
		switch {
		case err == nil:
			e.journal.Append(Entry{
				Time: now, Kind: KindDeadLetter, Route: route.ID, Labels: route.Labels,
				EventIDs: w.EventIDs, Outcome: reason, Destination: w.Destination, Body: w.Body,
			})
			e.mu.Lock()
			rs.awaitingEvents -= len(w.EventIDs)
			rs.metrics.DeadLettered += uint64(len(w.EventIDs))
			e.mu.Unlock()
		case errors.Is(err, ErrDestinationNotFound):
			e.drop(rs, route, w.EventIDs, ReasonDeadLetterNotFound, err.Error(), true)
		default:
			failures++
			if failingSince.IsZero() {
				failingSince = now
			}
			next, ok := time.Duration(0), false
			if route.DeadLetter.RetryAfter != nil {
				next, ok = route.DeadLetter.RetryAfter(failures, now.Sub(failingSince))
			}
			if !ok {
				e.drop(rs, route, w.EventIDs, ReasonDeadLetterUnavailable,
					fmt.Sprintf("dead-letter write failed %d time(s) over %s: %v", failures, now.Sub(failingSince), err), true)
				return
			}
			e.scheduleDeadLetter(rs, route, w, reason, failures, failingSince, next)
		}
	})
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

// Reset forgets every route, dropping what they held without journalling it
// (the caller asked for a clean slate), and empties the journal and faults.
// The route table is replaced, not emptied, so the memory it grew to is
// given back.
func (e *Engine) Reset() {
	e.mu.Lock()
	for _, rs := range e.routes {
		rs.removed = true
		e.clearRetriesLocked(rs)
		for _, t := range rs.writes {
			t.Stop()
		}
		if rs.holdTimer != nil {
			rs.holdTimer.Stop()
		}
		rs.pending, rs.deferred, rs.writes = nil, nil, nil
	}
	e.routes = make(map[string]*routeState)
	e.mu.Unlock()
	e.faults.Clear()
	e.journal.Reset()
}

// paced asks the route's Pace, if any, how long its next attempt waits.
func paced(r *Route, now time.Time) time.Duration {
	if r.Pace == nil {
		return 0
	}
	return r.Pace(now)
}

func itemIDs(items []*Item) []string {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	return ids
}
