package scheduleexpr

import (
	"strconv"
	"strings"
)

const (
	firstYear = 1970
	lastYear  = 2199
)

// Cron is AWS's six-field cron: minutes hours day-of-month month
// day-of-week year. Exactly one of the two day fields is "?", the other
// decides which days fire.
type Cron struct {
	minutes [60]bool
	hours   [24]bool
	months  [13]bool           // 1..12
	years   [lastYear + 1]bool // indexed by the year itself
	// byWeekday is true when day-of-month is "?".
	byWeekday bool
	dom       daysOfMonth
	dow       daysOfWeek
}

type daysOfMonth struct {
	days        [32]bool // 1..31
	last        bool     // L
	lastWeekday bool     // LW
	nearest     []int    // nW: the weekday nearest to day n
}

type daysOfWeek struct {
	days [8]bool // 1 = SUN .. 7 = SAT
	last []int   // nL: the last weekday n of the month
	nth  []nthWeekday
}

type nthWeekday struct{ weekday, n int }

var monthNames = map[string]int{
	"JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6,
	"JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10, "NOV": 11, "DEC": 12,
}

var weekdayNames = map[string]int{"SUN": 1, "MON": 2, "TUE": 3, "WED": 4, "THU": 5, "FRI": 6, "SAT": 7}

func parseCron(body string) (Schedule, error) {
	// Six fields, one space apart: a tab, a newline or a doubled space is
	// refused rather than read as a separator.
	f := strings.Split(body, " ")
	if len(f) != 6 {
		return nil, ErrInvalid
	}
	for _, field := range f {
		if field == "" {
			return nil, ErrInvalid
		}
	}
	// AWS: a value or * in one day field requires ? in the other.
	if (f[2] == "?") == (f[4] == "?") {
		return nil, ErrInvalid
	}
	c := &Cron{byWeekday: f[2] == "?"}
	ok := parseList(f[0], 0, 59, nil, c.minutes[:]) &&
		parseList(f[1], 0, 23, nil, c.hours[:]) &&
		parseList(f[3], 1, 12, monthNames, c.months[:]) &&
		parseList(f[5], firstYear, lastYear, nil, c.years[:])
	if !ok {
		return nil, ErrInvalid
	}
	if c.byWeekday {
		ok = parseWeekdays(f[4], &c.dow)
	} else {
		ok = parseMonthDays(f[2], &c.dom)
	}
	if !ok {
		return nil, ErrInvalid
	}
	return c, nil
}

// parseList reads a comma-separated list of values, ranges (a-b, wrapping
// past max) and steps (a/n, a-b/n, */n) into set, indexed by value.
func parseList(field string, min, max int, names map[string]int, set []bool) bool {
	for _, part := range strings.Split(field, ",") {
		if !parseRange(part, min, max, names, set) {
			return false
		}
	}
	return true
}

func parseRange(part string, min, max int, names map[string]int, set []bool) bool {
	base, stepText, hasStep := strings.Cut(part, "/")
	step := 1
	if hasStep {
		n, err := strconv.Atoi(stepText)
		if err != nil || n < 1 || n > max-min+1 {
			return false
		}
		step = n
	}
	var lo, hi int
	switch {
	case base == "*":
		lo, hi = min, max
	case strings.Contains(base, "-"):
		a, b, _ := strings.Cut(base, "-")
		var ok1, ok2 bool
		lo, ok1 = value(a, min, max, names)
		hi, ok2 = value(b, min, max, names)
		if !ok1 || !ok2 {
			return false
		}
	default:
		var ok bool
		if lo, ok = value(base, min, max, names); !ok {
			return false
		}
		hi = lo
		if hasStep {
			hi = max
		}
	}
	span := hi - lo
	if span < 0 { // a wrapping range such as FRI-MON
		span += max - min + 1
	}
	for i := 0; i <= span; i += step {
		v := lo + i
		if v > max {
			v -= max - min + 1
		}
		set[v] = true
	}
	return true
}

func value(s string, min, max int, names map[string]int) (int, bool) {
	if v, ok := names[strings.ToUpper(s)]; ok {
		return v, true
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < min || n > max || s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	return n, true
}

// parseMonthDays reads the day-of-month field: values, ranges and steps, and
// AWS's L (last day), LW (last weekday) and nW (weekday nearest to day n).
func parseMonthDays(field string, d *daysOfMonth) bool {
	for _, part := range strings.Split(field, ",") {
		switch {
		case part == "L":
			d.last = true
		case part == "LW":
			d.lastWeekday = true
		case strings.HasSuffix(part, "W"):
			n, ok := value(strings.TrimSuffix(part, "W"), 1, 31, nil)
			if !ok {
				return false
			}
			d.nearest = append(d.nearest, n)
		default:
			if !parseRange(part, 1, 31, nil, d.days[:]) {
				return false
			}
		}
	}
	return true
}

// parseWeekdays reads the day-of-week field: values and names (1 = SUN),
// ranges and steps, L (Saturday, the last day of the week), nL (the last
// weekday n of the month) and n#k (the k-th weekday n of the month).
func parseWeekdays(field string, d *daysOfWeek) bool {
	for _, part := range strings.Split(field, ",") {
		switch {
		case part == "L":
			d.days[7] = true
		case strings.HasSuffix(part, "L"):
			n, ok := value(strings.TrimSuffix(part, "L"), 1, 7, weekdayNames)
			if !ok {
				return false
			}
			d.last = append(d.last, n)
		case strings.Contains(part, "#"):
			a, b, _ := strings.Cut(part, "#")
			wd, ok1 := value(a, 1, 7, weekdayNames)
			k, ok2 := value(b, 1, 5, nil)
			if !ok1 || !ok2 {
				return false
			}
			d.nth = append(d.nth, nthWeekday{weekday: wd, n: k})
		default:
			if !parseRange(part, 1, 7, weekdayNames, d.days[:]) {
				return false
			}
		}
	}
	return true
}
