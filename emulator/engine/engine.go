package engine

import (
	"context"
	"errors"
	"fmt"
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
	return &Engine{clock: clock, journal: journal, faults: NewFaults(), routes: make(map[string]*routeState)}
}

// Clock returns the engine's clock.
func (e *Engine) Clock() Clock { return e.clock }

// Journal returns the engine's journal.
func (e *Engine) Journal() *Journal { return e.journal }

// Faults returns the engine's fault rules.
func (e *Engine) Faults() *Faults { return e.faults }

type routeState struct {
	route    *Route
	pending  []*Item
	inflight int
	// dispatching is true while a dispatch is scheduled or running.
	dispatching bool
	heldUntil   time.Time
	holdState   string
	removed     bool
	retries     map[*Batch]Timer
	metrics     RouteMetrics
}

// RouteMetrics counts what happened on one route (EB-D4).
type RouteMetrics struct {
	Route        string            `json:"route"`
	Labels       map[string]string `json:"labels,omitempty"`
	Queued       uint64            `json:"queued"`
	Attempts     uint64            `json:"attempts"`
	Retries      uint64            `json:"retries"`
	Delivered    uint64            `json:"delivered"`
	DeadLettered uint64            `json:"deadLettered"`
	// Dropped counts events given up with no dead letter written.
	Dropped uint64 `json:"dropped"`
	// DeadLetterFailed counts events whose dead-letter write failed for good.
	DeadLetterFailed uint64 `json:"deadLetterFailed"`
	Pending          int    `json:"pending"`
	Retrying         int    `json:"retrying"`
	// State is "Active", or the hold in force ("Probation", "DelayedDelivery").
	State      string     `json:"state"`
	HeldUntil  *time.Time `json:"heldUntil,omitempty"`
	InFlight   int        `json:"inFlight"`
	LastChange time.Time  `json:"-"`
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
		retries: make(map[*Batch]Timer),
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
	for b, t := range rs.retries {
		t.Stop()
		lost = append(lost, b.Items...)
	}
	rs.retries = nil
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
	e.scheduleDispatchLocked(rs, 0)
	return nil
}

func (e *Engine) scheduleDispatchLocked(rs *routeState, after time.Duration) {
	if rs.dispatching || rs.removed || len(rs.pending) == 0 {
		return
	}
	rs.dispatching = true
	e.clock.AfterFunc(after, func() { e.dispatch(rs) })
}

