package engine

import (
	"context"
	"sync"
)

// MemorySink keeps dead letters in memory: the embedded default when no
// storage service is configured (D-SINKS). The inspection API lists them.
type MemorySink struct {
	mu      sync.Mutex
	letters []DeadLetter
}

// NewMemorySink returns an empty sink.
func NewMemorySink() *MemorySink { return &MemorySink{} }

// Write implements Sink; it never fails.
func (m *MemorySink) Write(_ context.Context, dl DeadLetter) error {
	m.mu.Lock()
	m.letters = append(m.letters, dl)
	m.mu.Unlock()
	return nil
}

// List returns every dead letter written so far, oldest first.
func (m *MemorySink) List() []DeadLetter {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]DeadLetter(nil), m.letters...)
}

// Reset forgets every dead letter.
func (m *MemorySink) Reset() {
	m.mu.Lock()
	m.letters = nil
	m.mu.Unlock()
}
