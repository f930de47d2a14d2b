package pattern

import "sort"

// rangeIndex finds the numeric ranges that contain a number. Few ranges are scanned; many are
// put in a segment tree over the "slots" their end points cut the number line into (every end
// point and every gap between two is a slot), so a lookup visits one root-to-leaf path and
// costs O(log n) plus the ranges it returns.
type rangeIndex struct {
	entries []rangeEntry
	points  []float64 // distinct end points, sorted
	tree    [][]int32 // node -> branches whose range covers the node's slots
	slots   int
}

type rangeEntry struct {
	r numericRange
	b int32
}

// scanLimit is the number of ranges up to which a plain scan beats the tree.
const scanLimit = 8

func (x *rangeIndex) add(r numericRange, b int32) {
	x.entries = append(x.entries, rangeEntry{r, b})
}

func (x *rangeIndex) finish() {
	if len(x.entries) <= scanLimit {
		return
	}
	x.points = x.points[:0]
	for _, e := range x.entries {
		x.points = append(x.points, e.r.lo, e.r.hi)
	}
	sort.Float64s(x.points)
	x.points = compactFloats(x.points)
	x.slots = 2*len(x.points) + 1
	x.tree = make([][]int32, 4*x.slots)
	for _, e := range x.entries {
		first := 2*x.pointIndex(e.r.lo) + 1 // the low end point itself
		if e.r.loOpen {
			first++
		}
		last := 2*x.pointIndex(e.r.hi) + 1
		if e.r.hiOpen {
			last--
		}
		if first <= last {
			x.insert(1, 0, x.slots-1, first, last, e.b)
		}
	}
}

func (x *rangeIndex) pointIndex(f float64) int {
	return sort.SearchFloat64s(x.points, f)
}

func (x *rangeIndex) insert(node, lo, hi, first, last int, b int32) {
	if first <= lo && hi <= last {
		x.tree[node] = append(x.tree[node], b)
		return
	}
	mid := (lo + hi) / 2
	if first <= mid {
		x.insert(2*node, lo, mid, first, last, b)
	}
	if last > mid {
		x.insert(2*node+1, mid+1, hi, first, last, b)
	}
}

// collect hands every branch whose range contains f to c.
func (x *rangeIndex) collect(f float64, c *candidates) {
	if x.tree == nil {
		for i := range x.entries {
			if x.entries[i].r.contains(f) {
				c.add(x.entries[i].b)
			}
		}
		return
	}
	i := x.pointIndex(f)
	slot := 2 * i // the gap below points[i]
	if i < len(x.points) && x.points[i] == f {
		slot++
	}
	node, lo, hi := 1, 0, x.slots-1
	for {
		c.addAll(x.tree[node])
		if lo == hi {
			return
		}
		mid := (lo + hi) / 2
		if slot <= mid {
			node, hi = 2*node, mid
		} else {
			node, lo = 2*node+1, mid+1
		}
	}
}

func compactFloats(s []float64) []float64 {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
