// Package retry holds the classic EventBridge target retry policy (EB-3) and
// the dead-letter message it leads to, as engine.RetryPolicy and
// engine.DeadLetterPolicy values (the message sent through sqssend). The
// back-off is also bus v2's (its own limits and jitter aside) and
// EventBridge Scheduler's, whose dead letters share the ERROR_MESSAGE rules.
//
// # Schedule
//
// AWS documents "exponential back-off with jitter" without timings. GridBridge
// waits 1 s before the first retry and doubles the wait each time up to a cap
// of 8 minutes: 1 s, 2 s, 4 s, ... 256 s, then 480 s for every later retry.
// With the defaults (185 retries, 86,400 s) the 185th retry falls at about
// 23 h 36 min, so the two default limits meet at roughly the day AWS quotes.
// With jitter on, each wait is drawn uniformly from [wait/2, wait), by
// engine.Jitter: the same event gets the same waits on every run with a seed.
//
// An event is given up when the retries are used up (MaximumRetryAttempts)
// or when its age reaches MaximumEventAgeInSeconds: a retry that would fall
// after that point is replaced by giving up at exactly that age.
//
// # What is retried
//
// Throttling, timeouts, connection failures and errors from the target (5xx)
// are retried. Missing permissions, a missing target resource, client errors
// (other 4xx) and malformed input go straight to the dead-letter queue, as
// the EventBridge user guide says.
package retry
