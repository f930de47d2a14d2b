// Package push delivers a namespace topic's events to the webhook of a
// Push-mode event subscription through the engine: the destination that makes
// the HTTP request, the retry policy of namespace push delivery, and the
// outcome names that end up in journal entries and dead-letter records.
package push

import (
	"net/http"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/deadletter"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// MaxRetryPeriod bounds push delivery however long the event's time to live
// is: "the maximum retry period for push is still 1 day" (Azure's namespace
// push delivery docs).
const MaxRetryPeriod = 24 * time.Hour

// Policy is the namespace push retry behaviour of one subscription. It is an
// engine.RetryPolicy.
type Policy struct {
	// MaxDeliveryCount is push.maxDeliveryCount (1..10): attempts, the
	// first one included.
	MaxDeliveryCount int
	// TimeToLive is push.eventTimeToLive, already capped by the topic's
	// retention.
	TimeToLive time.Duration
}

var _ engine.RetryPolicy = Policy{}

// attemptOffset is when attempt n+1 is due, measured from the first attempt,
// once n attempts have failed: 10 s, 30 s, 1 min, 5 min, then every 5 min
// [DOC: with TTL 20 min, attempts fall at 0, 10 s, 30 s, 1 m, 5 m, 10 m, 15 m
// and 20 m].
func attemptOffset(failed int) time.Duration {
	switch {
	case failed <= 1:
		return 10 * time.Second
	case failed == 2:
		return 30 * time.Second
	case failed == 3:
		return time.Minute
	default:
		return time.Duration(failed-3) * 5 * time.Minute
	}
}

// neverRetried lists the answers that dead-letter at once: 400, 401, 403,
// 404, 413 and 414 (the namespace retry page; 413 from its dead-letter
// section).
func neverRetried(status int) bool {
	switch status {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound,
		http.StatusRequestEntityTooLarge, http.StatusRequestURITooLong:
		return true
	}
	return false
}

// expiry is when the batch's time to live (capped at MaxRetryPeriod) ends.
func (p Policy) expiry(b *engine.Batch) time.Time {
	return b.OldestPublish().Add(min(p.TimeToLive, MaxRetryPeriod))
}

// AfterFailure implements engine.RetryPolicy. Whichever comes first ends
// delivery: a never-retried answer, the last allowed attempt, or the time to
// live. An attempt that fails when the TTL has run out dead-letters at once,
// which is the docs' example (the 20-minute attempt is followed by the
// dead letter at minute 20).
func (p Policy) AfterFailure(b *engine.Batch, o engine.Outcome, now time.Time) engine.Decision {
	switch {
	case neverRetried(o.Status), o.Status == 0 && o.Name == OutcomeBadRequest:
		// A BadRequest without an answer is a request GridBridge could not
		// send at all (a header value with CR or LF): no retry can help.
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: deadletter.ReasonClientError}
	case b.Attempts >= p.MaxDeliveryCount:
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: deadletter.ReasonMaxDeliveryAttempts}
	case !now.Before(p.expiry(b)):
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: deadletter.ReasonTimeToLive}
	}
	wait := b.FirstAttemptAt.Add(attemptOffset(b.Attempts)).Sub(now)
	return engine.Decision{Action: engine.Retry, After: max(wait, 0)}
}

// BeforeRetry implements engine.RetryPolicy: the time to live is checked only
// when the next attempt is due (the same docs), and an attempt due exactly at
// the end still goes ahead.
func (p Policy) BeforeRetry(b *engine.Batch, now time.Time) engine.Decision {
	if now.After(p.expiry(b)) {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: deadletter.ReasonTimeToLive}
	}
	return engine.Decision{Action: engine.Proceed}
}
