package retry

import (
	"net/http"
	"time"
)

// standardDelay is EG-8's back-off, measured from the failed attempt: the
// wait after the n-th failed attempt (n ≥ 1) is 10 s, 30 s, 1 min, 5 min,
// 10 min, 30 min, 1 h, 3 h, 6 h, then 12 h for every later one. It is the
// face's one copy of the schedule.
func standardDelay(failedAttempts int) time.Duration {
	steps := [...]time.Duration{10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute,
		10 * time.Minute, 30 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour}
	switch {
	case failedAttempts < 1:
		return steps[0]
	case failedAttempts > len(steps):
		return 12 * time.Hour
	}
	return steps[failedAttempts-1]
}

// floor is EG-7's "retry after N or more" for the answer's status code. The
// schedule step still applies when it is longer: the wait is the larger of
// the two.
func floor(kind DestinationKind, status int) time.Duration {
	switch status {
	case http.StatusUnauthorized, http.StatusNotFound:
		if kind == AzureResource {
			return 5 * time.Minute
		}
		// Webhook 404 follows the standard schedule; webhook 401 is never
		// retried (EG-6), so its floor is never asked for.
		return 10 * time.Second
	case http.StatusRequestTimeout:
		return 2 * time.Minute
	case http.StatusServiceUnavailable:
		return 30 * time.Second
	default:
		return 10 * time.Second
	}
}

// neverRetried reports the status codes that can never succeed on a retry
// (EG-6, seed 000, which adds 403 to seed 001's list): the event is
// dead-lettered at once, or dropped without a dead-letter destination.
func neverRetried(kind DestinationKind, status int) bool {
	switch status {
	case http.StatusBadRequest, http.StatusForbidden, http.StatusRequestEntityTooLarge:
		return true
	case http.StatusUnauthorized:
		return kind == Webhook
	default:
		return false
	}
}
