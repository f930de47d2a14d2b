package main

import (
	"log/slog"
	"runtime/debug"
	"sync"
	"time"
)

// memoryRelease gives freed memory back to the system after an advance of
// the virtual clock (--no-memory-release turns it off).
//
// An advance is when a virtual-clock emulator does its work: every retry
// that came due is attempted, and each attempt leaves garbage behind. The Go
// runtime keeps the pages it collected for the next burst and returns them
// to the system only slowly, so between advances — which is when a test
// looks — the process stays at the peak of the last one: about 2.6 times its
// live data, 3.3 KiB per event waiting on a failing webhook where the events
// themselves take 1.4 KiB (issue 10). Releasing after the advance brings it
// back to what it holds (1.9 KiB per event).
//
// The release is a full collection and costs time in proportion to the live
// heap (about 10 ms at 10,000 waiting events). So that it never costs more
// than a twentieth of the work it follows, an advance that took less than
// twenty times the last release's cost releases nothing: a test stepping
// the clock a second at a time over an idle emulator does not pay a
// collection per step.
type memoryRelease struct {
	log  *slog.Logger
	mu   sync.Mutex
	cost time.Duration // of the last release
}

// releaseShare bounds the release's cost against the advance it follows.
const releaseShare = 20

// afterAdvance releases freed memory after an advance that took took.
func (m *memoryRelease) afterAdvance(took time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if took < releaseShare*m.cost {
		return
	}
	started := time.Now()
	debug.FreeOSMemory()
	m.cost = time.Since(started)
	m.log.Debug("gave freed memory back to the system after a clock advance", "advance", took, "release", m.cost)
}
