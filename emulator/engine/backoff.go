package engine

import "time"

// Exponential is the exponential back-off the AWS faces share (EB-1, EB-2,
// EB-3): the wait before retry n (n ≥ 1) is first·2^(n-1), capped at max.
func Exponential(first, max time.Duration, n int) time.Duration {
	if n < 1 {
		n = 1
	}
	w := first
	for i := 1; i < n; i++ {
		w *= 2
		if w >= max {
			return max
		}
	}
	return min(w, max)
}

// Jitter is GridBridge's one retry jitter, shared by every face. It moves a
// wait within [wait·(1-Below), wait·(1+Above)], in whole milliseconds: Event
// Grid only ever adds (EG-9: a retry never comes before the schedule, so
// Below is 0), EventBridge spreads both ways.
//
// The amount is a hash of Seed, a key (the batch's first event id) and the
// attempt number, not a draw from a shared random stream: batches fail
// concurrently, so the order of draws would depend on goroutine scheduling
// and a seeded run would still differ from run to run. This way the same
// event gets the same retry times on every run with the same seed, whatever
// runs beside it, and a Jitter needs no lock or state. A nil *Jitter is off:
// waits stay exact.
type Jitter struct {
	Seed         uint64
	Below, Above float64
}

// Apply returns wait jittered for attempt n of the batch keyed key.
func (j *Jitter) Apply(wait time.Duration, key string, n int) time.Duration {
	if j == nil {
		return wait
	}
	return j.Spread(wait, j.Fraction(key, n))
}

// Fraction is the deterministic draw in [0, 1) Apply uses.
func (j *Jitter) Fraction(key string, n int) float64 {
	h := mix64(fnv1a(key) ^ mix64(j.Seed) ^ mix64(uint64(n)+0x9e3779b97f4a7c15))
	return float64(h>>11) / float64(1<<53)
}

// Spread places wait in its jitter window at fraction u in [0, 1): u = 0 is
// the earliest, wait·(1-Below), and u → 1 the latest, wait·(1+Above).
func (j *Jitter) Spread(wait time.Duration, u float64) time.Duration {
	if wait <= 0 {
		return wait
	}
	lo := wait - time.Duration(float64(wait)*j.Below)
	hi := wait + time.Duration(float64(wait)*j.Above)
	d := (lo + time.Duration(u*float64(hi-lo))).Truncate(time.Millisecond)
	return min(max(d, lo), hi)
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
// so neighbouring seeds and attempt numbers give unrelated jitters.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
