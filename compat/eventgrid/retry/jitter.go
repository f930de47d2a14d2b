package retry

import (
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

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
// The draw is engine.Jitter's: a hash of the seed, the batch's first event
// id and the attempt number, so the same event gets the same retry times on
// every run, whatever runs beside it.
const jitterShare = 0.05

// jittered is wait plus EG-9's jitter for attempt n of the batch whose first
// event is eventID.
func jittered(seed uint64, eventID string, n int, wait time.Duration) time.Duration {
	j := engine.Jitter{Seed: seed, Above: jitterShare}
	return j.Apply(wait, eventID, n)
}
