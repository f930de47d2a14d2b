package scheduler

import (
	"slices"
	"sort"
)

// nameIndex keeps a group's schedule names in order for ListSchedules, so a
// page costs a binary search and the page itself, not a sort of the whole
// group under the service lock. Names added since the last listing wait
// unsorted and are merged in, once, by the next listing; names deleted
// since are dropped by the same pass. A group of 100,000 schedules that is
// listed page by page, unchanged, is sorted once.
type nameIndex struct {
	sorted []string // ascending; may still hold names deleted since
	added  []string // added since sorted was last brought up to date
	stale  bool     // a name was deleted since
}

func (x *nameIndex) add(name string) { x.added = append(x.added, name) }

func (x *nameIndex) remove() { x.stale = true }

// names returns the group's names in order; live says whether a name is
// still a schedule of the group. The slice is the index's own: read it
// under the service lock, do not keep it.
func (x *nameIndex) names(live func(string) bool) []string {
	if len(x.added) == 0 && !x.stale {
		return x.sorted
	}
	sort.Strings(x.added)
	merged := make([]string, 0, len(x.sorted)+len(x.added))
	i, j := 0, 0
	for i < len(x.sorted) || j < len(x.added) {
		var n string
		if j == len(x.added) || (i < len(x.sorted) && x.sorted[i] <= x.added[j]) {
			n, i = x.sorted[i], i+1
		} else {
			n, j = x.added[j], j+1
		}
		// A name deleted and made again is in both lists: keep it once.
		if live(n) && (len(merged) == 0 || merged[len(merged)-1] != n) {
			merged = append(merged, n)
		}
	}
	x.sorted, x.added, x.stale = slices.Clip(merged), nil, false
	return x.sorted
}
