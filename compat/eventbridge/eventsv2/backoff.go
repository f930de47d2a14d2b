package eventsv2

import (
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Back-off between retries (EB-1, EB-2). The seed gives no schedule, only
// the two limits, so bus v2 uses the exponential back-off of the classic
// targets (retry.Wait): the n-th retry waits 2^(n-1) seconds after the
// failure before it (1 s, 2 s, 4 s, …), capped at 8 minutes, so the largest
// policy (185 retries) spans about a day (≈ 23.6 h), which is what EB-3
// implies a day-long MaxEventAgeInSeconds is for. With the defaults (5
// retries, 300 s) retries come at +1, +3, +7, +15 and +31 s and the retry
// limit ends delivery; with 185 retries and 300 s the ninth retry would come
// at +511 s, so the age limit ends delivery after the eighth (+255 s).
func retryWait(n int) time.Duration { return retry.Wait(n) }

// jitterSpread is how far jitter moves a wait: up to 20 % either way, the
// way the cloud spreads a burst of failures.
const jitterSpread = 0.2

// jittered spreads wait by up to ±20 % with engine.Jitter's draw for the
// seed, the batch's first event id and the retry number, so the same event
// gets the same retry times on every run with the same seed.
func jittered(wait time.Duration, seed int64, eventID string, n int) time.Duration {
	j := engine.Jitter{Seed: uint64(seed), Below: jitterSpread, Above: jitterSpread}
	return j.Apply(wait, eventID, n)
}
