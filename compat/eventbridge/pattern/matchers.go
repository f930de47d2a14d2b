package pattern

import "net/netip"

// valueMatcher is one entry of a field's value list in a pattern: it tests a single event value.
// The list as a whole is an OR.
type valueMatcher interface {
	matchLeaf(l *leaf) bool
}

// exactString matches a string value character for character.
type exactString struct{ s string }

func (m exactString) matchLeaf(l *leaf) bool {
	return l.kind == leafString && string(l.val) == m.s
}

// exactIP matches a string value that spells the same IP address. AWS turns a pattern string
// that is an IP address into a one-address range, so "2001:db8::1" matches "2001:DB8:0::1".
type exactIP struct{ addr netip.Addr }

func (m exactIP) matchLeaf(l *leaf) bool {
	if l.kind != leafString {
		return false
	}
	a, ok := l.ipAddr()
	return ok && a == m.addr
}

// exactNumber matches a number by value when both sides are comparable, otherwise by text.
// It never matches a string ("300" is not 300).
type exactNumber struct {
	comparable bool
	key        uint64 // floatKey of the value, when comparable
	text       string // as written, when not
}

func newExactNumber(text string) exactNumber {
	if f, ok := analyzeNumber(text); ok {
		return exactNumber{comparable: true, key: floatKey(f)}
	}
	return exactNumber{text: text}
}

func (m exactNumber) matchLeaf(l *leaf) bool {
	if l.kind != leafNumber {
		return false
	}
	f, ok := l.number()
	if m.comparable {
		return ok && floatKey(f) == m.key
	}
	return !ok && string(l.val) == m.text
}

// exactLiteral matches true, false or null.
type exactLiteral struct{ kind leafKind }

func (m exactLiteral) matchLeaf(l *leaf) bool { return l.kind == m.kind }

type prefixMatcher struct{ s string }

func (m prefixMatcher) matchLeaf(l *leaf) bool {
	return l.kind == leafString && len(l.val) >= len(m.s) && string(l.val[:len(m.s)]) == m.s
}

type suffixMatcher struct{ s string }

func (m suffixMatcher) matchLeaf(l *leaf) bool {
	return l.kind == leafString && len(l.val) >= len(m.s) && string(l.val[len(l.val)-len(m.s):]) == m.s
}

// ignoreCase is equals-ignore-case, alone or inside prefix or suffix.
type ignoreCase struct {
	mode foldMode
	p    foldPattern
}

type foldMode uint8

const (
	foldEquals foldMode = iota
	foldPrefix
	foldSuffix
)

func (m *ignoreCase) matchLeaf(l *leaf) bool {
	if l.kind != leafString {
		return false
	}
	switch m.mode {
	case foldPrefix:
		return m.p.isPrefixOf(l.val)
	case foldSuffix:
		return m.p.isSuffixOf(l.val)
	}
	return m.p.equals(l.val)
}

// numericRange matches comparable numbers inside a range; "=" is a range of one value.
// An open side is a strict comparison.
type numericRange struct {
	lo, hi         float64
	loOpen, hiOpen bool
}

func (m numericRange) matchLeaf(l *leaf) bool {
	if l.kind != leafNumber {
		return false
	}
	f, ok := l.number()
	return ok && m.contains(f)
}

func (m numericRange) contains(f float64) bool {
	if f < m.lo || (m.loOpen && f == m.lo) {
		return false
	}
	return f < m.hi || (!m.hiOpen && f == m.hi)
}

// existsMatcher is {"exists": true}: any value at all, null included, but not an object and
// not an empty array, which have no values. {"exists": false} is fieldCond.absent.
type existsMatcher struct{}

func (existsMatcher) matchLeaf(*leaf) bool { return true }

// cidrMatcher matches a string value that is an IP address inside the block.
type cidrMatcher struct{ block netip.Prefix }

func (m cidrMatcher) matchLeaf(l *leaf) bool {
	if l.kind != leafString {
		return false
	}
	a, ok := l.ipAddr()
	return ok && m.block.Contains(a)
}

type wildcardMatcher struct{ w wildcardPattern }

func (m *wildcardMatcher) matchLeaf(l *leaf) bool {
	return l.kind == leafString && m.w.matches(l.val)
}

// The anything-but family matches every value except the ones it names. Values of another
// type, and null, pass: {"anything-but": "x"} matches 5 and null. A missing field has no value
// and so never matches.

// anythingBut excludes a set of strings, or a set of numbers compared by value.
type anythingBut struct {
	numeric bool
	strings map[string]struct{}
	numbers map[uint64]struct{}
}

func (m *anythingBut) matchLeaf(l *leaf) bool {
	switch {
	case m.numeric:
		if l.kind != leafNumber {
			return true
		}
		f, ok := l.number()
		if !ok {
			return true
		}
		_, excluded := m.numbers[floatKey(f)]
		return !excluded
	case l.kind == leafString:
		_, excluded := m.strings[string(l.val)]
		return !excluded
	}
	return true
}

type anythingButPrefix struct{ prefixes []string }

func (m anythingButPrefix) matchLeaf(l *leaf) bool {
	if l.kind != leafString {
		return true
	}
	for _, p := range m.prefixes {
		if len(l.val) >= len(p) && string(l.val[:len(p)]) == p {
			return false
		}
	}
	return true
}

type anythingButSuffix struct{ suffixes []string }

func (m anythingButSuffix) matchLeaf(l *leaf) bool {
	if l.kind != leafString {
		return true
	}
	for _, s := range m.suffixes {
		if len(l.val) >= len(s) && string(l.val[len(l.val)-len(s):]) == s {
			return false
		}
	}
	return true
}

type anythingButIgnoreCase struct{ values []foldPattern }

func (m *anythingButIgnoreCase) matchLeaf(l *leaf) bool {
	if l.kind != leafString {
		return true
	}
	for i := range m.values {
		if m.values[i].equals(l.val) {
			return false
		}
	}
	return true
}

type anythingButWildcard struct{ values []wildcardPattern }

func (m *anythingButWildcard) matchLeaf(l *leaf) bool {
	if l.kind != leafString {
		return true
	}
	for i := range m.values {
		if m.values[i].matches(l.val) {
			return false
		}
	}
	return true
}
