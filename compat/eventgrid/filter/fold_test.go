package filter

import "testing"

func TestFoldHelpers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		fn     func(string, string) bool
		s, sub string
		want   bool
	}{
		{"prefix ascii", hasPrefixFold, "Hello", "hE", true},
		{"prefix longer", hasPrefixFold, "He", "hello", false},
		{"prefix empty", hasPrefixFold, "", "", true},
		{"prefix unicode", hasPrefixFold, "Äpfel und Birnen", "äPFEL", true},
		// U+212A KELVIN SIGN folds to k but is three bytes long.
		{"prefix kelvin", hasPrefixFold, "\u212Aelvin", "kel", true},
		{"suffix kelvin", hasSuffixFold, "mar\u212A", "RK", true},
		{"suffix ascii miss", hasSuffixFold, "abc", "abd", false},
		{"suffix longer", hasSuffixFold, "bc", "abc", false},
		{"contains middle", containsFold, "one TWO three", "two", true},
		{"contains end", containsFold, "one two", "TWO", true},
		{"contains empty", containsFold, "", "", true},
		{"contains miss", containsFold, "one two", "three", false},
		{"contains greek", containsFold, "ΑΘΗΝΑ", "θην", true},
		{"invalid utf-8 is tolerated", containsFold, "a\xffb", "\xffB", true},
	}
	for _, tc := range tests {
		if got := tc.fn(tc.s, tc.sub); got != tc.want {
			t.Errorf("%s: (%q, %q) = %v, want %v", tc.name, tc.s, tc.sub, got, tc.want)
		}
	}
}