// dispatch starts first attempts for pending events, as many batches as the
// route's concurrency allows. It never waits to fill a batch (EG-16).
func (e *Engine) dispatch(rs *routeState) {
	e.mu.Lock()
	defer e.mu.Unlock()
	rs.dispatching = false
	if rs.removed {
		return
	}
	now := e.clock.Now()
	if now.Before(rs.heldUntil) {
		// New deliveries wait out the hold too (EG-17); say so once.
		e.journalDeferral(rs, itemIDs(rs.pending), now)
		e.scheduleDispatchLocked(rs, rs.heldUntil.Sub(now))
		return
	}
	limit := rs.route.Concurrency
	if limit <= 0 {
		limit = defaultConcurrency
	}
	for len(rs.pending) > 0 && rs.inflight < limit {
		if wait := paced(rs.route, now); wait > 0 {
			// Over the rate: the rest waits on the clock, still queued.
			e.scheduleDispatchLocked(rs, wait)
			return
		}
		b := &Batch{Items: takeBatch(&rs.pending, rs.route)}
		rs.inflight++
		e.clock.Go(func() { e.attempt(rs, b, true) })
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
		size := len(q[n].Body)
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

// attempt makes one delivery attempt and acts on its outcome.
func (e *Engine) attempt(rs *routeState, b *Batch, first bool) {
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
		o, release = e.deliver(rs, route, a)
		// Released once the outcome has been acted on (retry scheduled,
		// dead letter queued): see deliver.
		defer release()
	}
	if o.OK && o.Name == "" {
		o.Name = "Success"
	}
	b.LastOutcome = o

	entry := Entry{
		Time: now, Kind: KindAttempt, Route: route.ID, Labels: route.Labels,
		EventIDs: b.EventIDs(), Attempt: a.Number, Outcome: o.Name, Status: o.Status,
		Message: o.Message, Request: o.Request, Destination: o.Destination,
	}

	if o.OK {
		e.journal.Append(entry)
		e.journal.Append(Entry{
			Time: e.clock.Now(), Kind: KindDelivered, Route: route.ID, Labels: route.Labels,
			EventIDs: entry.EventIDs, Attempt: a.Number, Outcome: o.Name, Status: o.Status,
		})
		e.mu.Lock()
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
	e.journal.Append(entry)

	e.mu.Lock()
	e.holdLocked(rs, d)
	switch d.Action {
	case Retry:
		if !rs.removed {
			rs.retries[b] = e.clock.AfterFunc(d.After, func() { e.retryDue(rs, b) })
		}
		e.finishAttemptLocked(rs, first)
		e.mu.Unlock()
	default:
		e.finishAttemptLocked(rs, first)
		e.mu.Unlock()
		e.giveUp(rs, route, b, d)
	}
}

func (e *Engine) finishAttemptLocked(rs *routeState, first bool) {
	if first {
		rs.inflight--
	}
	now := e.clock.Now()
	var after time.Duration
	if now.Before(rs.heldUntil) {
		after = rs.heldUntil.Sub(now)
	}
	e.scheduleDispatchLocked(rs, after)
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

// deliver calls the destination with the route's response timeout running
// on the emulator clock. The caller must call release once it has acted on
// the outcome.
func (e *Engine) deliver(rs *routeState, route *Route, a *Attempt) (o Outcome, release func()) {
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
	go func() { result <- route.Destination.Deliver(ctx, a) }()
	select {
	case o = <-result:
		timer.Stop()
	case <-timedOut:
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
	t, pending := rs.retries[b]
	if pending {
		t.Stop()
		delete(rs.retries, b)
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

// journalDeferral records that events due now wait for the route's hold
// (probation, delayed delivery) to end. Called with e.mu held.
func (e *Engine) journalDeferral(rs *routeState, ids []string, now time.Time) {
	until := rs.heldUntil
	e.journal.Append(Entry{
		Time: now, Kind: KindDeferred, Route: rs.route.ID, Labels: rs.route.Labels,
		EventIDs: ids, Outcome: rs.holdState, NextAttemptAt: &until,
		Message: fmt.Sprintf("no attempt: the route is held (%s) until %s", rs.holdState, until.UTC().Format(time.RFC3339)),
	})
}

// retryDue runs when a scheduled retry comes due.
func (e *Engine) retryDue(rs *routeState, b *Batch) {
	e.mu.Lock()
	if rs.removed {
		e.mu.Unlock()
		return
	}
	delete(rs.retries, b)
	route := rs.route
	now := e.clock.Now()
	if now.Before(rs.heldUntil) {
		// The route is on hold: the retry waits for the hold to end, and
		// the journal says why no attempt was made (EG-18's Probation).
		e.journalDeferral(rs, b.EventIDs(), now)
		rs.retries[b] = e.clock.AfterFunc(rs.heldUntil.Sub(now), func() { e.retryDue(rs, b) })
		e.mu.Unlock()
		return
	}
	if wait := paced(route, now); wait > 0 {
		rs.retries[b] = e.clock.AfterFunc(wait, func() { e.retryDue(rs, b) })
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()

	d := route.Retry.BeforeRetry(b, now)
	if d.Action != Proceed && d.Action != Retry {
		e.giveUp(rs, route, b, d)
		return
	}
	e.attempt(rs, b, false)
}

// giveUp ends delivery of b: dead-lettered when the policy says so and the
// route has a destination, otherwise dropped with the reason.
func (e *Engine) giveUp(rs *routeState, route *Route, b *Batch, d Decision) {
	now := e.clock.Now()
	if d.Action == GiveUpDeadLetter && route.DeadLetter != nil {
		writes, err := route.DeadLetter.Build(b, d.Reason, now)
		if err != nil {
			e.drop(rs, route, b.EventIDs(), ReasonDeadLetterBuildFailed, err.Error())
			return
		}
		for _, w := range writes {
			e.scheduleDeadLetter(rs, route, w, 0, time.Time{}, route.DeadLetter.Delay)
		}
		return
	}
	msg := fmt.Sprintf("delivery given up (%s)", d.Reason)
	reason := d.Reason
	if d.Action == GiveUpDeadLetter {
		msg = fmt.Sprintf("delivery given up (%s) and the route has no dead-letter destination", d.Reason)
	}
	e.drop(rs, route, b.EventIDs(), reason, msg)
}

func (e *Engine) drop(rs *routeState, route *Route, ids []string, reason, msg string) {
	e.journal.Append(Entry{
		Time: e.clock.Now(), Kind: KindDrop, Route: route.ID, Labels: route.Labels,
		EventIDs: ids, Outcome: reason, Message: msg,
	})
	e.mu.Lock()
	if reason == ReasonDeadLetterNotFound || reason == ReasonDeadLetterUnavailable {
		rs.metrics.DeadLetterFailed += uint64(len(ids))
	} else {
		rs.metrics.Dropped += uint64(len(ids))
	}
	e.mu.Unlock()
}

// scheduleDeadLetter writes w after wait, retrying on the route's
// write-retry schedule while the sink fails.
func (e *Engine) scheduleDeadLetter(rs *routeState, route *Route, w DeadLetter, failures int, failingSince time.Time, wait time.Duration) {
	e.clock.AfterFunc(wait, func() {
		ctx, cancel := context.WithTimeout(context.Background(), sinkWriteTimeout)
		err := route.DeadLetter.Sink.Write(ctx, w)
		cancel()
		now := e.clock.Now()
		switch {
		case err == nil:
			e.journal.Append(Entry{
				Time: now, Kind: KindDeadLetter, Route: route.ID, Labels: route.Labels,
				EventIDs: w.EventIDs, Destination: w.Destination, Body: w.Body,
			})
			e.mu.Lock()
			rs.metrics.DeadLettered += uint64(len(w.EventIDs))
			e.mu.Unlock()
		case errors.Is(err, ErrDestinationNotFound):
			e.drop(rs, route, w.EventIDs, ReasonDeadLetterNotFound, err.Error())
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
					fmt.Sprintf("dead-letter write failed %d time(s) over %s: %v", failures, now.Sub(failingSince), err))
				return
			}
			e.scheduleDeadLetter(rs, route, w, failures, failingSince, next)
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
		m.Retrying = len(rs.retries)
		m.InFlight = rs.inflight
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
func (e *Engine) Reset() {
	e.mu.Lock()
	for id, rs := range e.routes {
		rs.removed = true
		for _, t := range rs.retries {
			t.Stop()
		}
		delete(e.routes, id)
	}
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
