package main

import (
	"testing"
	"time"
)

// After a virtual-clock advance the binary gives freed memory back
// only when the advance left enough behind to be worth a full collection,
// and never at more than a twentieth of the time the advances take.
func TestMemoryReleaseOnlyWhenWorthIt(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	var m memoryRelease
	if !m.due(time.Second, 16*mib, 34*mib) {
		t.Fatal("the first advance that grew the heap did not release")
	}
	m.released(10*time.Millisecond, 20*mib)
	for _, c := range []struct {
		name       string
		took       time.Duration
		live, kept uint64
		want       bool
	}{
		{"idle step", time.Microsecond, 16 * mib, 20 * mib, false},
		{"little garbage after a long advance", time.Second, 16 * mib, 20*mib + mib/2, false},
		{"long advance", time.Second, 16 * mib, 26 * mib, true},
		{"quick advance, little growth", 50 * time.Millisecond, 16 * mib, 23 * mib, false},
		{"quick advance, a quarter of the live heap", 50 * time.Millisecond, 16 * mib, 24 * mib, true},
		{"quick advance, 4 MiB floor on a small heap", 50 * time.Millisecond, 4 * mib, 23 * mib, false},
	} {
		if got := m.due(c.took, c.live, c.kept); got != c.want {
			t.Errorf("%s: due = %v, want %v", c.name, got, c.want)
		}
	}
	// A heap that shrank by itself is the new base.
	if m.due(time.Second, 8*mib, 12*mib) || !m.due(time.Second, 8*mib, 14*mib) {
		t.Error("growth is not measured from the least heap kept since the release")
	}
}
