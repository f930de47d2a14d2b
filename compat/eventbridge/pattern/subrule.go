package pattern

// subRule is one branch of a compiled pattern: every field must match (AND). A pattern without
// "$or" has one; each "$or" multiplies the branches, and the pattern matches when any does.
type subRule struct {
	fields []fieldCond // sorted by path
}

// fieldCond is one field of a branch with its value list (OR).
type fieldCond struct {
	path     string
	pathID   int32
	matchers []valueMatcher
	// absent is set when the list holds {"exists": false}: the field may also be missing.
	absent bool
}

func (f *fieldCond) matchesLeaf(l *leaf) bool {
	for _, m := range f.matchers {
		if m.matchLeaf(l) {
			return true
		}
	}
	return false
}

// matches reports whether the branch matches the flattened event.
func (r *subRule) matches(ev *flatEvent) bool {
	if ev.hasTrails {
		var chosen [16]int32
		return r.matchConsistent(ev, 0, chosen[:0])
	}
	// No arrays of objects in the event: fields are independent.
	for i := range r.fields {
		f := &r.fields[i]
		li := ev.first(f.pathID)
		if li < 0 {
			if f.absent {
				continue
			}
			return false
		}
		found := false
		for ; li >= 0; li = ev.nextLeaf[li] {
			if f.matchesLeaf(&ev.leaves[li]) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// matchConsistent chooses a value for each field in path order such that all chosen values
// sit in the same element of every array of objects they share; chosen holds the values picked
// for the fields before field i. Like AWS, a field that must be missing is checked against the
// values consistent with the fields before it: for {"d":{"a":[1],"b":[{"exists":false}]}} the
// event {"d":[{"a":1},{"b":2}]} matches, because the element holding a=1 has no b.
func (r *subRule) matchConsistent(ev *flatEvent, i int, chosen []int32) bool {
	if i == len(r.fields) {
		return true
	}
	f := &r.fields[i]
	present := false
	for li := ev.first(f.pathID); li >= 0; li = ev.nextLeaf[li] {
		if !consistentWithAll(ev, li, chosen) {
			continue
		}
		present = true
		if f.matchesLeaf(&ev.leaves[li]) && r.matchConsistent(ev, i+1, append(chosen, li)) {
			return true
		}
	}
	return f.absent && !present && r.matchConsistent(ev, i+1, chosen)
}

func consistentWithAll(ev *flatEvent, li int32, chosen []int32) bool {
	for _, c := range chosen {
		if !ev.consistent(li, c) {
			return false
		}
	}
	return true
}
