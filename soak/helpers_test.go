package soak

import (
	"fmt"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/testkit"
)

// seed fixes the jitter, so a failing run can be repeated exactly.
const seed = 20260101

// start runs an in-process emulator with the binary's defaults — jitter and
// probation on, the default settle bound — on a virtual clock. settle > 0
// shortens how long an advance waits, in real time, for a delivery that
// never answers (the hanging-webhook scenario); it changes no cloud-time
// behaviour.
func start(t *testing.T, settle time.Duration, opts ...testkit.Option) *testkit.Emulator {
	t.Helper()
	defaults := []testkit.Option{testkit.WithJitter(seed), testkit.WithProbation(), testkit.WithSettleTimeout(settle)}
	return testkit.Start(t, append(defaults, opts...)...)
}

// ended reports whether every queued event of m has ended.
func ended(m testkit.RouteMetrics) bool {
	return m.Pending+m.Retrying+m.InFlight+m.AwaitingDeadLetter == 0 && m.Delivered+m.DeadLettered+m.Dropped == m.Queued
}

// eventIDs lists the events entries (dead letters, drops) name.
func eventIDs(entries []testkit.Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.EventIDs...)
	}
	return out
}

// onceEach fails t unless got names every id of want exactly once and
// nothing else.
func onceEach(t testing.TB, what string, got, want []string) {
	t.Helper()
	seen := make(map[string]int, len(want))
	for _, id := range got {
		seen[id]++
	}
	for _, id := range want {
		if seen[id] != 1 {
			t.Fatalf("%s: event %s appears %d times, want once", what, id, seen[id])
		}
		delete(seen, id)
	}
	if len(seen) != 0 {
		t.Fatalf("%s: %d unexpected events, e.g. %v", what, len(seen), firstKey(seen))
	}
}

func firstKey(m map[string]int) string {
	for k := range m {
		return k
	}
	return ""
}

// ids returns n event ids "<prefix>-00000" …
func ids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%05d", prefix, i)
	}
	return out
}

// accounted fails the test when m's counters do not add up.
func accounted(t testing.TB, when string, m testkit.RouteMetrics) {
	t.Helper()
	if err := m.Accounted(); err != nil {
		t.Fatalf("%s: %v", when, err)
	}
}
