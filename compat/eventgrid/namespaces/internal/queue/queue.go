// Package queue is the state of one Queue-mode (pull) event subscription:
// which events are available, which are locked and by which token, delivery
// counts, delayed releases, lock expiry and time to live. Every lock, delay
// and expiry runs on the emulator clock (D-CLOCK); only the receive long-poll
// waits in real time, because that is the client's own wait.
//
// Per event the states are
//
//	available ──receive──► locked ──acknowledge──► gone
//	    ▲                    │ reject ──────────► ended (Rejected)
//	    │◄── release(0) ─────┤ release(delay) ──► delayed ──► available
//	    │◄── lock expiry ────┘ (or ended on the last delivery)
//	any state ──time to live──► ended (Expired)
package queue

import (
	"context"
	"sync"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

type state uint8

const (
	stateAvailable state = iota
	stateLocked
	stateDelayed
	stateGone
)

type message struct {
	ev             *cloudevent.Event
	publishedAt    time.Time
	deliveries     int
	lastDeliveryAt time.Time
	state          state

	token       string
	lockGen     uint64 // bumped on every lock and renewal; stale timers see a different value
	lockedAt    time.Time
	lockedUntil time.Time
	lockTimer   engine.Timer
	delayTimer  engine.Timer
	expiryTimer engine.Timer
}

// Queue is safe for concurrent use.
type Queue struct {
	clock  engine.Clock
	hooks  Hooks
	tokens *tokenSource

	mu        sync.Mutex
	cfg       Config
	available fifo
	locked    map[string]*message
	delayed   map[*message]struct{}
	closed    bool
	// changed is closed when events become available; receivers waiting on
	// it then look again. It is replaced only when someone watched it.
	changed chan struct{}
	watched bool
	counts  Counts
}

// Counts are what happened to a queue's events (the accounting of pull
// subscriptions, without the journal). Queued = Acknowledged + Ended + Available + Locked +
// Delayed at every instant; Ended splits into Rejected, Expired and
// LockExpiredOnLastDelivery + ReleasedOnLastDelivery (the last two in
// EndedMaxDeliveries).
type Counts struct {
	Queued       uint64 `json:"queued"`
	Acknowledged uint64 `json:"acknowledged"`
	// Released counts release calls that made an event available again
	// (at once or after a delay); Received counts deliveries.
	Released uint64 `json:"released"`
	Received uint64 `json:"received"`
	// Ended events left the queue unacknowledged: rejected, expired, or
	// out of deliveries. The owner dead-letters or drops them.
	Ended              uint64 `json:"ended"`
	Rejected           uint64 `json:"rejected"`
	Expired            uint64 `json:"expired"`
	EndedMaxDeliveries uint64 `json:"endedMaxDeliveries"`
	Available          int    `json:"available"`
	Locked             int    `json:"locked"`
	Delayed            int    `json:"delayed"`
}

// Counts reports the queue's counters and current state.
func (q *Queue) Counts() Counts {
	q.mu.Lock()
	defer q.mu.Unlock()
	c := q.counts
	c.Available, c.Locked, c.Delayed = q.available.live, len(q.locked), len(q.delayed)
	return c
}

// New returns an empty queue.
func New(clock engine.Clock, cfg Config, hooks Hooks) *Queue {
	return &Queue{
		clock:   clock,
		hooks:   hooks,
		tokens:  newTokenSource(),
		cfg:     cfg,
		locked:  make(map[string]*message),
		delayed: make(map[*message]struct{}),
		changed: make(chan struct{}),
	}
}

// SetConfig changes the settings for what happens from now on; locks and
// expiries already running keep their times.
func (q *Queue) SetConfig(cfg Config) {
	q.mu.Lock()
	q.cfg = cfg
	q.mu.Unlock()
}

// Add makes events available, published at now. It reports false when the
// queue was closed (its subscription was deleted meanwhile).
func (q *Queue) Add(now time.Time, events []*cloudevent.Event) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	ttl := q.cfg.TimeToLive - q.clock.Now().Sub(now)
	for _, ev := range events {
		m := &message{ev: ev, publishedAt: now}
		m.expiryTimer = q.clock.AfterFunc(ttl, func() { q.expire(m) })
		q.available.push(m)
	}
	q.counts.Queued += uint64(len(events))
	q.signalLocked()
	return true
}

// Available reports how many events a receive could take now.
func (q *Queue) Available() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.available.live
}

// Len reports how many events the queue holds in any state.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.available.live + len(q.locked) + len(q.delayed)
}

// Receive locks and returns up to limit available events. With none available
// it waits, in real time, up to wait for some to arrive, and returns as soon
// as at least one has; nil when the wait ran out, ctx ended, or the queue
// was closed.
func (q *Queue) Receive(ctx context.Context, limit int, wait time.Duration) []Delivery {
	var timeout *time.Timer
	for {
		q.mu.Lock()
		// A receiver whose client has gone must not take events it cannot
		// hand out; they would sit locked until the lock expires.
		if q.closed || ctx.Err() != nil {
			q.mu.Unlock()
			return nil
		}
		if out := q.takeLocked(limit); len(out) > 0 {
			q.mu.Unlock()
			return out
		}
		changed := q.changed
		q.watched = true
		q.mu.Unlock()
		if timeout == nil {
			// The long-poll is the client's real-time wait (maxWaitTime),
			// not cloud time, so it is the one wait not on the clock.
			timeout = time.NewTimer(wait)
			defer timeout.Stop()
		}
		select {
		case <-changed:
		case <-timeout.C:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

func (q *Queue) takeLocked(limit int) []Delivery {
	if q.available.live == 0 {
		return nil
	}
	now := q.clock.Now()
	lock := q.cfg.LockDuration
	out := make([]Delivery, 0, min(limit, q.available.live))
	for len(out) < limit {
		m := q.available.pop()
		if m == nil {
			break
		}
		m.deliveries++
		q.counts.Received++
		m.lastDeliveryAt = now
		m.state = stateLocked
		m.token = q.tokens.next()
		m.lockedAt = now
		q.lockLocked(m, now, lock)
		q.locked[m.token] = m
		out = append(out, Delivery{Token: m.token, DeliveryCount: m.deliveries, Event: m.ev})
	}
	return out
}

// lockLocked (re)starts m's lock timer for d from now.
func (q *Queue) lockLocked(m *message, now time.Time, d time.Duration) {
	if m.lockTimer != nil {
		m.lockTimer.Stop()
	}
	m.lockGen++
	gen := m.lockGen
	m.lockedUntil = now.Add(d)
	m.lockTimer = q.clock.AfterFunc(d, func() { q.lockExpired(m, gen) })
}

func (q *Queue) signalLocked() {
	if q.watched {
		close(q.changed)
		q.changed = make(chan struct{})
		q.watched = false
	}
}
