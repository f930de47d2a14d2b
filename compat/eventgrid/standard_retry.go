package eventgrid

import (
	"math/rand/v2"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Give-up reasons of the standard policy, as deadLetterReason spells them.
const (
	ReasonMaxDeliveryAttempts = "MaxDeliveryAttemptsExceeded"
	ReasonTimeToLive          = "TimeToLiveExceeded"
)

// standardRetry is GridBridge's first Event Grid retry policy: every
// failure is retried on the EG-8 schedule (retry.StandardDelay) until
// maxDeliveryAttempts (EG-11) or the event's time to live (EG-12) runs out,
// whichever comes first (EG-13); TTL is checked only when a retry comes due
// (EG-14).
type standardRetry struct {
	maxAttempts int
	ttl         time.Duration
	jitter      *engine.Jitter
}

// AfterFailure implements engine.RetryPolicy.
func (p *standardRetry) AfterFailure(b *engine.Batch, _ engine.Outcome, _ time.Time) engine.Decision {
	if b.Attempts >= p.maxAttempts {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: ReasonMaxDeliveryAttempts}
	}
	key := ""
	if len(b.Items) > 0 {
		key = b.Items[0].ID
	}
	return engine.Decision{Action: engine.Retry, After: p.jitter.Apply(retry.StandardDelay(b.Attempts), key, b.Attempts)}
}

// BeforeRetry implements engine.RetryPolicy.
func (p *standardRetry) BeforeRetry(b *engine.Batch, now time.Time) engine.Decision {
	if p.ttl > 0 && now.Sub(b.OldestPublish()) >= p.ttl {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: ReasonTimeToLive}
	}
	return engine.Decision{Action: engine.Proceed}
}

// standardJitter adds up to a tenth of each retry step (EG-9: "a small
// random jitter"; the size is GridBridge's choice, UNCONFIRMED). It only
// ever delays, so a step never comes earlier than the schedule. Off, it is
// nil and adds nothing; seed 0 picks a random seed.
func standardJitter(on bool, seed int64) *engine.Jitter {
	if !on {
		return nil
	}
	if seed == 0 {
		seed = rand.Int64()
	}
	return &engine.Jitter{Seed: uint64(seed), Above: 0.1}
}
