package pattern

import (
	"sort"
	"sync"
)

// snapshot is an immutable index over a fixed set of patterns. A Matcher builds one when its
// patterns change and matches events against it without locking.
type snapshot struct {
	paths      *pathTable
	branches   []*subRule    // every branch of every pattern, numbered in paths
	owner      []int32       // branch -> pattern
	ids        []string      // pattern -> id
	byPath     []*fieldIndex // path -> index of the branches anchored there (may be nil)
	unanchored []int32       // branches verified on every event
	work       sync.Pool     // of *matchWork
}

// matchWork is the reusable memory of one Match call.
type matchWork struct {
	ev         *flatEvent
	cand       candidates
	matched    []uint32 // pattern -> stamp of the last event it matched
	lower      []byte
	matchStamp uint32
}

// buildSnapshot numbers the paths and branches of all patterns, anchors each branch on one
// field and indexes it there.
func buildSnapshot(patterns map[string]*Pattern) *snapshot {
	s := &snapshot{paths: newPathTable()}
	ids := make([]string, 0, len(patterns))
	for id := range patterns {
		ids = append(ids, id)
	}
	sort.Strings(ids) // deterministic branch numbering
	for _, id := range ids {
		owner := int32(len(s.ids))
		s.ids = append(s.ids, id)
		for _, b := range patterns[id].branches {
			nb := &subRule{fields: make([]fieldCond, len(b.fields))}
			for i, f := range b.fields {
				f.pathID = s.paths.add(f.path)
				nb.fields[i] = f
			}
			s.branches = append(s.branches, nb)
			s.owner = append(s.owner, owner)
		}
	}

	s.byPath = make([]*fieldIndex, s.paths.len())
	stats := gatherAnchorStats(s.branches)
	for bi, b := range s.branches {
		a := stats.chooseAnchor(b)
		if a < 0 {
			s.unanchored = append(s.unanchored, int32(bi))
			continue
		}
		f := &b.fields[a]
		x := s.byPath[f.pathID]
		if x == nil {
			x = newFieldIndex()
			s.byPath[f.pathID] = x
		}
		for _, m := range f.matchers {
			x.add(m, int32(bi))
		}
	}
	for _, x := range s.byPath {
		if x != nil {
			x.finish()
		}
	}

	paths, branches, owners := s.paths.len(), len(s.branches), len(s.ids)
	s.work.New = func() any {
		return &matchWork{
			ev:      newFlatEvent(paths),
			cand:    candidates{seen: make([]uint32, branches)},
			matched: make([]uint32, owners),
		}
	}
	return s
}

// match returns the ids of the patterns that match event.
func (s *snapshot) match(event []byte) ([]string, error) {
	w := s.work.Get().(*matchWork)
	defer func() {
		w.ev.release()
		s.work.Put(w)
	}()
	if err := flatten(event, s.paths, w.ev); err != nil {
		return nil, err
	}
	w.cand.reset()
	if w.matchStamp++; w.matchStamp == 0 {
		clear(w.matched)
		w.matchStamp = 1
	}
	ev := w.ev
	for i := range ev.leaves {
		l := &ev.leaves[i]
		if x := s.byPath[l.path]; x != nil {
			x.collect(l, &w.cand, &w.lower)
		}
	}
	var out []string
	for _, list := range [2][]int32{w.cand.list, s.unanchored} {
		for _, b := range list {
			owner := s.owner[b]
			if w.matched[owner] == w.matchStamp {
				continue // another branch of this pattern already matched
			}
			if s.branches[b].matches(ev) {
				w.matched[owner] = w.matchStamp
				out = append(out, s.ids[owner])
			}
		}
	}
	return out, nil
}

// candidates collects branch numbers without duplicates.
type candidates struct {
	seen  []uint32 // branch -> stamp of the event that last added it
	stamp uint32
	list  []int32
}

func (c *candidates) reset() {
	c.list = c.list[:0]
	if c.stamp++; c.stamp == 0 {
		clear(c.seen)
		c.stamp = 1
	}
}

func (c *candidates) add(b int32) {
	if c.seen[b] != c.stamp {
		c.seen[b] = c.stamp
		c.list = append(c.list, b)
	}
}

func (c *candidates) addAll(bs []int32) {
	for _, b := range bs {
		c.add(b)
	}
}
