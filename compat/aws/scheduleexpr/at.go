package scheduleexpr

import (
	"strings"
	"time"
)

// atLayout is a one-time schedule's wall time: exactly yyyy-mm-ddThh:mm:ss.
const atLayout = "2006-01-02T15:04:05"

// ParseAt reads EventBridge Scheduler's "at(yyyy-mm-ddThh:mm:ss)" as a wall
// time in loc. The year must lie in the range a cron year may name
// (1970–2199), so at(0000-01-01T00:00:00) is refused; fractional seconds,
// which time.Parse would otherwise accept after the seconds, are refused.
func ParseAt(expr string, loc *time.Location) (time.Time, error) {
	body, ok := strings.CutPrefix(expr, "at(")
	if !ok {
		return time.Time{}, ErrInvalid
	}
	body, ok = strings.CutSuffix(body, ")")
	if !ok || len(body) != len(atLayout) {
		return time.Time{}, ErrInvalid
	}
	t, err := time.ParseInLocation(atLayout, body, loc)
	if err != nil || t.Year() < firstYear || t.Year() > lastYear {
		return time.Time{}, ErrInvalid
	}
	return t, nil
}

// IsAt reports whether expr is written as a one-time at(…) expression.
func IsAt(expr string) bool { return strings.HasPrefix(expr, "at(") }
