package isoduration

import (
	"testing"
	"time"
)

func TestParseAcceptsTheDocumentedForms(t *testing.T) {
	t.Parallel()
	cases := map[string]time.Duration{
		"P1D":        24 * time.Hour,
		"PT23H12M":   23*time.Hour + 12*time.Minute,
		"P0DT23H12M": 23*time.Hour + 12*time.Minute,
		"P1DT0H0M0S": 24 * time.Hour,
		"PT1M":       time.Minute,
		"PT90S":      90 * time.Second,
		"PT0.5S":     500 * time.Millisecond,
		"P1W":        7 * 24 * time.Hour,
		"p7d":        7 * 24 * time.Hour,
		"P1M":        30 * 24 * time.Hour,
		"P1Y":        365 * 24 * time.Hour,
		"P1DT1M":     24*time.Hour + time.Minute,
	}
	for in, want := range cases {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestParseRejectsMalformedDurations(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "1D", "P", "PT", "P1", "PT1H1H", "P1H", "PT1D", "P1.5DT1H", "P1D1Y", "PxD", "P1DT", "P-1D", "10"} {
		if d, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, d)
		}
	}
}

func TestFormatRoundTrips(t *testing.T) {
	t.Parallel()
	for _, d := range []time.Duration{7 * 24 * time.Hour, time.Minute, 25*time.Hour + 90*time.Second} {
		got, err := Parse(Format(d))
		if err != nil || got != d {
			t.Errorf("Parse(Format(%v)) = %v, %v (text %q)", d, got, err, Format(d))
		}
	}
	if got := Format(7 * 24 * time.Hour); got != "P7D" {
		t.Errorf("Format(7d) = %q, want P7D", got)
	}
}
