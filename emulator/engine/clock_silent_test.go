package engine

import (
	"testing"
	"time"
)

// An endpoint that has let one attempt pass the answer bound is not waited
// for again within the advance: a later attempt to it, even with an answer
// bound of an hour, does not hold the advance. Another endpoint is still
// awaited, and an answer makes its endpoint awaited again.
func TestVirtualClockStopsAwaitingASilentEndpoint(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewVirtualClock(start, time.Hour)
	c.answer = 20 * time.Millisecond
	hang := make(chan struct{})
	defer close(hang)
	outside := func(endpoint string) {
		c.goTask(endpoint, func(id uint64) {
			c.setOutside(id, true, time.Time{})
			<-hang
		})
	}
	c.AfterFunc(time.Second, func() { outside("hook") })
	c.AfterFunc(2*time.Second, func() {
		// From here an unanswered attempt would hold the advance for an hour.
		c.mu.Lock()
		c.answer = time.Hour
		c.mu.Unlock()
		outside("hook")
	})
	done := make(chan time.Time)
	go func() { done <- c.Advance(time.Minute) }()
	select {
	case now := <-done:
		if !now.Equal(start.Add(time.Minute)) {
			t.Fatalf("advance ended at %s", now)
		}
	case <-time.After(time.Minute):
		t.Fatal("the advance waited for an endpoint that had already left an attempt unanswered")
	}
	c.mu.Lock()
	silent := c.silent["hook"]
	c.mu.Unlock()
	if !silent {
		t.Fatal("the hanging endpoint is not marked silent")
	}

	// An answer on the endpoint makes it awaited again.
	answered := make(chan uint64, 1)
	c.goTask("hook", func(id uint64) { answered <- id; <-hang })
	c.answered(<-answered)
	c.mu.Lock()
	silent = c.silent["hook"]
	c.mu.Unlock()
	if silent {
		t.Fatal("an answered endpoint is still silent")
	}
}

// A silent endpoint's attempt is still waited for, the probe bound, before
// time reaches its own response timeout: an endpoint that answers again
// mid-advance is not timed out for the clock's haste.
func TestVirtualClockProbesASilentEndpointBeforeItsTimeout(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewVirtualClock(start, time.Hour)
	c.mu.Lock()
	c.silent["hook"] = true
	c.probe = time.Hour // a test of order, not of the bound's length
	c.mu.Unlock()
	deadline := start.Add(5 * time.Second)
	var answered, sawAnswer bool
	c.AfterFunc(time.Second, func() {
		c.goTask("hook", func(id uint64) {
			c.setOutside(id, true, deadline)
			time.Sleep(20 * time.Millisecond) // the endpoint's latency
			c.mu.Lock()
			answered = true
			c.mu.Unlock()
			c.answered(id)
			c.setOutside(id, false, deadline)
		})
	})
	// The attempt's response timeout.
	c.AfterFunc(5*time.Second, func() {
		c.mu.Lock()
		sawAnswer = answered
		c.mu.Unlock()
	})
	c.Advance(time.Minute)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !sawAnswer {
		t.Fatal("the response timeout fired before the silent endpoint's answer was waited for")
	}
}

// A new advance awaits every endpoint afresh.
func TestVirtualClockAdvanceForgetsSilentEndpoints(t *testing.T) {
	t.Parallel()
	c := NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 0)
	c.mu.Lock()
	c.silent["hook"] = true
	c.mu.Unlock()
	c.Advance(time.Second)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.silent["hook"] {
		t.Fatal("an endpoint stays silent into the next advance")
	}
}
