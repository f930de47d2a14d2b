package retry

import (
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Defaults and bounds of a target's RetryPolicy (EB-3).
const (
	DefaultMaximumRetryAttempts     = 185
	DefaultMaximumEventAgeInSeconds = 86400
	MaxMaximumRetryAttempts         = 185
	MinMaximumEventAgeInSeconds     = 60
	MaxMaximumEventAgeInSeconds     = 86400
)

// Reasons a Decision gives up with; the first two are the values of the
// EXHAUSTED_RETRY_CONDITION attribute.
const (
	ReasonMaximumRetryAttempts     = "MaximumRetryAttempts"
	ReasonMaximumEventAgeInSeconds = "MaximumEventAgeInSeconds"
	ReasonNotRetryable             = "NonRetryableError"
)

// Back-off bounds: see the package documentation.
const (
	firstWait = time.Second
	maxWait   = 8 * time.Minute
)

// Hint is what a destination learnt from one attempt that the code alone
// does not say: an API destination's Retry-After, or that an HTTP failure
// (an expired OAuth token) is worth retrying.
type Hint struct {
	// Retryable overrides the code's classification.
	Retryable bool
	// After, when HasAfter, is the least wait before the next attempt; a
	// negative After stops retrying.
	After    time.Duration
	HasAfter bool
}

// Policy is one target's retry policy. It implements engine.RetryPolicy.
type Policy struct {
	MaxRetries int
	MaxAge     time.Duration
	// Jitter, when set, spreads each wait (see NewJitter).
	Jitter *engine.Jitter
	// Hint, when set, returns the destination's hint for the batch's last
	// attempt, if it left one.
	Hint func(b *engine.Batch) (Hint, bool)
}

var _ engine.RetryPolicy = (*Policy)(nil)

// New returns a policy with EventBridge's limits; nil members take the
// defaults (185 retries, 24 hours).
func New(maxRetries, maxAgeSeconds *int32) *Policy {
	p := &Policy{MaxRetries: DefaultMaximumRetryAttempts, MaxAge: DefaultMaximumEventAgeInSeconds * time.Second}
	if maxRetries != nil {
		p.MaxRetries = int(*maxRetries)
	}
	if maxAgeSeconds != nil {
		p.MaxAge = time.Duration(*maxAgeSeconds) * time.Second
	}
	return p
}

// Wait is the back-off before retry n (n ≥ 1), without jitter.
func Wait(n int) time.Duration {
	return engine.Exponential(firstWait, maxWait, n)
}

// NewJitter is EventBridge's jitter for seed: each wait is drawn from
// [wait/2, wait) (package documentation), reproducibly per event and retry.
func NewJitter(seed uint64) *engine.Jitter {
	return &engine.Jitter{Seed: seed, Below: 0.5}
}

// AfterFailure implements engine.RetryPolicy.
func (p *Policy) AfterFailure(b *engine.Batch, o engine.Outcome, now time.Time) engine.Decision {
	retryable := Retried(o.Name)
	var hint Hint
	hinted := false
	if p.Hint != nil && !o.Injected {
		if hint, hinted = p.Hint(b); hinted {
			retryable = hint.Retryable
		}
	}
	if !retryable || (hinted && hint.HasAfter && hint.After < 0) {
		return giveUp(ReasonNotRetryable)
	}
	retriesMade := b.Attempts - 1
	if retriesMade >= p.MaxRetries {
		return giveUp(ReasonMaximumRetryAttempts)
	}
	wait := p.jittered(b, Wait(retriesMade+1), retriesMade+1)
	if hinted && hint.HasAfter && hint.After > wait {
		wait = hint.After
	}
	left := b.OldestPublish().Add(p.MaxAge).Sub(now)
	if left <= 0 {
		return giveUp(ReasonMaximumEventAgeInSeconds)
	}
	// Giving up at the moment the age limit is reached, not at the later
	// retry, keeps MaximumEventAgeInSeconds a true bound.
	return engine.Decision{Action: engine.Retry, After: min(wait, left)}
}

// BeforeRetry implements engine.RetryPolicy.
func (p *Policy) BeforeRetry(b *engine.Batch, now time.Time) engine.Decision {
	if !now.Before(b.OldestPublish().Add(p.MaxAge)) {
		return giveUp(ReasonMaximumEventAgeInSeconds)
	}
	return engine.Decision{Action: engine.Proceed}
}

func (p *Policy) jittered(b *engine.Batch, d time.Duration, n int) time.Duration {
	if p.Jitter == nil || len(b.Items) == 0 {
		return d
	}
	return p.Jitter.Apply(d, b.Items[0].ID, n)
}

func giveUp(reason string) engine.Decision {
	return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: reason}
}
