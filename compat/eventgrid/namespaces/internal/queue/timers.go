package queue

// The callbacks below run on the emulator clock. Each first checks that the
// message is still in the state that scheduled it: a settle, renewal or
// expiry may have got there first.

// lockExpired returns a message whose lock ran out to the available events
// (redelivered with a higher count), or ends it when that was its last
// delivery (NS-2: not settled before the lock expired, maximum delivery
// count reached).
func (q *Queue) lockExpired(m *message, gen uint64) {
	q.mu.Lock()
	if m.state != stateLocked || m.lockGen != gen {
		q.mu.Unlock()
		return
	}
	now := q.clock.Now()
	ev, count := m.ev, m.deliveries
	var ended []Ending
	q.unlockLocked(m)
	if m.deliveries >= q.cfg.MaxDeliveryCount {
		q.finishLocked(m)
		q.counts.EndedMaxDeliveries++
		ended = append(ended, *q.endingLocked(m, LockExpiredOnLastDelivery, now))
	} else {
		q.available.push(m)
		q.signalLocked()
	}
	q.mu.Unlock()
	if q.hooks.LockExpired != nil {
		q.hooks.LockExpired(ev, count, now)
	}
	q.reportEnded(ended)
}

// delayOver makes a released message available once its delay has passed.
func (q *Queue) delayOver(m *message) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if m.state != stateDelayed {
		return
	}
	delete(q.delayed, m)
	m.delayTimer = nil
	q.available.push(m)
	q.signalLocked()
}

// expire ends a message whose time to live ran out, in whatever state it is
// (NS-2: retention or TTL ran out).
func (q *Queue) expire(m *message) {
	q.mu.Lock()
	if m.state == stateGone {
		q.mu.Unlock()
		return
	}
	now := q.clock.Now()
	m.expiryTimer = nil
	q.finishLocked(m)
	q.counts.Expired++
	e := q.endingLocked(m, Expired, now)
	q.mu.Unlock()
	q.reportEnded([]Ending{*e})
}
