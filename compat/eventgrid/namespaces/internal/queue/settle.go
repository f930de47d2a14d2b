package queue

import (
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
)

// Acknowledge deletes the events locked by tokens. Results keep the order of
// tokens.
func (q *Queue) Acknowledge(tokens []string) []Result {
	return q.settle(tokens, func(m *message, now time.Time) *Ending {
		q.finishLocked(m)
		q.counts.Acknowledged++
		return nil
	})
}

// Reject ends the events locked by tokens: the caller dead-letters them
// (NS-2: an event the consumer rejects).
func (q *Queue) Reject(tokens []string) []Result {
	return q.settle(tokens, func(m *message, now time.Time) *Ending {
		q.finishLocked(m)
		q.counts.Rejected++
		return q.endingLocked(m, Rejected, now)
	})
}

// Release makes the events locked by tokens available again after delay,
// for a redelivery with a higher delivery count. Releasing the last allowed
// delivery ends the event at once (the reference's suggestion; the
// service's timing is UNCONFIRMED).
func (q *Queue) Release(tokens []string, delay time.Duration) []Result {
	return q.settle(tokens, func(m *message, now time.Time) *Ending {
		q.unlockLocked(m)
		if m.deliveries >= q.cfg.MaxDeliveryCount {
			q.finishLocked(m)
			q.counts.EndedMaxDeliveries++
			return q.endingLocked(m, ReleasedOnLastDelivery, now)
		}
		q.counts.Released++
		if delay <= 0 {
			q.available.push(m)
			q.signalLocked()
			return nil
		}
		m.state = stateDelayed
		q.delayed[m] = struct{}{}
		m.delayTimer = q.clock.AfterFunc(delay, func() { q.delayOver(m) })
		return nil
	})
}

// RenewLocks restarts the locks of tokens for the lock duration from now,
// within RenewWindow of the event's receive.
func (q *Queue) RenewLocks(tokens []string) []Result {
	out := make([]Result, len(tokens))
	q.mu.Lock()
	now := q.clock.Now()
	for i, tok := range tokens {
		m, err := q.lookupLocked(tok, now)
		switch {
		case err != nil:
			out[i] = Result{Token: tok, Err: err}
		case !now.Before(m.lockedAt.Add(RenewWindow)):
			out[i] = Result{Token: tok, Err: &TokenError{Code: CodeTokenLost, Message: MessageRenewWindow}}
		default:
			q.lockLocked(m, now, q.cfg.LockDuration)
			out[i] = Result{Token: tok, Event: m.ev}
		}
	}
	q.mu.Unlock()
	return out
}

// settle applies op to each token's message under the lock and reports the
// events that ended afterwards, outside it.
func (q *Queue) settle(tokens []string, op func(m *message, now time.Time) *Ending) []Result {
	out := make([]Result, len(tokens))
	var ended []Ending
	q.mu.Lock()
	now := q.clock.Now()
	for i, tok := range tokens {
		m, err := q.lookupLocked(tok, now)
		if err != nil {
			out[i] = Result{Token: tok, Err: err}
			continue
		}
		out[i] = Result{Token: tok, Event: m.ev}
		if e := op(m, now); e != nil {
			ended = append(ended, *e)
		}
	}
	q.mu.Unlock()
	q.reportEnded(ended)
	return out
}

// lookupLocked finds the message a token currently locks. A token whose lock
// has run out is lost even if its expiry has not been processed yet.
func (q *Queue) lookupLocked(tok string, now time.Time) (*message, *TokenError) {
	m, ok := q.locked[tok]
	if ok && now.Before(m.lockedUntil) {
		return m, nil
	}
	if !ok && !wellFormed(tok) {
		return nil, &TokenError{Code: CodeBadToken, Message: MessageBadToken}
	}
	return nil, &TokenError{Code: CodeTokenLost, Message: MessageTokenLost}
}

// unlockLocked takes m out of the locked set; its token dies.
func (q *Queue) unlockLocked(m *message) {
	delete(q.locked, m.token)
	m.token = ""
	m.lockGen++
	if m.lockTimer != nil {
		m.lockTimer.Stop()
		m.lockTimer = nil
	}
}

// finishLocked removes m for good, whatever its state, and stops its timers.
func (q *Queue) finishLocked(m *message) {
	switch m.state {
	case stateLocked:
		q.unlockLocked(m)
	case stateDelayed:
		delete(q.delayed, m)
		if m.delayTimer != nil {
			m.delayTimer.Stop()
		}
	case stateAvailable:
		q.available.forget()
	}
	if m.expiryTimer != nil {
		m.expiryTimer.Stop()
	}
	m.state = stateGone
}

// endingLocked counts m as ended and describes its ending.
func (q *Queue) endingLocked(m *message, cause Cause, now time.Time) *Ending {
	q.counts.Ended++
	return endingOf(m, cause, now)
}

func endingOf(m *message, cause Cause, now time.Time) *Ending {
	return &Ending{
		Event: m.ev, Cause: cause, PublishedAt: m.publishedAt, At: now,
		DeliveryCount: m.deliveries, LastDeliveryAt: m.lastDeliveryAt,
	}
}

func (q *Queue) reportEnded(ended []Ending) {
	if len(ended) > 0 && q.hooks.Ended != nil {
		q.hooks.Ended(ended)
	}
}

// Close empties the queue, stops its timers and wakes waiting receivers. It
// returns the events it still held, for the caller to report as dropped.
func (q *Queue) Close() []*cloudevent.Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return nil
	}
	q.closed = true
	var held []*message
	q.available.each(func(m *message) { held = append(held, m) })
	for _, m := range q.locked {
		held = append(held, m)
	}
	for m := range q.delayed {
		held = append(held, m)
	}
	out := make([]*cloudevent.Event, 0, len(held))
	q.counts.Ended += uint64(len(held))
	for _, m := range held {
		q.finishLocked(m)
		out = append(out, m.ev)
	}
	q.watched = true
	q.signalLocked()
	return out
}
