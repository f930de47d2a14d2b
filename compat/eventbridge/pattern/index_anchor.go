package pattern

import "sort"

// Each branch is indexed under one of its fields, its anchor: an event value that satisfies the
// anchor makes the branch a candidate, and candidates are verified in full. A good anchor is
// a field that few other branches share the same condition on, so that an event wakes few
// candidates: "detail-type" = "OrderPlaced" beats "source" = "aws.ec2" when a hundred rules
// listen to aws.ec2. Branches without an indexable field are verified on every event.

// anchorKey identifies a condition for counting how many branches share it.
type anchorKey struct {
	path int32
	kind uint8
	s    string
	n    uint64
}

const (
	keyString uint8 = iota
	keyIP
	keyNumber
	keyNumberText
	keyLiteral
	keyPrefix
	keySuffix
	keyFoldEquals
	keyFoldPrefix
	keyFoldSuffix
	keyExists
	keyRange
)

func keyOf(path int32, m valueMatcher) anchorKey {
	switch m := m.(type) {
	case exactString:
		return anchorKey{path: path, kind: keyString, s: m.s}
	case exactIP:
		return anchorKey{path: path, kind: keyIP, s: m.addr.String()}
	case exactNumber:
		if m.comparable {
			return anchorKey{path: path, kind: keyNumber, n: m.key}
		}
		return anchorKey{path: path, kind: keyNumberText, s: m.text}
	case exactLiteral:
		return anchorKey{path: path, kind: keyLiteral, n: uint64(m.kind)}
	case prefixMatcher:
		return anchorKey{path: path, kind: keyPrefix, s: m.s}
	case suffixMatcher:
		return anchorKey{path: path, kind: keySuffix, s: m.s}
	case *ignoreCase:
		return anchorKey{path: path, kind: keyFoldEquals + uint8(m.mode), s: m.p.ascii}
	case existsMatcher:
		return anchorKey{path: path, kind: keyExists}
	}
	return anchorKey{path: path, kind: keyRange}
}

// anchorStats counts conditions over all branches, to estimate each field's cost as an anchor.
type anchorStats struct {
	counts   map[anchorKey]int
	withPath map[int32]int        // branches with an indexable field on the path
	ranges   map[int32]*rangeEnds // numeric ranges per path
}

type rangeEnds struct{ los, his []float64 }

func indexableField(f *fieldCond) bool {
	if f.absent || len(f.matchers) == 0 {
		return false
	}
	for _, m := range f.matchers {
		if !indexable(m) {
			return false
		}
	}
	return true
}

func gatherAnchorStats(branches []*subRule) *anchorStats {
	st := &anchorStats{counts: map[anchorKey]int{}, withPath: map[int32]int{}, ranges: map[int32]*rangeEnds{}}
	for _, b := range branches {
		for i := range b.fields {
			f := &b.fields[i]
			if !indexableField(f) {
				continue
			}
			st.withPath[f.pathID]++
			for _, m := range f.matchers {
				if r, ok := m.(numericRange); ok {
					e := st.ranges[f.pathID]
					if e == nil {
						e = &rangeEnds{}
						st.ranges[f.pathID] = e
					}
					e.los = append(e.los, r.lo)
					e.his = append(e.his, r.hi)
					continue
				}
				st.counts[keyOf(f.pathID, m)]++
			}
		}
	}
	for _, e := range st.ranges {
		sort.Float64s(e.los)
		sort.Float64s(e.his)
	}
	return st
}

// cost estimates how many branches become candidates along with this one when the field hits.
func (st *anchorStats) cost(f *fieldCond) float64 {
	total := 0.0
	for _, m := range f.matchers {
		switch m := m.(type) {
		case numericRange:
			// Ranges overlapping this one: all, less those wholly below or wholly above it.
			e := st.ranges[f.pathID]
			below := sort.SearchFloat64s(e.his, m.lo)
			above := len(e.los) - sort.Search(len(e.los), func(i int) bool { return e.los[i] > m.hi })
			total += 2 * float64(len(e.los)-below-above)
		case existsMatcher:
			total += 8 * float64(st.withPath[f.pathID])
		case prefixMatcher:
			total += affixWeight(len(m.s)) * float64(st.counts[keyOf(f.pathID, m)])
		case suffixMatcher:
			total += affixWeight(len(m.s)) * float64(st.counts[keyOf(f.pathID, m)])
		case *ignoreCase:
			w := 1.0
			if m.mode != foldEquals {
				w = affixWeight(len(m.p.ascii))
			}
			total += w * float64(st.counts[keyOf(f.pathID, m)])
		default:
			total += float64(st.counts[keyOf(f.pathID, m)])
		}
	}
	return total
}

// affixWeight reflects that short prefixes and suffixes match many values.
func affixWeight(n int) float64 { return 2 + 8/float64(n+1) }

// chooseAnchor returns the index of the branch's cheapest indexable field, or -1.
func (st *anchorStats) chooseAnchor(b *subRule) int {
	best, bestCost := -1, 0.0
	for i := range b.fields {
		f := &b.fields[i]
		if !indexableField(f) {
			continue
		}
		if c := st.cost(f); best < 0 || c < bestCost {
			best, bestCost = i, c
		}
	}
	return best
}
