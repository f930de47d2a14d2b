package queue

// fifo holds available messages in the order they became available. A
// message that leaves while waiting (its time to live ran out) stays in the
// slice, marked gone, and is skipped when reached: removal stays O(1).
type fifo struct {
	items []*message
	head  int
	live  int // messages in items still available
}

func (f *fifo) push(m *message) {
	m.state = stateAvailable
	f.items = append(f.items, m)
	f.live++
}

// pop returns the oldest available message, or nil.
func (f *fifo) pop() *message {
	for f.head < len(f.items) {
		m := f.items[f.head]
		f.items[f.head] = nil
		f.head++
		if m.state == stateAvailable {
			f.live--
			f.compact()
			return m
		}
	}
	f.compact()
	return nil
}

// forget accounts for an available message that left without being popped.
func (f *fifo) forget() { f.live-- }

// compact reuses the slice once it is drained, and moves the tail down once
// the consumed head dominates, so a long-lived queue does not grow forever.
func (f *fifo) compact() {
	switch {
	case f.head == len(f.items):
		f.items, f.head = f.items[:0], 0
	case f.head > 1024 && f.head*2 > len(f.items):
		n := copy(f.items, f.items[f.head:])
		clear(f.items[n:])
		f.items, f.head = f.items[:n], 0
	}
}

// each calls fn for every message still available.
func (f *fifo) each(fn func(*message)) {
	for _, m := range f.items[f.head:] {
		if m.state == stateAvailable {
			fn(m)
		}
	}
}
