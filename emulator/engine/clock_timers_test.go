package engine

import (
	"testing"
	"time"
)

func TestVirtualClockNextTimersSoonestFirst(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewVirtualClock(start, 0)
	c.AfterFunc(time.Hour, func() {})
	stopped := c.AfterFunc(time.Second, func() {})
	c.AfterFunc(time.Minute, func() {})
	c.AfterFunc(10*time.Second, func() {})
	stopped.Stop()
	got := c.NextTimers(2)
	if len(got) != 2 || !got[0].Equal(start.Add(10*time.Second)) || !got[1].Equal(start.Add(time.Minute)) {
		t.Fatalf("NextTimers(2) = %v", got)
	}
	if all := c.NextTimers(10); len(all) != 3 || !all[2].Equal(start.Add(time.Hour)) {
		t.Fatalf("NextTimers(10) = %v", all)
	}
	c.Advance(2 * time.Hour)
	if left := c.NextTimers(10); len(left) != 0 {
		t.Fatalf("after every timer fired: %v", left)
	}
}
