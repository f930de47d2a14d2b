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

// parseRate reads "value unit": a positive whole number, one space, a unit.
// AWS insists on the singular unit for 1 and the plural for anything else:
// rate(1 hours) and rate(5 hour) are refused, as are a tab or two spaces.
func parseRate(body string) (Schedule, error) {
	number, unit, ok := strings.Cut(body, " ")
	if !ok || !digits(number) {
		return nil, ErrInvalid
	}
	n, err := strconv.Atoi(number)
	if err != nil || n < 1 {
		return nil, ErrInvalid
	}
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

// digits reports whether s is one or more ASCII digits and nothing else.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
