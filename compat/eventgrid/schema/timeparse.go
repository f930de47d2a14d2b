package schema

import "time"

// ParseTime reads an event time: RFC 3339 with any fraction, or ISO 8601
// without a zone, taken as UTC (.NET, which the service runs on, accepts
// that, and hand-written publishers send it).
func ParseTime(s string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	for _, layout := range [...]string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
