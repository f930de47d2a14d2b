package main

import (
	"log/slog"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// memoryRelease gives freed memory back to the system after an advance of
// the virtual clock (--no-memory-release turns it off).
//
// An advance is when a virtual-clock emulator does its work: every retry
// that came due is attempted, and each attempt leaves garbage behind. The Go
// runtime keeps the heap it grew to for the next burst and returns pages to
// the system only slowly, so between advances — which is when a test looks —
// the process stays at the peak of the last one: about 2.6 times its live
// data, 3.3 KiB per event waiting on a failing webhook where the events
// themselves take 1.4 KiB. Releasing after the advance brings it
// back to what it holds (under 2 KiB per event).
//
// A release is a full collection, whose cost grows with the live heap (10
// to 20 ms at 10,000 waiting events). It is made when the heap the process
// keeps has grown by at least 1 MiB since the last release and either the
// advance took twenty times as long as the last release did, or the heap
// grew by a quarter of its live data (and 4 MiB). So a test stepping an idle
// emulator's clock a second at a time pays nothing; releases cost at most a
// twentieth of the advances they follow, or follow a quarter of the live
// heap in new allocation, which makes at most four for each collection the
// runtime makes anyway (GOGC=100).
type memoryRelease struct {
	log     *slog.Logger
	mu      sync.Mutex
	samples []metrics.Sample
	// base is the heap kept just after the last release (or the least
	// since): what a release could not give back.
	base uint64
	cost time.Duration // of the last release
}

// When a release is worth its cost (see memoryRelease).
const (
	releaseFloor = 1 << 20 // growth below which nothing is released
	releaseTime  = 20      // advance time per release time
	releaseMin   = 4 << 20 // growth worth a release after a quick advance
	releaseShare = 4       // … or a quarter of the live heap, if more
)

// afterAdvance releases freed memory after an advance, if enough is kept.
func (m *memoryRelease) afterAdvance(took time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.samples == nil {
		m.samples = []metrics.Sample{
			{Name: "/gc/heap/live:bytes"},
			{Name: "/memory/classes/heap/objects:bytes"},
			{Name: "/memory/classes/heap/unused:bytes"},
			{Name: "/memory/classes/heap/free:bytes"},
		}
	}
	live, kept := m.read()
	if !m.due(took, live, kept) {
		return
	}
	started := time.Now()
	debug.FreeOSMemory()
	cost := time.Since(started)
	_, now := m.read()
	m.released(cost, now)
	m.log.Debug("gave freed memory back to the system after a clock advance",
		"advance", took, "live", live, "kept", kept, "keptNow", now, "release", cost)
}

// due says whether an advance that took took, leaving live bytes of live
// data (as of the last collection) in a kept heap, is worth a release.
func (m *memoryRelease) due(took time.Duration, live, kept uint64) bool {
	m.base = min(m.base, kept)
	grown := kept - m.base
	return grown >= releaseFloor &&
		(took >= releaseTime*m.cost || grown >= max(releaseMin, live/releaseShare))
}

// released notes a release that cost cost and left kept bytes of heap.
func (m *memoryRelease) released(cost time.Duration, kept uint64) {
	m.cost, m.base = cost, kept
}

// read reports the live heap as of the last collection and the heap the
// process keeps: its objects, live or not yet collected, the unused space
// of its spans, and the free pages not yet returned to the system.
func (m *memoryRelease) read() (live, kept uint64) {
	metrics.Read(m.samples)
	var v [4]uint64
	for i, s := range m.samples {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	return v[0], v[1] + v[2] + v[3]
}
