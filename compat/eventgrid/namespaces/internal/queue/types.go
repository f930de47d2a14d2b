package queue

import (
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
)

// Config is a Queue-mode subscription's delivery settings.
type Config struct {
	// LockDuration is receiveLockDurationInSeconds (60..300 s).
	LockDuration time.Duration
	// MaxDeliveryCount is how many deliveries an event gets (1..10).
	MaxDeliveryCount int
	// TimeToLive is how long an event stays available after it was
	// published: eventTimeToLive, already capped by the topic's retention.
	TimeToLive time.Duration
}

// RenewWindow is how long after a lock was first taken it can still be
// renewed [DOC: renewLock within 1 hour].
const RenewWindow = time.Hour

// Cause says why an event left the queue without being acknowledged (NS-2).
type Cause int

const (
	// Rejected: the consumer called reject.
	Rejected Cause = iota + 1
	// LockExpiredOnLastDelivery: the lock of the maxDeliveryCount-th
	// delivery expired.
	LockExpiredOnLastDelivery
	// ReleasedOnLastDelivery: the consumer released the
	// maxDeliveryCount-th delivery.
	ReleasedOnLastDelivery
	// Expired: the event's time to live (or the topic's retention) ran out.
	Expired
)

// Ending is an event that left the queue unacknowledged: the caller
// dead-letters or drops it.
type Ending struct {
	Event       *cloudevent.Event
	Cause       Cause
	PublishedAt time.Time
	// At is when it left the queue.
	At time.Time
	// DeliveryCount is how many times it was received.
	DeliveryCount int
	// LastDeliveryAt is the last receive, zero if it was never received.
	LastDeliveryAt time.Time
}

// Delivery is one event handed to a receiver under a fresh lock.
type Delivery struct {
	Token         string
	DeliveryCount int
	Event         *cloudevent.Event
}

// Per-token failure codes as the service reports them in failedLockTokens.
const (
	// CodeTokenLost is what the service answers for a token that was
	// settled, whose lock expired, or that a redelivery superseded
	// [SRC: the Go SDK's live tests assert code and message].
	CodeTokenLost    = "TokenLost"
	MessageTokenLost = "Token has expired."
	// CodeBadToken is for a string that was never a lock token (the code is
	// from the spec example; its exact use is UNCONFIRMED).
	CodeBadToken    = "BadToken"
	MessageBadToken = "The lock token is malformed."
	// MessageRenewWindow explains a renew refused after RenewWindow
	// (code TokenLost; the service's wording is UNCONFIRMED).
	MessageRenewWindow = "Lock cannot be renewed more than one hour after the event was received."
)

// TokenError is one failed lock token.
type TokenError struct{ Code, Message string }

// Result is the outcome for one lock token, in request order.
type Result struct {
	Token string
	// Event is the settled event, set when Err is nil.
	Event *cloudevent.Event
	Err   *TokenError
}

// Hooks tell the owner what happened on the clock or in a call.
type Hooks struct {
	// Ended receives events that left the queue unacknowledged. It is
	// called outside the queue's lock and must not block for long.
	Ended func([]Ending)
	// LockExpired reports a lock that ran out (the event is available
	// again, or it ended if that was its last delivery).
	LockExpired func(ev *cloudevent.Event, deliveryCount int, at time.Time)
}
