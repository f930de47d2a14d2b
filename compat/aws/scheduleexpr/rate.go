package scheduleexpr

import (
	"strconv"
	"strings"
	"time"
)

// Rate fires every Every, counted from when the rule was scheduled.
type Rate struct {
	Every time.Duration
}

// Next implements Schedule.
func (r Rate) Next(t time.Time) (time.Time, bool) { return t.Add(r.Every), true }

// parseRate reads "value unit". AWS insists on the singular unit for 1 and
// the plural for anything else: rate(1 hours) and rate(5 hour) are refused.
func parseRate(body string) (Schedule, error) {
	fields := strings.Fields(body)
	if len(fields) != 2 {
		return nil, ErrInvalid
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil || n < 1 || fields[0][0] == '+' {
		return nil, ErrInvalid
	}
	unit := fields[1]
	singular := strings.TrimSuffix(unit, "s")
	if (n == 1) != (singular == unit) {
		return nil, ErrInvalid
	}
	var d time.Duration
	switch singular {
	case "minute":
		d = time.Minute
	case "hour":
		d = time.Hour
	case "day":
		d = 24 * time.Hour
	default:
		return nil, ErrInvalid
	}
	if int64(n) > int64(1<<62)/int64(d) {
		return nil, ErrInvalid
	}
	return Rate{Every: time.Duration(n) * d}, nil
}
