// Package isoduration reads the ISO 8601 durations that namespace event
// subscriptions use for eventTimeToLive ("P1D", "PT23H12M", "P0DT23H12M",
// "P1DT0H0M0S").
package isoduration

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Calendar units have no fixed length; GridBridge takes a year as 365 days
// and a month as 30 days (the reference marks this UNCONFIRMED; such long
// TTLs are beyond the 7-day retention anyway and are refused by validation).
const (
	day   = 24 * time.Hour
	week  = 7 * day
	month = 30 * day
	year  = 365 * day
)

// Parse reads P[nY][nM][nW][nD][T[nH][nM][nS]]. Every number is a
// non-negative decimal; only the last (smallest) one may have a fraction, as
// ISO 8601 allows. Designators are case-insensitive because hand-written
// templates send "p1d".
func Parse(s string) (time.Duration, error) {
	bad := func(why string) (time.Duration, error) {
		return 0, fmt.Errorf("%q is not an ISO 8601 duration such as P1D or PT1H30M: %s", s, why)
	}
	rest := strings.ToUpper(strings.TrimSpace(s))
	if !strings.HasPrefix(rest, "P") {
		return bad("it must start with P")
	}
	rest = rest[1:]
	if rest == "" || rest == "T" {
		return bad("it names no amount")
	}
	var (
		total      float64
		inTime     bool
		order      = "YMWD"
		fractional bool
		found      bool
	)
	for rest != "" {
		if rest[0] == 'T' {
			if inTime {
				return bad("T appears twice")
			}
			inTime, order, rest = true, "HMS", rest[1:]
			if rest == "" {
				return bad("nothing follows T")
			}
			continue
		}
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.' || rest[i] == ',') {
			i++
		}
		if i == 0 || i == len(rest) {
			return bad("every number needs a unit designator after it")
		}
		if fractional {
			return bad("only the last amount may have a fraction")
		}
		num, err := strconv.ParseFloat(strings.Replace(rest[:i], ",", ".", 1), 64)
		if err != nil {
			return bad("a number is malformed")
		}
		fractional = strings.ContainsAny(rest[:i], ".,")
		unit := rest[i]
		pos := strings.IndexByte(order, unit)
		if pos < 0 {
			return bad(fmt.Sprintf("unit %q is misplaced or unknown", string(unit)))
		}
		order = order[pos+1:] // units must come in order, each once
		total += num * float64(unitLength(unit, inTime))
		found = true
		rest = rest[i+1:]
	}
	if !found {
		return bad("it names no amount")
	}
	if total > math.MaxInt64 {
		return bad("it is too long")
	}
	return time.Duration(total), nil
}

func unitLength(unit byte, inTime bool) time.Duration {
	switch {
	case unit == 'Y':
		return year
	case unit == 'M' && !inTime:
		return month
	case unit == 'W':
		return week
	case unit == 'D':
		return day
	case unit == 'H':
		return time.Hour
	case unit == 'M':
		return time.Minute
	default: // 'S'
		return time.Second
	}
}

// Format writes d the way GridBridge reports a defaulted eventTimeToLive:
// whole days as "P7D", otherwise "P<d>DT<h>H<m>M<s>S" without zero parts.
func Format(d time.Duration) string {
	if d <= 0 {
		return "PT0S"
	}
	var b strings.Builder
	b.WriteByte('P')
	if days := d / day; days > 0 {
		b.WriteString(strconv.FormatInt(int64(days), 10))
		b.WriteByte('D')
		d -= days * day
	}
	if d == 0 {
		return b.String()
	}
	b.WriteByte('T')
	if h := d / time.Hour; h > 0 {
		b.WriteString(strconv.FormatInt(int64(h), 10))
		b.WriteByte('H')
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		b.WriteString(strconv.FormatInt(int64(m), 10))
		b.WriteByte('M')
		d -= m * time.Minute
	}
	if d > 0 {
		b.WriteString(strconv.FormatFloat(d.Seconds(), 'f', -1, 64))
		b.WriteByte('S')
	}
	return b.String()
}
