package eventgrid

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Give-up reasons of the standard policy, as deadLetterReason spells them.
const (
	ReasonMaxDeliveryAttempts = "MaxDeliveryAttemptsExceeded"
	ReasonTimeToLive          = "TimeToLiveExceeded"
)

// StandardRetryDelay is the EG-8 back-off after the n-th failed attempt
// (n ≥ 1): 10 s, 30 s, 1 min, 5 min, 10 min, 30 min, 1 h, 3 h, 6 h, then
// every 12 h.
func StandardRetryDelay(n int) time.Duration {
	steps := [...]time.Duration{
		10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute,
		30 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour,
	}
	if n < 1 {
		n = 1
	}
	if n > len(steps) {
		return 12 * time.Hour
	}
	return steps[n-1]
}

// standardRetry is GridBridge's first Event Grid retry policy: every
// failure is retried on the EG-8 schedule until maxDeliveryAttempts
// (EG-11) or the event's time to live (EG-12) runs out, whichever comes
// first (EG-13); TTL is checked only when a retry comes due (EG-14).
type standardRetry struct {
	maxAttempts int
	ttl         time.Duration
	jitter      *jitter
}

// AfterFailure implements engine.RetryPolicy.
func (p *standardRetry) AfterFailure(b *engine.Batch, _ engine.Outcome, _ time.Time) engine.Decision {
	if b.Attempts >= p.maxAttempts {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: ReasonMaxDeliveryAttempts}
	}
	return engine.Decision{Action: engine.Retry, After: p.jitter.add(StandardRetryDelay(b.Attempts))}
}

// BeforeRetry implements engine.RetryPolicy.
func (p *standardRetry) BeforeRetry(b *engine.Batch, now time.Time) engine.Decision {
	if p.ttl > 0 && now.Sub(b.OldestPublish()) >= p.ttl {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: ReasonTimeToLive}
	}
	return engine.Decision{Action: engine.Proceed}
}

// jitter adds up to a tenth of each retry step (EG-9: "a small random
// jitter"; the size is GridBridge's choice, UNCONFIRMED). It only ever
// delays, so a step never comes earlier than the schedule. A nil or
// disabled jitter adds nothing.
type jitter struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newJitter(on bool, seed int64) *jitter {
	if !on {
		return nil
	}
	if seed == 0 {
		seed = rand.Int64()
	}
	return &jitter{rng: rand.New(rand.NewPCG(uint64(seed), uint64(seed)^0x9e3779b97f4a7c15))}
}

func (j *jitter) add(d time.Duration) time.Duration {
	if j == nil || d <= 0 {
		return d
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return d + time.Duration(j.rng.Int64N(int64(d)/10+1))
}
