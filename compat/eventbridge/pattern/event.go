package pattern

import (
	"net/netip"
	"unsafe"
)

// leafKind is the JSON type of an event value.
type leafKind uint8

const (
	leafString leafKind = iota
	leafNumber
	leafTrue
	leafFalse
	leafNull
)

// leaf is one scalar value of a flattened event: a field path and a value. Object-valued
// fields produce no leaf; array-valued fields produce one leaf per scalar element.
type leaf struct {
	path int32
	kind leafKind

	// The number's value, analysed on first use.
	numDone, numOK bool

	val   []byte // decoded string, or number text as written
	num   float64
	trail trailRef
}

// number returns the value of a number leaf and whether it is comparable (see analyzeNumber).
func (l *leaf) number() (float64, bool) {
	if !l.numDone {
		l.numDone = true
		l.num, l.numOK = analyzeNumber(bytesAsString(l.val))
	}
	return l.num, l.numOK
}

// ipAddr returns the IP address a string leaf spells, if it spells one. Only fields that
// patterns compare with IP addresses ask, so it is not cached.
func (l *leaf) ipAddr() (netip.Addr, bool) {
	a, outcome := parseIP(bytesAsString(l.val))
	return a, outcome == validIP
}

// arrayPos says that a value sits in element index of array array. Arrays are numbered in
// document order within one event.
type arrayPos struct {
	array, index int32
}

// trailRef locates, in flatEvent.trails, the positions of every array of objects (or of
// arrays) that encloses a leaf, outermost first. Elements of an array of scalars carry no
// position of their own: two conditions may match two elements of the same list of strings.
type trailRef struct {
	start, n int32
}

// flatEvent is an event flattened into leaves, with per-path lists for lookups. One is reused
// from match to match.
type flatEvent struct {
	leaves    []leaf
	trails    []arrayPos
	hasTrails bool

	// Leaves of a path, newest first: pathHead[path] starts a chain through nextLeaf. A head is
	// valid only when pathStamp[path] equals stamp, so nothing needs clearing between events.
	pathHead  []int32
	pathStamp []uint32
	nextLeaf  []int32
	stamp     uint32

	strBuf []byte // decoded strings that had escapes
	keyBuf []byte // a field name that had escapes
	scope  []trailRef
	lower  []byte // ASCII-lower-cased copy of one value, for case-insensitive lookups
}

func newFlatEvent(paths int) *flatEvent {
	return &flatEvent{pathHead: make([]int32, paths), pathStamp: make([]uint32, paths)}
}

func (ev *flatEvent) reset() {
	ev.leaves = ev.leaves[:0]
	ev.trails = ev.trails[:0]
	ev.hasTrails = false
	ev.nextLeaf = ev.nextLeaf[:0]
	ev.strBuf = ev.strBuf[:0]
	ev.keyBuf = ev.keyBuf[:0]
	ev.scope = ev.scope[:0]
	ev.stamp++
	if ev.stamp == 0 { // wrapped: old stamps could look current again
		clear(ev.pathStamp)
		ev.stamp = 1
	}
}

// release drops the references into the last event, so that a pooled flatEvent does not keep
// the caller's buffer alive.
func (ev *flatEvent) release() {
	clear(ev.leaves)
	ev.leaves = ev.leaves[:0]
}

func (ev *flatEvent) addLeaf(path int32, kind leafKind, val []byte) {
	var trail trailRef
	if n := len(ev.scope); n > 0 {
		trail = ev.scope[n-1]
	}
	i := int32(len(ev.leaves))
	ev.leaves = append(ev.leaves, leaf{path: path, kind: kind, val: val, trail: trail})
	head := int32(-1)
	if ev.pathStamp[path] == ev.stamp {
		head = ev.pathHead[path]
	}
	ev.nextLeaf = append(ev.nextLeaf, head)
	ev.pathHead[path] = i
	ev.pathStamp[path] = ev.stamp
}

// first returns the first leaf of a path, or -1.
func (ev *flatEvent) first(path int32) int32 {
	if ev.pathStamp[path] != ev.stamp {
		return -1
	}
	return ev.pathHead[path]
}

// enterElement records that the values that follow sit in element index of array.
func (ev *flatEvent) enterElement(array, index int32) {
	var outer trailRef
	if n := len(ev.scope); n > 0 {
		outer = ev.scope[n-1]
	}
	start := int32(len(ev.trails))
	ev.trails = append(ev.trails, ev.trails[outer.start:outer.start+outer.n]...)
	ev.trails = append(ev.trails, arrayPos{array: array, index: index})
	ev.scope = append(ev.scope, trailRef{start: start, n: outer.n + 1})
	ev.hasTrails = true
}

func (ev *flatEvent) leaveElement() { ev.scope = ev.scope[:len(ev.scope)-1] }

// consistent reports whether two leaves can belong to one match: wherever both sit in the same
// array, they sit in the same element of it.
func (ev *flatEvent) consistent(a, b int32) bool {
	ta, tb := ev.leaves[a].trail, ev.leaves[b].trail
	n := min(ta.n, tb.n)
	for i := int32(0); i < n; i++ {
		pa, pb := ev.trails[ta.start+i], ev.trails[tb.start+i]
		if pa.array != pb.array {
			return true // the two paths part before reaching a common array
		}
		if pa.index != pb.index {
			return false
		}
	}
	return true
}

// bytesAsString views b as a string without copying, for calls that do not keep the string.
func bytesAsString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
