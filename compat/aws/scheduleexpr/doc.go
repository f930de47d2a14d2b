// Package scheduleexpr parses a ScheduleExpression, rate(...) and AWS's
// six-field cron(...), and computes when it next fires: the grammar an
// EventBridge scheduled rule and an EventBridge Scheduler schedule share
// (Scheduler adds at(...), read by ParseAt, and a time zone of its own).
// The grammar is as strict as AWS's: one space between a rate's value and
// unit and between cron's fields, at(...) exactly yyyy-mm-ddThh:mm:ss.
//
// Times are UTC, as they are for EventBridge rules; Scheduler passes its
// zone to Cron.NextIn. Every expression that fails to parse is answered by
// the caller with its API's single message (EventBridge's "Parameter
// ScheduleExpression is not valid.").
package scheduleexpr

import (
	"errors"
	"strings"
	"time"
)

// ErrInvalid is returned for any expression EventBridge would refuse.
var ErrInvalid = errors.New("Parameter ScheduleExpression is not valid.")

// Schedule says when a scheduled rule fires.
type Schedule interface {
	// Next returns the first firing strictly after t; false when there is
	// none (a cron whose years are all past).
	Next(t time.Time) (time.Time, bool)
}

// Parse reads "rate(value unit)" or "cron(fields)".
func Parse(expr string) (Schedule, error) {
	switch {
	case strings.HasPrefix(expr, "rate(") && strings.HasSuffix(expr, ")"):
		return parseRate(expr[len("rate(") : len(expr)-1])
	case strings.HasPrefix(expr, "cron(") && strings.HasSuffix(expr, ")"):
		return parseCron(expr[len("cron(") : len(expr)-1])
	}
	return nil, ErrInvalid
}
