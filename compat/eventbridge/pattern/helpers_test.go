package pattern

import (
	"errors"
	"testing"
)

// matchCase is one pattern/event pair and whether the pattern matches.
type matchCase struct {
	name    string
	pattern string
	event   string
	want    bool
}

// runMatchCases checks each case through Pattern.Match and through a Matcher.
func runMatchCases(t *testing.T, cases []matchCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			expectMatch(t, c.pattern, []byte(c.event), c.want)
		})
	}
}

// invalidCase is a pattern and the reason AWS gives for rejecting it.
type invalidCase struct {
	name    string
	pattern string
	reason  string
}

func runInvalidCases(t *testing.T, cases []invalidCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			expectInvalid(t, c.pattern, invalidPatternPrefix+c.reason)
		})
	}
}

func mustParse(t testing.TB, pattern string) *Pattern {
	t.Helper()
	p, err := Parse(pattern)
	if err != nil {
		var invalid *InvalidPatternError
		errors.As(err, &invalid)
		t.Fatalf("Parse(%s): %v", pattern, err)
	}
	return p
}
