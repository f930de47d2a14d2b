package retry

import "time"

// EG-9: Event Grid adds a small random delay to every retry step.
//
// How much: up to 5 % of the wait, added, never subtracted, in whole
// milliseconds. Added only, because EG-7 says "after N or more": a jittered
// retry must never come earlier than the documented schedule or floor, so a
// test asserting "not before" holds with jitter on. 5 % because it is small
// against every step (≤ 0.5 s on the 10 s step) yet spreads a burst of
// failures the way the cloud does, and because it never changes how many
// attempts fit in a TTL for any documented example: the attempts of EG-13's
// example end at 16m40s (≤ 17m30s jittered) and the next one is due at
// 46m40s (≥ 46m40s jittered), both on the same side of 30 minutes; with the
// defaults the 11th attempt lands at 22h46m40s (≤ 23h55m jittered), inside
// 24 hours.
//
// Why a seed and not a shared *rand.Rand: attempts of different events fail
// concurrently, so the order in which they would draw from one random stream
// depends on goroutine scheduling, and a seeded stream would still give
// different times from run to run. The jitter is instead a hash of the seed,
// the batch's first event id and the attempt number: the same event gets the
// same retry times on every run, whatever runs beside it, and the policy
// needs no lock or state for it.

const jitterDivisor = 20 // 1/20 = 5 % of the wait

func jitter(seed uint64, eventID string, attempt int, wait time.Duration) time.Duration {
	maxMillis := int64(wait / jitterDivisor / time.Millisecond)
	if maxMillis <= 0 {
		return 0
	}
	h := mix(fnv1a(eventID) ^ mix(seed) ^ mix(uint64(attempt)+0x9e3779b97f4a7c15))
	return time.Duration(h%uint64(maxMillis+1)) * time.Millisecond
}

// fnv1a hashes an event id (64-bit FNV-1a).
func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix is splitmix64's finaliser: it spreads every input bit over the output,
// so neighbouring attempt numbers and seeds give unrelated jitters.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
