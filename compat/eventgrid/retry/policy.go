package retry

import (
	"context"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Dead-letter reasons (deadLetterReason in the record, EG-23; the drop
// reason in the journal when the subscription has no dead-letter
// destination).
const (
	ReasonMaxDeliveryAttemptsExceeded = "MaxDeliveryAttemptsExceeded"
	ReasonTimeToLiveExceeded          = "TimeToLiveExceeded"
	// ReasonUndeliverableDueToClientError is the reason real Event Grid
	// dead-letter files carry for events given up at once on a
	// never-retried status (EG-6); the seeds name no reason for it.
	ReasonUndeliverableDueToClientError = "UndeliverableDueToClientError"
)

// Policy is one event subscription's retry policy. It implements
// engine.RetryPolicy and is safe for concurrent use.
type Policy struct {
	cfg    Config
	health health
}

var _ engine.RetryPolicy = (*Policy)(nil)

// NewPolicy returns the policy for cfg; zero limits take Azure's defaults.
// Values are used as given otherwise: range checks belong to the ARM face
// (Validate), so a test may still build, say, a 2-minute TTL directly.
func NewPolicy(cfg Config) *Policy {
	return &Policy{cfg: cfg.withDefaults()}
}

// Config returns the settings in force, defaults filled in.
func (p *Policy) Config() Config { return p.cfg }

// AfterFailure decides what follows a failed attempt: give up at once on a
// never-retried status (EG-6), give up when the attempts are used up
// (EG-11, EG-13), otherwise retry after max(schedule step, status floor)
// plus jitter (EG-7, EG-8, EG-9). The TTL is deliberately not looked at
// here: EG-14 checks it only when the next attempt comes due (BeforeRetry).
//
// With probation on, the decision also carries the hold the failure puts on
// the whole subscription (EG-17, EG-18). During a hold the engine starts no
// delivery: retries that come due wait for its end, so a retry slot inside
// a hold is skipped, not made (EG-10). GridBridge never dead-letters or drops
// an event without an attempt because of probation (the seed says it "may",
// without saying when): every give-up therefore has a real last outcome.
func (p *Policy) AfterFailure(b *engine.Batch, o engine.Outcome, _ time.Time) engine.Decision {
	name := nameOf(o)
	status := statusOf(o, name)
	var d engine.Decision
	if p.cfg.Probation {
		d.Hold, d.HoldState = p.health.failed(b.Attempts == 1, name)
	}
	switch {
	case neverRetried(p.cfg.Destination, status):
		d.Action, d.Reason = engine.GiveUpDeadLetter, ReasonUndeliverableDueToClientError
	case b.Attempts >= p.cfg.MaxDeliveryAttempts:
		d.Action, d.Reason = engine.GiveUpDeadLetter, ReasonMaxDeliveryAttemptsExceeded
	default:
		d.Action, d.After = engine.Retry, p.wait(b, status)
	}
	return d
}

// BeforeRetry is asked when a scheduled retry comes due: that is the only
// moment the TTL is checked (EG-14). An event whose TTL ran out between two
// attempts is given up now, at the time its next attempt was due, with no
// attempt made.
//
// EG-13's example (TTL 30 min, 10 attempts: "only 6 attempts fit in 30
// minutes, so the event is dead-lettered after 30 minutes") is reproduced
// with both rules intact: attempts at 0, 10s, 40s, 1m40s, 6m40s and 16m40s
// fail; the 7th is due at 46m40s, past the TTL, so at 46m40s the event is
// given up as TimeToLiveExceeded with deliveryAttempts 6 — after 30
// minutes, as the seed says, and not at the 30-minute mark itself, which
// EG-14 forbids. The dead letter is then written 5 minutes later (EG-21).
func (p *Policy) BeforeRetry(b *engine.Batch, now time.Time) engine.Decision {
	// The batch is retried as a whole, so its oldest event's TTL governs.
	// At exactly the TTL the event has lived its full time: expired.
	if !now.Before(b.OldestPublish().Add(p.cfg.EventTimeToLive)) {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: ReasonTimeToLiveExceeded}
	}
	return engine.Decision{Action: engine.Proceed}
}

// wait is the delay before the next attempt of b after its latest failure.
func (p *Policy) wait(b *engine.Batch, status int) time.Duration {
	w := max(standardDelay(b.Attempts), floor(p.cfg.Destination, status))
	if p.cfg.Jitter && len(b.Items) > 0 {
		w = jittered(p.cfg.Seed, b.Items[0].ID, b.Attempts, w)
	}
	return w
}

// Observe wraps the subscription's destination so the policy learns of
// successful attempts, which end a failure streak (EG-17). The engine tells
// a retry policy only of failures; without this wrapper a streak, once it
// reaches the threshold, lasts for the life of the policy.
func (p *Policy) Observe(d engine.Destination) engine.Destination {
	return engine.DestinationFunc(func(ctx context.Context, a *engine.Attempt) engine.Outcome {
		o := d.Deliver(ctx, a)
		if o.OK {
			p.health.succeeded()
		}
		return o
	})
}
