package scheduleexpr

import (
	"testing"
	"time"
)

func TestParseAcceptsAWSExamples(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{
		"rate(1 minute)", "rate(5 minutes)", "rate(1 hour)", "rate(12 hours)", "rate(1 day)", "rate(7 days)",
		"cron(0 20 * * ? *)", "cron(15 10 ? * 6L 2002-2005)", "cron(0 2 ? * SAT#3 *)",
		"cron(0/5 8-17 ? * MON-FRI *)", "cron(0 18 ? * MON-FRI *)", "cron(0 8 1 * ? *)",
		"cron(0/15 * * * ? *)", "cron(0 10 * * ? *)", "cron(0 12 L * ? *)", "cron(0 9 15W * ? *)",
		"cron(0 9 LW * ? *)", "cron(30 7 ? JAN,JUL SUN *)", "cron(0 0 ? * L *)",
	} {
		if _, err := Parse(expr); err != nil {
			t.Errorf("Parse(%q) = %v, want valid", expr, err)
		}
	}
}

func TestParseRefusesWhatAWSRefuses(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{
		"cron(0 1 * * * *)", "cron(71 8 1 * ? *)", "cron(INVALID)", "cron(0 1 ? * ? *)",
		"rate(0 minutes)", "rate(1 minutes)", "rate(5 minute)", "rate(-1 minutes)", "rate(1 week)",
		"rate(minutes)", "rate(1.5 hours)", "", "rate 1 minute", "cron(0 1 * * ?)", "cron(0 25 * * ? *)",
		"cron(0 1 32 * ? *)", "cron(0 1 ? * 8 *)", "cron(0 1 ? * MON#6 *)", "cron(0 1 * * ? 1969)",
		"cron(0/0 1 * * ? *)", "cron(a-b 1 * * ? *)", "cron(0 1 ? * 9L *)",
		// One space between the parts, nothing else.
		"rate(1\tminute)", "rate(1  minute)", "rate( 1 minute)", "rate(1 minute )", "rate(1\nminute)",
		"rate(1 )", "rate( minute)", "cron(0\t20 * * ? *)", "cron(0  20 * * ? *)", "cron( 0 20 * * ? *)",
		"cron(0 20 * * ? * )", "at(2026-01-01T00:00:00)",
	} {
		if _, err := Parse(expr); err == nil {
			t.Errorf("Parse(%q) succeeded, want ErrInvalid", expr)
		}
	}
}

func TestNext(t *testing.T) {
	t.Parallel()
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		expr, from string
		want       []string
	}{
		{"rate(1 minute)", "2026-01-01T00:00:30Z", []string{"2026-01-01T00:01:30Z", "2026-01-01T00:02:30Z"}},
		{"cron(0 20 * * ? *)", "2026-01-01T20:00:00Z", []string{"2026-01-02T20:00:00Z", "2026-01-03T20:00:00Z"}},
		{"cron(0/5 8-17 ? * MON-FRI *)", "2026-01-02T17:54:00Z", []string{"2026-01-02T17:55:00Z", "2026-01-05T08:00:00Z"}},
		// The third Saturday of each month.
		{"cron(0 2 ? * SAT#3 *)", "2026-01-01T00:00:00Z", []string{"2026-01-17T02:00:00Z", "2026-02-21T02:00:00Z"}},
		// The last Friday of each month, 2026 only.
		{"cron(15 10 ? * 6L 2026)", "2026-11-28T00:00:00Z", []string{"2026-12-25T10:15:00Z"}},
		{"cron(0 12 L * ? *)", "2028-02-01T00:00:00Z", []string{"2028-02-29T12:00:00Z", "2028-03-31T12:00:00Z"}},
		// 2026-08-15 is a Saturday: the nearest weekday is Friday the 14th.
		{"cron(0 9 15W 8 ? 2026)", "2026-01-01T00:00:00Z", []string{"2026-08-14T09:00:00Z"}},
		// 2026-05-31 is a Sunday: the last weekday of May is Friday the 29th.
		{"cron(0 9 LW 5 ? 2026)", "2026-01-01T00:00:00Z", []string{"2026-05-29T09:00:00Z"}},
		{"cron(0 0 1 1 ? 2030)", "2026-01-01T00:00:00Z", []string{"2030-01-01T00:00:00Z"}},
	}
	for _, c := range cases {
		s, err := Parse(c.expr)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.expr, err)
		}
		cur := at(c.from)
		for _, w := range c.want {
			next, ok := s.Next(cur)
			if !ok || !next.Equal(at(w)) {
				t.Errorf("%s after %s = %s, %v; want %s", c.expr, cur.Format(time.RFC3339), next.Format(time.RFC3339), ok, w)
				break
			}
			cur = next
		}
	}
	s, _ := Parse("cron(0 0 1 1 ? 2030)")
	if next, ok := s.Next(at("2030-01-01T00:00:00Z")); ok {
		t.Errorf("a cron whose years are past fired again at %s", next)
	}
}

func TestParseAtAcceptsOnlyTheLayoutInRange(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{"at(2026-03-01T09:30:00)", "at(1970-01-01T00:00:00)", "at(2199-12-31T23:59:59)"} {
		if _, err := ParseAt(expr, time.UTC); err != nil {
			t.Errorf("ParseAt(%q) = %v, want valid", expr, err)
		}
	}
	got, err := ParseAt("at(2026-03-01T09:30:00)", time.FixedZone("x", 3600))
	if err != nil || !got.Equal(time.Date(2026, 3, 1, 8, 30, 0, 0, time.UTC)) {
		t.Errorf("at in +01:00 = %v, %v; want 08:30 UTC", got, err)
	}
	for _, expr := range []string{
		"at(0000-01-01T00:00:00)", "at(1969-12-31T23:59:59)", "at(2200-01-01T00:00:00)",
		"at(2026-01-01T00:00:00.5)", "at(2026-01-01 00:00:00)", "at(2026-1-01T00:00:00)",
		"at(2026-02-30T00:00:00)", "at(2026-01-01T24:00:00)", "at(2026-01-01T00:00:00Z)",
		"at( 2026-01-01T00:00:00)", "at(2026-01-01T00:00:00", "at()", "rate(1 minute)",
	} {
		if _, err := ParseAt(expr, time.UTC); err == nil {
			t.Errorf("ParseAt(%q) succeeded, want ErrInvalid", expr)
		}
	}
}
