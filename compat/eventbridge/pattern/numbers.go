package pattern

import (
	"math"
	"strconv"
)

// AWS compares numbers by value, but only numbers that a 64-bit float holds exactly: 300,
// 300.0 and 3.0e2 are equal, and 0.1 is fine too because "0.1" is how that float prints. A
// number a float cannot hold exactly, such as 12345678901234567890, is "not comparable": it
// matches an exact pattern only by identical text, never satisfies a numeric range, and is
// rejected when a pattern uses it as a numeric bound ("Cannot compare number : X").

// analyzeNumber returns the value of a JSON number's text and whether it is comparable.
// Negative zero counts as zero.
func analyzeNumber(text string) (float64, bool) {
	if f, ok := shortDecimal(text); ok {
		return f, true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	if f == 0 {
		f = 0 // drop the sign of -0
	}
	sig, exp := significantDigits(text)
	// Up to 15 significant digits, every decimal round-trips through a float64 (away from
	// the subnormal range), so the expensive check below is only for long numbers.
	if sig <= 15 && exp > -290 && exp < 290 {
		return f, true
	}
	return f, sameDecimal(text, strconv.FormatFloat(f, 'e', -1, 64))
}

// shortDecimal handles the common cases of at most 15 digits, with or without a fraction but
// without an exponent, without a general float parse: the digits as an integer and one
// division by a power of ten are both exact, so the quotient is the correctly rounded value,
// and a decimal of at most 15 digits is always comparable.
func shortDecimal(text string) (float64, bool) {
	i, neg := 0, false
	if len(text) > 0 && text[0] == '-' {
		i, neg = 1, true
	}
	var v int64
	digits, fraction := 0, -1
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*10 + int64(c-'0')
			if digits++; digits > 15 {
				return 0, false
			}
			if fraction >= 0 {
				fraction++
			}
		case c == '.' && fraction < 0:
			fraction = 0
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	f := float64(v)
	if fraction > 0 {
		f /= pow10[fraction]
	}
	if neg && f != 0 {
		f = -f
	}
	return f, true
}

// pow10 holds the powers of ten that float64 represents exactly (up to 1e22); a fraction here
// has at most 15 digits.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// decimal is a number's value as significant digits and a power of ten:
// value = 0.d1d2d3... × 10^exp, with no leading or trailing zero digits (zero has no digits).
type decimal struct {
	neg    bool
	digits []byte
	exp    int
}

func parseDecimal(text string) decimal {
	var d decimal
	i := 0
	if i < len(text) && text[i] == '-' {
		d.neg = true
		i++
	}
	pointSeen, exp := false, 0
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '.':
			pointSeen = true
		case c >= '0' && c <= '9':
			if c == '0' && len(d.digits) == 0 {
				if pointSeen {
					exp--
				}
				continue
			}
			d.digits = append(d.digits, c)
			if !pointSeen {
				exp++
			}
		case c == 'e' || c == 'E':
			e, _ := strconv.Atoi(text[i+1:])
			exp += e
			i = len(text)
		}
	}
	for len(d.digits) > 0 && d.digits[len(d.digits)-1] == '0' {
		d.digits = d.digits[:len(d.digits)-1]
	}
	d.exp = exp
	if len(d.digits) == 0 {
		d.neg, d.exp = false, 0
	}
	return d
}

func sameDecimal(a, b string) bool {
	x, y := parseDecimal(a), parseDecimal(b)
	return x.neg == y.neg && x.exp == y.exp && string(x.digits) == string(y.digits)
}

// significantDigits counts the significant digits of a number's text and finds its decimal
// exponent (as in decimal.exp), without allocating.
func significantDigits(text string) (count, exp int) {
	first, last := -1, -1 // first and last non-zero mantissa digit
	point, mantissaEnd := -1, len(text)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '.':
			point = i
		case c == 'e' || c == 'E':
			mantissaEnd = i
			e, _ := strconv.Atoi(text[i+1:])
			exp = e
			i = len(text)
		case c >= '1' && c <= '9':
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0, 0
	}
	if point < 0 {
		point = mantissaEnd
	}
	count = last - first + 1
	if first < point && last > point {
		count-- // the decimal point sits between them
	}
	if first < point {
		exp += point - first
	} else {
		exp -= first - point - 1
	}
	return count, exp
}

// floatKey is the map key of a comparable number: equal values have equal keys.
func floatKey(f float64) uint64 {
	if f == 0 {
		return 0
	}
	return math.Float64bits(f)
}
