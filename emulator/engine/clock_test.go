package engine_test

import (
	"sync"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestVirtualClockFiresInTimeOrder(t *testing.T) {
	t.Parallel()
	c := engine.NewVirtualClock(t0, 0)
	var mu sync.Mutex
	var fired []time.Duration
	record := func() {
		mu.Lock()
		fired = append(fired, c.Now().Sub(t0))
		mu.Unlock()
	}
	c.AfterFunc(30*time.Second, record)
	c.AfterFunc(10*time.Second, func() {
		record()
		// Work a timer schedules inside the advance window fires in the same advance.
		c.AfterFunc(5*time.Second, record)
	})
	stopped := c.AfterFunc(20*time.Second, record)
	if !stopped.Stop() {
		t.Fatal("Stop of a pending timer returned false")
	}
	now := c.Advance(time.Minute)
	if !now.Equal(t0.Add(time.Minute)) {
		t.Fatalf("Advance returned %v", now)
	}
	want := []time.Duration{10 * time.Second, 15 * time.Second, 30 * time.Second}
	if len(fired) != len(want) {
		t.Fatalf("fired %v, want %v", fired, want)
	}
	for i := range want {
		if fired[i] != want[i] {
			t.Fatalf("fired %v, want %v", fired, want)
		}
	}
	if c.Pending() != 0 {
		t.Fatalf("pending = %d", c.Pending())
	}
}

func TestScaledClockRunsFaster(t *testing.T) {
	t.Parallel()
	c, err := engine.NewScaledClock(36000)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	start := time.Now()
	c.AfterFunc(time.Hour, func() { close(done) }) // 100 ms of real time
	<-done
	if real := time.Since(start); real > 5*time.Second {
		t.Fatalf("an hour of cloud time took %v of real time", real)
	}
	if c.Mode() != engine.ModeScaled {
		t.Fatalf("mode = %q", c.Mode())
	}
	if _, err := engine.NewScaledClock(0); err == nil {
		t.Fatal("scale 0 accepted")
	}
}
