package engine

import (
	"context"
	"errors"
	"time"
)

// Item is one event queued for one route. Its body is the event exactly as
// the destination receives it: Body holds it, or Source renders it on
// demand. Meta is the cloud face's own data, kept for building dead-letter
// records.
type Item struct {
	ID   string
	Body []byte
	// Source, when set, renders the body each time it is needed instead of
	// Body holding it. A face that already keeps the event as published
	// (for its dead-letter records) then holds one copy of the payload, not
	// two, for as long as the event waits. Body is then nil.
	Source BodySource
	// Size is the length of Source's body (Source only), so batching by
	// bytes does not render it.
	Size        int
	PublishedAt time.Time
	Meta        any
}

// BodySource renders an item's body.
type BodySource interface {
	// AppendBody appends the body to dst and returns the extended slice. It
	// must append the same bytes every time and may be called from several
	// goroutines at once.
	AppendBody(dst []byte) []byte
}

// Bytes is the item's body. With a Source it is rendered anew: the caller
// owns the slice.
func (it *Item) Bytes() []byte {
	if it.Source != nil {
		return it.Source.AppendBody(make([]byte, 0, it.Size))
	}
	return it.Body
}

// AppendBody appends the item's body to dst.
func (it *Item) AppendBody(dst []byte) []byte {
	if it.Source != nil {
		return it.Source.AppendBody(dst)
	}
	return append(dst, it.Body...)
}

// Len is the length of the item's body.
func (it *Item) Len() int {
	if it.Source != nil {
		return it.Size
	}
	return len(it.Body)
}

// Batch is what one delivery attempt carries. A batch succeeds or fails as a
// whole (EG-16) and is retried as a whole.
type Batch struct {
	Items          []*Item
	Attempts       int // attempts made so far
	FirstAttemptAt time.Time
	LastAttemptAt  time.Time
	LastOutcome    Outcome
}

// EventIDs lists the ids of the batch's events.
func (b *Batch) EventIDs() []string {
	ids := make([]string, len(b.Items))
	for i, it := range b.Items {
		ids[i] = it.ID
	}
	return ids
}

// OldestPublish is when the batch's oldest event was accepted.
func (b *Batch) OldestPublish() time.Time {
	var t time.Time
	for i, it := range b.Items {
		if i == 0 || it.PublishedAt.Before(t) {
			t = it.PublishedAt
		}
	}
	return t
}

// Attempt is handed to a Destination.
type Attempt struct {
	Route  *Route
	Batch  *Batch
	Number int // 1 for the first attempt
	At     time.Time
}

// Outcome is what one attempt achieved.
type Outcome struct {
	OK bool
	// Name is the cloud's name for the outcome: "Success", "Busy",
	// "TimedOut", "NotFound", … (EG-24) or an EventBridge error code.
	Name    string
	Status  int // HTTP status, 0 when there was none
	Message string
	Request *RecordedRequest
	// Destination says where the attempt went (URL, ARN), for the journal.
	Destination string
	// Injected marks an outcome produced by a fault rule, not a destination.
	Injected bool
	// FailedItems, on a failed outcome, name the only events of the batch
	// that failed, when the destination reports a partial batch failure
	// (an EventBridge pipe's batchItemFailures); empty, the whole batch
	// failed. Routes in the engine's table retry a batch as a whole
	// (EG-16) and ignore it.
	FailedItems []string
}

// Destination delivers a batch. It must honour ctx: the engine cancels it
// with ErrResponseTimeout as the cause when the route's response timeout
// passes on the emulator clock.
type Destination interface {
	Deliver(ctx context.Context, a *Attempt) Outcome
}

// DestinationFunc adapts a function to Destination.
type DestinationFunc func(ctx context.Context, a *Attempt) Outcome

// Deliver implements Destination.
func (f DestinationFunc) Deliver(ctx context.Context, a *Attempt) Outcome { return f(ctx, a) }

// ErrResponseTimeout is the cancellation cause of an attempt whose
// destination did not answer within the route's response timeout (EG-5).
var ErrResponseTimeout = errors.New("destination did not answer within the response timeout")

// Action is what a RetryPolicy decides.
type Action int

