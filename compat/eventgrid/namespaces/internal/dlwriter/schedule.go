// Package dlwriter writes namespace dead letters to the dead-letter sink on
// the emulator clock, retrying failed writes on the service's fixed schedule
// (NS-7, NS-8) and journalling every write, failed write and drop (D-DROP).
// Pull and push subscriptions both dead-letter through it, so the schedule
// and the journal entries are the same for both.
package dlwriter

import "time"

// DefaultRetryPeriod is deliveryRetryPeriodInDays when a subscription does not
// set it, and also its maximum (NS-7).
const DefaultRetryPeriod = 48 * time.Hour

// RetryWait is how long to wait after the n-th failed write (n ≥ 1): 10 s,
// then 1 min, then 5 min, and 5 min after every later failure (NS-7). The
// waits run from each failed write, the way the basic tier's schedule is
// measured (the seed lists the steps without saying; GridBridge's reading).
func RetryWait(failures int) time.Duration {
	switch {
	case failures <= 1:
		return 10 * time.Second
	case failures == 2:
		return time.Minute
	default:
		return 5 * time.Minute
	}
}

// Deadline is the last moment a failing write may still be retried. Writing
// starts at start; the retry period runs from there (NS-7). The event's
// retention would end retries earlier, except that a broker that starts
// dead-lettering before the retention ends keeps the event for the whole
// retry period (NS-8), so retention only matters when dead-lettering starts
// after it (then the single first write is all there is).
func Deadline(start, retentionEnd time.Time, period time.Duration) time.Time {
	if period <= 0 || period > DefaultRetryPeriod {
		period = DefaultRetryPeriod
	}
	if start.After(retentionEnd) {
		return start
	}
	return start.Add(period)
}
