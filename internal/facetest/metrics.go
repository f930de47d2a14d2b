package facetest

import (
	"testing"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Accounted fails t unless m's books balance: every queued event is in
// exactly one place (delivered, dead-lettered, dropped, or still pending,
// retrying, in flight or awaiting its dead-letter write). when names the
// moment in the failure.
func Accounted(t testing.TB, when string, m engine.RouteMetrics) {
	t.Helper()
	sum := m.Delivered + m.DeadLettered + m.Dropped + uint64(m.Pending) + uint64(m.Retrying) + uint64(m.InFlight) + uint64(m.AwaitingDeadLetter)
	if m.Queued != sum {
		t.Fatalf("%s: queued %d ≠ delivered %d + deadLettered %d + dropped %d + pending %d + retrying %d + inFlight %d + awaitingDeadLetter %d",
			when, m.Queued, m.Delivered, m.DeadLettered, m.Dropped, m.Pending, m.Retrying, m.InFlight, m.AwaitingDeadLetter)
	}
}
