package scheduleexpr

import "time"

// Next implements Schedule. It walks forward field by field, skipping whole
// years, months, days and hours that cannot match, so even a sparse
// expression costs at most a few thousand steps.
func (c *Cron) Next(after time.Time) (time.Time, bool) {
	t := after.UTC().Truncate(time.Minute).Add(time.Minute)
	for t.Year() <= lastYear {
		y, m, d := t.Date()
		switch {
		case y < firstYear || !c.years[y]:
			t = time.Date(y+1, time.January, 1, 0, 0, 0, 0, time.UTC)
		case !c.months[m]:
			t = time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)
		case !c.dayMatches(y, m, d):
			t = time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
		case !c.hours[t.Hour()]:
			t = time.Date(y, m, d, t.Hour()+1, 0, 0, 0, time.UTC)
		case !c.minutes[t.Minute()]:
			t = t.Add(time.Minute)
		default:
			return t, true
		}
	}
	return time.Time{}, false
}

func (c *Cron) dayMatches(y int, m time.Month, d int) bool {
	last := daysIn(y, m)
	if c.byWeekday {
		return c.dow.matches(y, m, d, last)
	}
	return c.dom.matches(y, m, d, last)
}

func (s *daysOfMonth) matches(y int, m time.Month, d, last int) bool {
	if s.days[d] || (s.last && d == last) {
		return true
	}
	if s.lastWeekday && d == nearestWeekday(y, m, last, last) {
		return true
	}
	for _, n := range s.nearest {
		if n <= last && d == nearestWeekday(y, m, n, last) {
			return true
		}
	}
	return false
}

func (s *daysOfWeek) matches(y int, m time.Month, d, last int) bool {
	wd := int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Weekday()) + 1
	if s.days[wd] {
		return true
	}
	for _, l := range s.last {
		if wd == l && d+7 > last {
			return true
		}
	}
	for _, k := range s.nth {
		if wd == k.weekday && (d-1)/7+1 == k.n {
			return true
		}
	}
	return false
}

// nearestWeekday is the Monday-to-Friday day closest to day n without
// leaving the month: a Saturday moves to Friday (or to Monday on the 1st), a
// Sunday to Monday (or to Friday on the last day).
func nearestWeekday(y int, m time.Month, n, last int) int {
	switch time.Date(y, m, n, 0, 0, 0, 0, time.UTC).Weekday() {
	case time.Saturday:
		if n == 1 {
			return 3
		}
		return n - 1
	case time.Sunday:
		if n == last {
			return n - 2
		}
		return n + 1
	}
	return n
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// NextIn is Next with the cron fields read as wall-clock time in loc, as
// EventBridge Scheduler's ScheduleExpressionTimezone asks. Across daylight
// saving a wall time that does not exist (spring forward) fires that long
// after the jump (02:30 fires at 03:30); a wall time that happens twice
// (fall back) fires once, at its first occurrence.
func (c *Cron) NextIn(after time.Time, loc *time.Location) (time.Time, bool) {
	if loc == nil || loc == time.UTC {
		return c.Next(after)
	}
	// Search on a UTC "shadow" of the wall clock, then map each wall-clock
	// answer back into loc; skip answers the fall-back hour puts behind.
	w := after.In(loc)
	shadow := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), time.UTC)
	for {
		next, ok := c.Next(shadow)
		if !ok {
			return time.Time{}, false
		}
		at := time.Date(next.Year(), next.Month(), next.Day(), next.Hour(), next.Minute(), 0, 0, loc)
		if w := at.In(loc); w.Hour() != next.Hour() || w.Minute() != next.Minute() || w.Day() != next.Day() {
			// A wall time the jump skips: time.Date may place it before the
			// jump; move it past by the gap, so 02:30 becomes 03:30.
			got := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), 0, 0, time.UTC)
			at = at.Add(next.Sub(got))
		}
		if at.After(after) {
			return at, true
		}
		shadow = next
	}
}
