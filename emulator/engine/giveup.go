package engine

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// sinkWriteTimeout bounds one dead-letter write in real time, so a hung
// storage service is seen as unavailable and retried on the cloud schedule.
const sinkWriteTimeout = 10 * time.Second

// ending is a batch given up without an attempt, to dead-letter or drop
// once the engine's lock is released.
type ending struct {
	b *Batch
	d Decision
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
