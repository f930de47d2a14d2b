package scheduleexpr

import (
	"testing"
	"time"
)

// NextIn reads cron fields as wall-clock time in a zone, across daylight
// saving: a skipped wall time fires after the jump, a repeated one once.
func TestNextInAcrossDaylightSaving(t *testing.T) {
	t.Parallel()
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skipf("no zoneinfo for America/New_York: %v", err)
	}
	firings := func(expr string, from time.Time, n int) []time.Time {
		s, err := Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		var out []time.Time
		at := from
		for range n {
			next, ok := s.(*Cron).NextIn(at, ny)
			if !ok {
				t.Fatalf("%s: no firing after %s", expr, at)
			}
			out = append(out, next.UTC())
			at = next
		}
		return out
	}
	utc := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, time.UTC) }

	// 2026-03-08 02:30 does not exist in New York: it fires at 03:30 EDT.
	got := firings("cron(30 2 * * ? *)", utc(2026, 3, 7, 12, 0), 2)
	if !got[0].Equal(utc(2026, 3, 8, 7, 30)) || !got[1].Equal(utc(2026, 3, 9, 6, 30)) {
		t.Fatalf("spring forward: fired %v, want 07:30Z (03:30 EDT) on the 8th then 06:30Z (02:30 EDT) on the 9th", got)
	}
	// 2026-11-01 01:30 happens twice in New York: it fires once, at the first.
	got = firings("cron(30 1 * * ? *)", utc(2026, 10, 31, 12, 0), 2)
	if !got[0].Equal(utc(2026, 11, 1, 5, 30)) || !got[1].Equal(utc(2026, 11, 2, 6, 30)) {
		t.Fatalf("fall back: fired %v, want 05:30Z on the 1st then 06:30Z on the 2nd", got)
	}
	// UTC (and a nil zone) is Next itself.
	c, _ := Parse("cron(0 12 * * ? *)")
	if a, _ := c.(*Cron).NextIn(utc(2026, 1, 1, 0, 0), nil); !a.Equal(utc(2026, 1, 1, 12, 0)) {
		t.Fatalf("nil zone: %s", a)
	}
}
