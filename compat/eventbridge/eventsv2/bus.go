package eventsv2

import (
	"time"
)

// Retention of a v2 bus (EB-12): events stay replayable for this long on the
// emulator clock. The seed names no range; GridBridge takes 1 hour to 365
// days, 7 days by default, so a redrive after the longest retry window
// (MaxEventAgeInSeconds = 1 day) still finds its events.
const (
	minRetention     = time.Hour
	maxRetention     = 365 * 24 * time.Hour
	defaultRetention = 7 * 24 * time.Hour
)

// deduplicationWindow is how long a bus remembers an entry's DeduplicationId
// (the SQS FIFO window; the seed names none).
const deduplicationWindow = 5 * time.Minute

// storedEvent is one event as a v2 bus keeps it for its retention period.
type storedEvent struct {
	id              string
	busArn          string
	envelope        []byte // the event as targets receive it
	groupID         string
	deduplicationID string
	ingestedAt      time.Time
	// path lists the v2 buses the event came through before this one, so a
	// bus target that would send it round again fails with LOOP_DETECTED.
	path []string
}

// eventBus is a v2 event bus.
type eventBus struct {
	name, id, arn   string
	account, region string
	description     string
	retention       time.Duration
	created         time.Time
	modified        time.Time

	// events are the retained events, oldest first.
	events []*storedEvent
	// dedup remembers DeduplicationIds of the last deduplicationWindow.
	dedup map[string]dedupEntry
	// subscribers in creation order, the order deliveries are handed out.
	subscribers []*subscriber
}

type dedupEntry struct {
	eventID string
	at      time.Time
}

// retain keeps ev for the retention period and forgets what has expired.
func (b *eventBus) retain(ev *storedEvent, now time.Time) {
	b.expire(now)
	b.events = append(b.events, ev)
}

// expire drops events older than the retention period. Events arrive in
// clock order, so the expired ones are a prefix.
func (b *eventBus) expire(now time.Time) {
	cutoff := now.Add(-b.retention)
	n := 0
	for n < len(b.events) && b.events[n].ingestedAt.Before(cutoff) {
		n++
	}
	if n > 0 {
		clear(b.events[:n])
		b.events = b.events[n:]
	}
}

// retained returns the events still retained, oldest first.
func (b *eventBus) retained(now time.Time) []*storedEvent {
	b.expire(now)
	return append([]*storedEvent(nil), b.events...)
}

// duplicateOf returns the id of the event accepted with the same
// DeduplicationId within the window, if any.
func (b *eventBus) duplicateOf(dedupID string, now time.Time) (string, bool) {
	if dedupID == "" {
		return "", false
	}
	e, ok := b.dedup[dedupID]
	if !ok || now.Sub(e.at) >= deduplicationWindow {
		return "", false
	}
	return e.eventID, true
}

// remember records dedupID for the window, sweeping stale entries now and
// then so the map stays as small as the traffic of one window.
func (b *eventBus) remember(dedupID, eventID string, now time.Time) {
	if dedupID == "" {
		return
	}
	if b.dedup == nil {
		b.dedup = make(map[string]dedupEntry)
	}
	if len(b.dedup) >= 1024 && len(b.dedup)%1024 == 0 {
		for k, e := range b.dedup {
			if now.Sub(e.at) >= deduplicationWindow {
				delete(b.dedup, k)
			}
		}
	}
	b.dedup[dedupID] = dedupEntry{eventID: eventID, at: now}
}

// removeSubscriber forgets sub.
func (b *eventBus) removeSubscriber(sub *subscriber) {
	for i, s := range b.subscribers {
		if s == sub {
			b.subscribers = append(b.subscribers[:i], b.subscribers[i+1:]...)
			return
		}
	}
}
