package pattern

import "net/netip"

// fieldIndex finds, for one value at one field path, the branches whose anchor field (see
// chooseAnchor) has a matcher that accepts the value. A hit makes the branch a candidate,
// which is then verified in full; a value that hits nothing costs a few map lookups.
type fieldIndex struct {
	strings  map[string][]int32
	ips      map[netip.Addr][]int32
	numbers  map[uint64][]int32 // comparable numbers, by floatKey
	numTexts map[string][]int32 // numbers a float cannot hold, by text
	literals [3][]int32         // true, false, null
	prefixes affixTrie
	suffixes affixTrie

	foldEquals   map[string][]int32 // ASCII equals-ignore-case, by lower-cased value
	foldPrefixes affixTrie
	foldSuffixes affixTrie
	hasFold      bool

	ranges rangeIndex
	exists []int32 // {"exists": true}: any value
}

func newFieldIndex() *fieldIndex { return &fieldIndex{} }

// add indexes one matcher of the anchor field of branch b. It reports false for matchers the
// index cannot serve; chooseAnchor only picks fields whose matchers are all indexable.
func (x *fieldIndex) add(m valueMatcher, b int32) bool {
	switch m := m.(type) {
	case exactString:
		x.strings = addTo(x.strings, m.s, b)
	case exactIP:
		if x.ips == nil {
			x.ips = map[netip.Addr][]int32{}
		}
		x.ips[m.addr] = append(x.ips[m.addr], b)
	case exactNumber:
		if m.comparable {
			if x.numbers == nil {
				x.numbers = map[uint64][]int32{}
			}
			x.numbers[m.key] = append(x.numbers[m.key], b)
		} else {
			x.numTexts = addTo(x.numTexts, m.text, b)
		}
	case exactLiteral:
		i := m.kind - leafTrue
		x.literals[i] = append(x.literals[i], b)
	case prefixMatcher:
		x.prefixes.add(m.s, b, false)
	case suffixMatcher:
		x.suffixes.add(m.s, b, true)
	case *ignoreCase:
		if !m.p.isASCII {
			return false
		}
		x.hasFold = true
		switch m.mode {
		case foldEquals:
			x.foldEquals = addTo(x.foldEquals, m.p.ascii, b)
		case foldPrefix:
			x.foldPrefixes.add(m.p.ascii, b, false)
		case foldSuffix:
			x.foldSuffixes.add(m.p.ascii, b, true)
		}
	case numericRange:
		x.ranges.add(m, b)
	case existsMatcher:
		x.exists = append(x.exists, b)
	default:
		return false
	}
	return true
}

// indexable reports whether fieldIndex.add accepts m.
func indexable(m valueMatcher) bool {
	switch m := m.(type) {
	case exactString, exactIP, exactNumber, exactLiteral, prefixMatcher, suffixMatcher, numericRange, existsMatcher:
		return true
	case *ignoreCase:
		return m.p.isASCII
	}
	return false
}

func addTo(m map[string][]int32, k string, b int32) map[string][]int32 {
	if m == nil {
		m = map[string][]int32{}
	}
	m[k] = append(m[k], b)
	return m
}

// finish prepares the index for lookups once every matcher is added.
func (x *fieldIndex) finish() {
	x.ranges.finish()
}

// collect hands every branch the value hits to c.
func (x *fieldIndex) collect(l *leaf, c *candidates, lower *[]byte) {
	c.addAll(x.exists)
	switch l.kind {
	case leafString:
		if x.strings != nil {
			c.addAll(x.strings[string(l.val)])
		}
		if x.ips != nil {
			if a, ok := l.ipAddr(); ok {
				c.addAll(x.ips[a])
			}
		}
		x.prefixes.collectPrefixes(l.val, c)
		x.suffixes.collectSuffixes(l.val, c)
		if x.hasFold {
			*lower = asciiLower((*lower)[:0], l.val)
			if x.foldEquals != nil {
				c.addAll(x.foldEquals[string(*lower)])
			}
			x.foldPrefixes.collectPrefixes(*lower, c)
			x.foldSuffixes.collectSuffixes(*lower, c)
		}
	case leafNumber:
		f, ok := l.number()
		if ok {
			if x.numbers != nil {
				c.addAll(x.numbers[floatKey(f)])
			}
			x.ranges.collect(f, c)
		} else if x.numTexts != nil {
			c.addAll(x.numTexts[string(l.val)])
		}
	default:
		c.addAll(x.literals[l.kind-leafTrue])
	}
}
