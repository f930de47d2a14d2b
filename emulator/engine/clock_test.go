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

// A timer due now on the real clock runs on a worker, once, unless a Stop
// reporting true came first: Stop reports true only while the function has
// not started.
func TestRealClockTimerDueNowRunsUnlessStopped(t *testing.T) {
	t.Parallel()
	c := engine.NewRealClock()
	var ranAfterStop, stops int
	for range 200 {
		ran := make(chan struct{}, 2)
		timer := c.AfterFunc(0, func() { ran <- struct{}{} })
		if timer.Stop() {
			stops++
		} else {
			<-ran // it had started, so it runs to its end
		}
		// A timer queued after it gives a stopped one that wrongly runs
		// the time to show it.
		done := make(chan struct{})
		c.AfterFunc(0, func() { close(done) })
		<-done
		if timer.Stop() {
			t.Fatal("a second Stop reported stopping the timer")
		}
		ranAfterStop += len(ran)
	}
	if ranAfterStop > 0 {
		t.Fatalf("%d timers ran after Stop stopped them (%d stops)", ranAfterStop, stops)
	}
}
