package scheduler

import (
	"time"
	_ "time/tzdata" // IANA zones even where the machine has no zoneinfo (the container image)

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/scheduleexpr"
)

// expression is a parsed ScheduleExpression in its time zone.
type expression struct {
	at   time.Time          // one-time: at(…), zero otherwise
	rate time.Duration      // rate(…)
	cron *scheduleexpr.Cron // cron(…)
	loc  *time.Location
}

// parseExpression reads at(yyyy-mm-ddThh:mm:ss), rate(value unit) and
// cron(six fields) with the schedule's time zone; the rate and cron
// grammars are EventBridge's; all three are compat/aws/scheduleexpr's.
func parseExpression(expr, zone string) (expression, *awsjson.Error) {
	if zone == "" {
		zone = "UTC"
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "Local" {
		return expression{}, validation("Invalid time zone: %s.", zone)
	}
	e := expression{loc: loc}
	if scheduleexpr.IsAt(expr) {
		t, err := scheduleexpr.ParseAt(expr, loc)
		if err != nil {
			return expression{}, validation("Invalid Schedule Expression %s.", expr)
		}
		e.at = t
		return e, nil
	}
	s, err := scheduleexpr.Parse(expr)
	if err != nil {
		return expression{}, validation("Invalid Schedule Expression %s.", expr)
	}
	switch s := s.(type) {
	case scheduleexpr.Rate:
		e.rate = s.Every
	case *scheduleexpr.Cron:
		e.cron = s
	default:
		return expression{}, validation("Invalid Schedule Expression %s.", expr)
	}
	return e, nil
}

func (e expression) oneTime() bool { return !e.at.IsZero() }

// window bounds a schedule's firings: StartDate and EndDate (both ignored
// by one-time schedules, as in AWS), and the anchor a rate counts from.
type window struct {
	start, end time.Time
	anchor     time.Time
}

// first is the schedule's first firing after now, or false when there is
// none. A one-time schedule whose time has passed is still due at that time:
// it fires at once (with its own time as <aws.scheduler.scheduled-time>),
// so no accepted schedule is silently skipped.
func (e expression) first(w window, now time.Time) (time.Time, bool) {
	if e.oneTime() {
		return e.at, true
	}
	if e.rate > 0 {
		if !w.start.IsZero() && !w.start.Before(now) {
			return w.bounded(w.start)
		}
		anchor := w.anchor
		if !w.start.IsZero() {
			anchor = w.start
		}
		// The first multiple of the rate after now, counted from the anchor.
		n := now.Sub(anchor)/e.rate + 1
		return w.bounded(anchor.Add(n * e.rate))
	}
	from := now
	if !w.start.IsZero() && w.start.After(now) {
		from = w.start.Add(-time.Nanosecond)
	}
	next, ok := e.cron.NextIn(from, e.loc)
	if !ok {
		return time.Time{}, false
	}
	return w.bounded(next)
}

// next is the firing after the one scheduled at prev.
func (e expression) next(w window, prev time.Time) (time.Time, bool) {
	switch {
	case e.oneTime():
		return time.Time{}, false
	case e.rate > 0:
		return w.bounded(prev.Add(e.rate))
	}
	next, ok := e.cron.NextIn(prev, e.loc)
	if !ok {
		return time.Time{}, false
	}
	return w.bounded(next)
}

func (w window) bounded(t time.Time) (time.Time, bool) {
	if !w.end.IsZero() && t.After(w.end) {
		return time.Time{}, false
	}
	return t, true
}