const (
	// Retry tries the batch again after Decision.After.
	Retry Action = iota
	// Proceed lets a due retry go ahead (BeforeRetry only).
	Proceed
	// GiveUpDeadLetter dead-letters the batch, or drops it when the route
	// has no dead-letter destination.
	GiveUpDeadLetter
	// GiveUpDrop drops the batch with Decision.Reason.
	GiveUpDrop
)

// Decision is a RetryPolicy's answer.
type Decision struct {
	Action Action
	After  time.Duration // for Retry
	Reason string        // for give-ups: e.g. "MaxDeliveryAttemptsExceeded"
	// Hold keeps the route from starting new deliveries for this long
	// (delayed delivery and probation, EG-17, EG-18).
	Hold time.Duration
	// HoldState names the hold for the inspection API, e.g. "Probation".
	HoldState string
}

// RetryPolicy holds a cloud's retry rules; the engine only follows them.
type RetryPolicy interface {
	// AfterFailure decides what follows a failed attempt.
	AfterFailure(b *Batch, o Outcome, now time.Time) Decision
	// BeforeRetry is asked whenever an attempt of b would be due: before
	// its first attempt (b.Attempts is 0), when a retry comes due, and again
	// when a hold that deferred it ends. Proceed, or give up (EG-14: TTL is
	// checked only when the next attempt is due). The engine asks it with
	// its lock held: it must be quick and must not call the engine.
	BeforeRetry(b *Batch, now time.Time) Decision
}

// DeadLetterPolicy says how and where a route's give-ups are written.
type DeadLetterPolicy struct {
	Sink Sink
	// Delay between giving up and the write (EG-21: 5 minutes).
	Delay time.Duration
	// RetryAfter says how long to wait after the n-th failed write (n ≥ 1)
	// when writes have been failing for failingFor; ok=false gives up and
	// drops the events (EG-22, NS-7).
	RetryAfter func(n int, failingFor time.Duration) (wait time.Duration, ok bool)
	// Build turns a batch that was given up into the writes to make. It is
	// called once, when the batch is given up.
	Build func(b *Batch, reason string, now time.Time) ([]DeadLetter, error)
	// HandsOff says Build hands the events to the cloud face's own
	// dead-lettering instead of returning writes: the face then reports how
	// each ended with Engine.DeadLetterSettled, and until it does the events
	// count as awaiting their dead letter.
	HandsOff bool
}

// Route is one path events take to one destination: an event subscription,
// a rule target, a subscriber.
type Route struct {
	ID string
	// Labels say what the route belongs to (topic, subscription, bus, rule,
	// target, …); every journal entry of the route carries them.
	Labels      map[string]string
	Destination Destination
	Retry       RetryPolicy
	DeadLetter  *DeadLetterPolicy // nil: give-ups are dropped
	// MaxBatchEvents bounds events per attempt (≤ 1 means one at a time).
	MaxBatchEvents int
	// PreferredBatchBytes is a target, not a limit: an event larger than it
	// goes alone (EG-15). 0 means no byte bound.
	PreferredBatchBytes int
	// Concurrency bounds first attempts in flight at once; 0 means 16.
	Concurrency int
	// Inline says Destination answers in the calling goroutine without
	// waiting on anything outside the process (GridBridge's own queues):
	// first attempts are then made one after another by the goroutine that
	// dispatches them, not in a goroutine each. Ignored on a route with a
	// Pace or a ResponseTimeout.
	Inline bool
	// ResponseTimeout fails an attempt on the emulator clock; 0 means none.
	ResponseTimeout time.Duration
	// LateSuccessWindow, when longer than ResponseTimeout, keeps a timed-out
	// request open until this long after it started: a success in that
	// window withdraws the pending retry (Event Grid's 3 minutes, EG-5).
	// The timed-out attempt is reported as TimeoutOutcome ("TimedOut").
	LateSuccessWindow time.Duration
	TimeoutOutcome    string
	// NameFault names the outcome of an injected fault with this status
	// when the fault rule gives no name.
	NameFault func(status int) string
	// Pace, when set, spaces the route's attempts on the clock: it is asked
	// before each attempt, first or retry, and answers how long the attempt
	// must wait (0 means go now, and the slot is taken). Routes sharing a
	// rate limit share one Pace (EventBridge's InvocationRateLimitPerSecond).
	// It is called with the engine's lock held and must not call back in.
	Pace func(now time.Time) time.Duration
}
