package pattern

import (
	"math"
	"testing"
)

func TestAnalyzeNumber(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text       string
		value      float64
		comparable bool
	}{
		{"0", 0, true},
		{"-0", 0, true},
		{"-0.0", 0, true},
		{"300", 300, true},
		{"300.0", 300, true},
		{"3.0e2", 300, true},
		{"3E+2", 300, true},
		{"0.1", 0.1, true},
		{"301.8", 301.8, true},
		{"-7.25", -7.25, true},
		{"123456789012", 123456789012, true},
		{"999999999999999", 999999999999999, true},
		{"9007199254740992", 9007199254740992, true},  // 2^53: exact
		{"9007199254740993", 9007199254740992, false}, // rounds: not comparable
		{"12345678901234567890", 12345678901234567e3, false},
		{"0.10000000000000001", 0.1, false},
		{"1.7976931348623157e308", math.MaxFloat64, true},
		{"1e400", 0, false},
		{"1e-400", 0, false},
		{"5e-324", 5e-324, true},
		{"3e-324", 0, false},
	} {
		v, ok := analyzeNumber(c.text)
		if ok != c.comparable || (ok && v != c.value) {
			t.Errorf("analyzeNumber(%s) = %v, %v; want %v, %v", c.text, v, ok, c.value, c.comparable)
		}
		if ok && v == 0 && math.Signbit(v) {
			t.Errorf("analyzeNumber(%s) kept the sign of zero", c.text)
		}
	}
}
