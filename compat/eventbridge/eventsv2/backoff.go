package eventsv2

import "time"

// Back-off between retries (EB-1, EB-2). The seed gives no schedule, only
// the two limits, so GridBridge uses exponential back-off: the n-th retry
// waits 2^(n-1) seconds after the failure before it (1 s, 2 s, 4 s, …),
// capped at 8 minutes. The cap is chosen so that the largest policy
// (185 retries) spans about a day (≈ 23.6 h), which is what EB-3 implies a
// day-long MaxEventAgeInSeconds is for. With the defaults (5 retries,
// 300 s) retries come at +1, +3, +7, +15 and +31 s and the retry limit ends
// delivery; with 185 retries and 300 s the ninth retry would come at +511 s,
// so the age limit ends delivery after the eighth (+255 s).
const (
	firstRetryWait = time.Second
	maxRetryWait   = 8 * time.Minute
)

// retryWait is the wait before retry n (n ≥ 1), without jitter.
func retryWait(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	w := firstRetryWait
	for i := 1; i < n; i++ {
		w *= 2
		if w >= maxRetryWait {
			return maxRetryWait
		}
	}
	return w
}

// jitterSpread is how far jitter moves a wait: up to 20 % either way.
const jitterSpread = 0.2

// jittered spreads wait by up to ±20 %, the way the cloud spreads a burst of
// failures. The amount is a hash of the seed, the batch's first event id and
// the retry number, not a draw from a shared random stream: batches fail
// concurrently, so the order of draws would depend on goroutine scheduling
// and a seeded run would still differ from run to run. This way the same
// event gets the same retry times on every run with the same seed.
func jittered(wait time.Duration, seed int64, eventID string, n int) time.Duration {
	h := mix64(fnv1a(eventID) ^ mix64(uint64(seed)) ^ mix64(uint64(n)+0x9e3779b97f4a7c15))
	// u in [-1, 1)
	u := float64(h>>11)/float64(1<<53)*2 - 1
	return time.Duration(float64(wait) * (1 + jitterSpread*u)).Round(time.Millisecond)
}

// fnv1a hashes a string (64-bit FNV-1a).
func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix64 is splitmix64's finaliser: every input bit reaches every output bit,
// so neighbouring seeds and retry numbers give unrelated jitters.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
