package eventsv2

import (
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// The two values of exhaustedRetryCondition (EB-5): which RetryPolicy limit
// ended delivery. They double as the engine's give-up reasons.
const (
	ExhaustedMaxRetryAttempts = "MaximumRetryAttempts"
	ExhaustedMaxEventAge      = "MaximumEventAgeInSeconds"
)

// retryPolicy is EB-1, EB-2 and EB-6 as the engine asks for them: every
// target failure is retried (4xx included) until MaxRetryAttempts retries
// were made or the next retry would come after MaxEventAgeInSeconds,
// whichever comes first; GridBridge's own failures are retried without limit.
type retryPolicy struct{ sub *subscriber }

var _ engine.RetryPolicy = retryPolicy{}

// AfterFailure implements engine.RetryPolicy.
func (p retryPolicy) AfterFailure(b *engine.Batch, o engine.Outcome, now time.Time) engine.Decision {
	sub := p.sub
	if b.Attempts == 1 {
		// A fault rule fails an attempt without calling the destination,
		// so the first attempt may only show here (see groupScheduler).
		sub.groups.started(b.Items)
	}
	internal := o.Name == OutcomeInternalFailure
	internalFailures := sub.tracker.failed(b, internal)
	retries := b.Attempts - 1 - internalFailures // target failures retried so far
	if internal {
		// EB-6: retried without limit; neither limit applies and no record
		// is ever written for it.
		return engine.Decision{Action: engine.Retry, After: sub.wait(b, internalFailures)}
	}
	cfg := sub.config()
	if retries >= cfg.maxRetries {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: ExhaustedMaxRetryAttempts}
	}
	wait := sub.wait(b, retries+1)
	// Giving up now rather than at the retry that would be too late: the
	// event cannot be delivered within its age, and the record should not
	// wait for nothing.
	if now.Add(wait).Sub(b.OldestPublish()) > cfg.maxAge {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: ExhaustedMaxEventAge}
	}
	return engine.Decision{Action: engine.Retry, After: wait}
}

// BeforeRetry implements engine.RetryPolicy. It checks the age again: an
// update may have shortened MaxEventAgeInSeconds since the retry was set.
func (p retryPolicy) BeforeRetry(b *engine.Batch, now time.Time) engine.Decision {
	if p.sub.tracker.lastWasInternal(b) {
		return engine.Decision{Action: engine.Proceed}
	}
	if now.Sub(b.OldestPublish()) > p.sub.config().maxAge {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: ExhaustedMaxEventAge}
	}
	return engine.Decision{Action: engine.Proceed}
}

// wait is the back-off before retry n of b (backoff.go), jittered when the
// service says so.
func (sub *subscriber) wait(b *engine.Batch, n int) time.Duration {
	w := retryWait(n)
	if sub.svc.jitter && len(b.Items) > 0 {
		w = jittered(w, sub.svc.seed, b.Items[0].ID, n)
	}
	return w
}
