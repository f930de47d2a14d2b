package filter

import (
	"unicode"
	"unicode/utf8"
)

// Case-insensitive comparisons without allocating: advanced filters compare
// every string case-insensitively [filtering doc: "All string comparisons
// aren't case-sensitive"], and Match runs once per event and subscription, so
// lower-casing copies would cost an allocation per comparison. ASCII is
// compared byte by byte; elsewhere runes are compared under Unicode simple
// folding, so strings whose folded forms differ in byte length (the Kelvin
// sign and k) still compare correctly.

func equalRuneFold(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		return lowerASCII(a) == lowerASCII(b)
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

func lowerASCII(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// hasPrefixFold reports whether s begins with prefix, ignoring case.
func hasPrefixFold(s, prefix string) bool {
	i := 0
	for ; i < len(prefix) && i < len(s); i++ {
		a, b := prefix[i], s[i]
		if a|b >= utf8.RuneSelf {
			break
		}
		if a != b && lowerASCII(rune(a)) != lowerASCII(rune(b)) {
			return false
		}
	}
	return hasPrefixFoldRunes(s[i:], prefix[i:])
}

func hasPrefixFoldRunes(s, prefix string) bool {
	for prefix != "" {
		if s == "" {
			return false
		}
		pr, pn := utf8.DecodeRuneInString(prefix)
		sr, sn := utf8.DecodeRuneInString(s)
		if !equalRuneFold(pr, sr) {
			return false
		}
		prefix, s = prefix[pn:], s[sn:]
	}
	return true
}

// hasSuffixFold reports whether s ends with suffix, ignoring case.
func hasSuffixFold(s, suffix string) bool {
	for suffix != "" {
		if s == "" {
			return false
		}
		a, b := suffix[len(suffix)-1], s[len(s)-1]
		if a|b < utf8.RuneSelf {
			if a != b && lowerASCII(rune(a)) != lowerASCII(rune(b)) {
				return false
			}
			suffix, s = suffix[:len(suffix)-1], s[:len(s)-1]
			continue
		}
		pr, pn := utf8.DecodeLastRuneInString(suffix)
		sr, sn := utf8.DecodeLastRuneInString(s)
		if !equalRuneFold(pr, sr) {
			return false
		}
		suffix, s = suffix[:len(suffix)-pn], s[:len(s)-sn]
	}
	return true
}

// containsFold reports whether sub occurs in s, ignoring case. It tries each
// rune boundary of s, so a match never starts inside a multi-byte rune.
func containsFold(s, sub string) bool {
	for i := 0; ; {
		if hasPrefixFold(s[i:], sub) {
			return true
		}
		if i == len(s) {
			return false
		}
		if s[i] < utf8.RuneSelf {
			i++
		} else {
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
		}
	}
}
