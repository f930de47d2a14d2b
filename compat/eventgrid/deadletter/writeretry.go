package deadletter

import "time"

// WriteDelay is the wait between giving an event up and writing its dead
// letter (EG-21): the cloud uses it to batch blob operations.
const WriteDelay = 5 * time.Minute

// MaxUnavailable is how long the dead-letter location may stay unavailable
// before the events are dropped (EG-22).
const MaxUnavailable = 4 * time.Hour

// RetryAfter is the write-retry schedule for engine.DeadLetterPolicy: after
// the n-th failed write (n ≥ 1), with writes failing for failingFor, wait
// and try again, or give up (ok false) once the location has been
// unavailable for MaxUnavailable (EG-22).
//
// The seeds give basic topics only the 4-hour bound, not the steps; GridBridge
// uses the steps the namespace seed documents for its blob writes (NS-7: 10 s,
// 1 min, 5 min, then every 5 min), and shortens the last wait so the final
// try falls exactly at the 4-hour mark: a test sees the drop at first
// failure + 4 h, not up to 5 minutes later.
func RetryAfter(n int, failingFor time.Duration) (time.Duration, bool) {
	if failingFor >= MaxUnavailable {
		return 0, false
	}
	var wait time.Duration
	switch n {
	case 1:
		wait = 10 * time.Second
	case 2:
		wait = time.Minute
	default:
		wait = 5 * time.Minute
	}
	return min(wait, MaxUnavailable-failingFor), true
}
