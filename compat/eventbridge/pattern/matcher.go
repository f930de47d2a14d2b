package pattern

import (
	"sync"
	"sync/atomic"
)

// Matcher holds many patterns under opaque ids (rule ARNs, say) and finds the ones that match
// an event. It is safe for concurrent use: Match runs without locks against an immutable index,
// which the first Match after an Add or Remove rebuilds. Rules change rarely and events flow
// often, so a rebuild per change costs little, and a Match never waits for another.
type Matcher struct {
	mu       sync.Mutex // serialises changes and rebuilds
	patterns map[string]*Pattern
	index    atomic.Pointer[snapshot] // nil when patterns changed since the last build
}

// NewMatcher returns an empty Matcher.
func NewMatcher() *Matcher {
	return &Matcher{patterns: map[string]*Pattern{}}
}

// Add stores p under id, replacing any pattern stored under the same id.
func (m *Matcher) Add(id string, p *Pattern) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.patterns[id] = p
	m.index.Store(nil)
}

// Remove deletes the pattern stored under id, if any.
func (m *Matcher) Remove(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.patterns[id]; ok {
		delete(m.patterns, id)
		m.index.Store(nil)
	}
}

// Len returns the number of patterns held.
func (m *Matcher) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.patterns)
}

// Match returns the ids of the patterns that match event, a JSON object, in no particular order
// and without duplicates. The error is non-nil only when event is not valid JSON or not an object.
func (m *Matcher) Match(event []byte) ([]string, error) {
	s := m.index.Load()
	if s == nil {
		s = m.rebuild()
	}
	return s.match(event)
}

func (m *Matcher) rebuild() *snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.index.Load(); s != nil {
		return s // another Match rebuilt it while this one waited
	}
	s := buildSnapshot(m.patterns)
	m.index.Store(s)
	return s
}
