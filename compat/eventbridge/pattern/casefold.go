package pattern

import (
	"unicode"
	"unicode/utf8"
)

// foldPattern is the value of an equals-ignore-case operator (alone, or inside prefix, suffix
// or anything-but). AWS compiles it character by character: each character of the pattern
// matches either its lower-case or its upper-case form, each possibly several characters long,
// while the event value is taken as it is. So matching is asymmetric: a pattern "ſ" (long s)
// matches "S", but a pattern "S" does not match "ſ"; the Kelvin sign in an event never matches
// a pattern "k".
type foldPattern struct {
	units []foldUnit
	// ascii holds the lower-cased pattern when it is pure ASCII, the common case, where
	// matching is a byte-wise compare and the pattern can be indexed by its lower-cased form.
	ascii   string
	isASCII bool
}

// foldUnit is one pattern character: it matches lower or, when different, upper.
type foldUnit struct {
	lower, upper string
}

func newFoldPattern(s string) foldPattern {
	f := foldPattern{isASCII: true}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			f.isASCII = false
			break
		}
	}
	if f.isASCII {
		f.ascii = string(asciiLower(nil, []byte(s)))
	}
	for _, r := range s {
		lower, upper := caseForms(r)
		if lower == upper {
			upper = ""
		}
		f.units = append(f.units, foldUnit{lower: lower, upper: upper})
	}
	return f
}

// caseForms returns the lower- and upper-case forms of a pattern character.
func caseForms(r rune) (lower, upper string) {
	if s, ok := lowerSpecialCase[r]; ok {
		lower = s
	} else {
		lower = string(unicode.ToLower(r))
	}
	if s, ok := upperSpecialCase[r]; ok {
		upper = s
	} else {
		upper = string(unicode.ToUpper(r))
	}
	return lower, upper
}

func (f *foldPattern) equals(v []byte) bool {
	if f.isASCII {
		return len(v) == len(f.ascii) && asciiFoldEqual(v, f.ascii)
	}
	return f.match(v, true)
}

func (f *foldPattern) isPrefixOf(v []byte) bool {
	if f.isASCII {
		return len(v) >= len(f.ascii) && asciiFoldEqual(v[:len(f.ascii)], f.ascii)
	}
	return f.match(v, false)
}

func (f *foldPattern) isSuffixOf(v []byte) bool {
	if f.isASCII {
		return len(v) >= len(f.ascii) && asciiFoldEqual(v[len(v)-len(f.ascii):], f.ascii)
	}
	return f.matchSuffix(v)
}

// match runs the pattern's characters over v from the start, tracking every position the
// alternatives can reach. whole requires the pattern to end exactly at the end of v.
func (f *foldPattern) match(v []byte, whole bool) bool {
	var buf [8]int
	cur := append(buf[:0], 0)
	var nextBuf [8]int
	for _, u := range f.units {
		next := nextBuf[:0]
		for _, p := range cur {
			if hasPrefixAt(v, p, u.lower) {
				next = appendUnique(next, p+len(u.lower))
			}
			if u.upper != "" && hasPrefixAt(v, p, u.upper) {
				next = appendUnique(next, p+len(u.upper))
			}
		}
		if len(next) == 0 {
			return false
		}
		cur = append(buf[:0], next...)
	}
	if !whole {
		return true
	}
	for _, p := range cur {
		if p == len(v) {
			return true
		}
	}
	return false
}

// matchSuffix runs the pattern's characters backwards from the end of v.
func (f *foldPattern) matchSuffix(v []byte) bool {
	var buf [8]int
	cur := append(buf[:0], len(v))
	var nextBuf [8]int
	for i := len(f.units) - 1; i >= 0; i-- {
		u := f.units[i]
		next := nextBuf[:0]
		for _, p := range cur {
			if hasSuffixAt(v, p, u.lower) {
				next = appendUnique(next, p-len(u.lower))
			}
			if u.upper != "" && hasSuffixAt(v, p, u.upper) {
				next = appendUnique(next, p-len(u.upper))
			}
		}
		if len(next) == 0 {
			return false
		}
		cur = append(buf[:0], next...)
	}
	return true
}

func hasPrefixAt(v []byte, p int, s string) bool {
	return len(v)-p >= len(s) && string(v[p:p+len(s)]) == s
}

func hasSuffixAt(v []byte, end int, s string) bool {
	return end >= len(s) && string(v[end-len(s):end]) == s
}

func appendUnique(ps []int, p int) []int {
	for _, q := range ps {
		if q == p {
			return ps
		}
	}
	return append(ps, p)
}

// asciiFoldEqual reports whether v equals the lower-case ASCII string lower, ignoring the case
// of ASCII letters in v. Non-ASCII bytes in v never match.
func asciiFoldEqual(v []byte, lower string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// asciiLower appends v with ASCII letters lower-cased to dst.
func asciiLower(dst, v []byte) []byte {
	for _, c := range v {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
