package queue

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

var start = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

type harness struct {
	clock *engine.VirtualClock
	q     *Queue
	mu    sync.Mutex
	ended []Ending
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	h := &harness{clock: engine.NewVirtualClock(start, time.Second)}
	h.q = New(h.clock, cfg, Hooks{Ended: func(e []Ending) {
		h.mu.Lock()
		h.ended = append(h.ended, e...)
		h.mu.Unlock()
	}})
	t.Cleanup(func() { h.q.Close() })
	return h
}

func (h *harness) endings() []Ending {
	h.clock.Settle()
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Ending(nil), h.ended...)
}

func events(n int) []*cloudevent.Event {
	out := make([]*cloudevent.Event, n)
	for i := range out {
		out[i] = &cloudevent.Event{ID: fmt.Sprintf("e%d", i+1)}
	}
	return out
}

func defaultConfig() Config {
	return Config{LockDuration: time.Minute, MaxDeliveryCount: 3, TimeToLive: 24 * time.Hour}
}

// newLockedEvent is a harness whose queue holds one event, received once
// and locked; tok is its lock token.
func newLockedEvent(t *testing.T, cfg Config) (h *harness, tok string) {
	t.Helper()
	h = newHarness(t, cfg)
	h.q.Add(start, events(1))
	return h, h.receiveNow(t, 1)[0].Token
}

// receiveNow receives what is available, waiting no longer than a nanosecond.
func (h *harness) receiveNow(t *testing.T, max int) []Delivery {
	t.Helper()
	return h.q.Receive(context.Background(), max, time.Nanosecond)
}

func TestReceiveLocksUpToMaxInOrderWithFreshTokens(t *testing.T) {
	t.Parallel()
	h := newHarness(t, defaultConfig())
	h.q.Add(start, events(3))
	got := h.receiveNow(t, 2)
	if len(got) != 2 || got[0].Event.ID != "e1" || got[1].Event.ID != "e2" {
		t.Fatalf("received %+v", got)
	}
	if got[0].Token == got[1].Token || got[0].DeliveryCount != 1 {
		t.Fatalf("tokens %q %q, count %d", got[0].Token, got[1].Token, got[0].DeliveryCount)
	}
	if rest := h.receiveNow(t, 10); len(rest) != 1 || rest[0].Event.ID != "e3" {
		t.Fatalf("second receive %+v", rest)
	}
}

func TestAcknowledgeSettlesOnceAndReportsLostAndBadTokens(t *testing.T) {
	t.Parallel()
	h, tok := newLockedEvent(t, defaultConfig())
	res := h.q.Acknowledge([]string{tok, "bad"})
	if res[0].Err != nil || res[0].Event.ID != "e1" {
		t.Fatalf("first ack %+v", res[0])
	}
	if res[1].Err == nil || res[1].Err.Code != CodeBadToken {
		t.Fatalf("garbage token %+v", res[1])
	}
	again := h.q.Acknowledge([]string{tok})
	if again[0].Err == nil || again[0].Err.Code != CodeTokenLost || again[0].Err.Message != MessageTokenLost {
		t.Fatalf("second ack %+v", again[0])
	}
	if h.q.Len() != 0 {
		t.Fatalf("queue holds %d events after ack", h.q.Len())
	}
}

func TestReleaseRedeliversWithHigherCountAndKillsTheOldToken(t *testing.T) {
	t.Parallel()
	h, first := newLockedEvent(t, defaultConfig())
	if r := h.q.Release([]string{first}, 0); r[0].Err != nil {
		t.Fatal(r[0].Err)
	}
	second := h.receiveNow(t, 1)
	if len(second) != 1 || second[0].DeliveryCount != 2 || second[0].Token == first {
		t.Fatalf("redelivery %+v", second)
	}
	if r := h.q.Acknowledge([]string{first}); r[0].Err == nil || r[0].Err.Code != CodeTokenLost {
		t.Fatalf("old token %+v", r[0])
	}
}

func TestReleaseWithDelayWaitsForTheClock(t *testing.T) {
	t.Parallel()
	h, tok := newLockedEvent(t, defaultConfig())
	h.q.Release([]string{tok}, 10*time.Second)
	h.clock.Advance(9 * time.Second)
	if got := h.receiveNow(t, 1); len(got) != 0 {
		t.Fatalf("available before the delay: %+v", got)
	}
	h.clock.Advance(time.Second)
	if got := h.receiveNow(t, 1); len(got) != 1 || got[0].DeliveryCount != 2 {
		t.Fatalf("after the delay: %+v", got)
	}
}

func TestLockExpiryRedeliversThenEndsAtMaxDeliveryCount(t *testing.T) {
	t.Parallel()
	h := newHarness(t, defaultConfig()) // max 3
	h.q.Add(start, events(1))
	for n := 1; n <= 3; n++ {
		got := h.receiveNow(t, 1)
		if len(got) != 1 || got[0].DeliveryCount != n {
			t.Fatalf("delivery %d: %+v", n, got)
		}
		h.clock.Advance(59 * time.Second)
		if r := h.q.RenewLocks(nil); len(r) != 0 {
			t.Fatal("renew of nothing returned results")
		}
		if len(h.receiveNow(t, 1)) != 0 {
			t.Fatalf("delivery %d: available while locked", n)
		}
		h.clock.Advance(time.Second)
	}
	ended := h.endings()
	if len(ended) != 1 || ended[0].Cause != LockExpiredOnLastDelivery || ended[0].DeliveryCount != 3 {
		t.Fatalf("endings %+v", ended)
	}
	if !ended[0].At.Equal(start.Add(3 * time.Minute)) {
		t.Fatalf("ended at %v", ended[0].At)
	}
	if len(h.receiveNow(t, 1)) != 0 || h.q.Len() != 0 {
		t.Fatal("event still held after its last delivery")
	}
}

func TestReleasingTheLastDeliveryEndsTheEvent(t *testing.T) {
	t.Parallel()
	cfg := defaultConfig()
	cfg.MaxDeliveryCount = 1
	h, tok := newLockedEvent(t, cfg)
	h.q.Release([]string{tok}, 0)
	if ended := h.endings(); len(ended) != 1 || ended[0].Cause != ReleasedOnLastDelivery {
		t.Fatalf("endings %+v", ended)
	}
}

func TestRejectEndsTheEvent(t *testing.T) {
	t.Parallel()
	h, tok := newLockedEvent(t, defaultConfig())
	if r := h.q.Reject([]string{tok}); r[0].Err != nil {
		t.Fatal(r[0].Err)
	}
	ended := h.endings()
	if len(ended) != 1 || ended[0].Cause != Rejected || ended[0].DeliveryCount != 1 || !ended[0].LastDeliveryAt.Equal(start) {
		t.Fatalf("endings %+v", ended)
	}
}

func TestTimeToLiveEndsEventsInEveryState(t *testing.T) {
	t.Parallel()
	cfg := defaultConfig()
	cfg.TimeToLive = 10 * time.Minute
	cfg.LockDuration = 5 * time.Minute
	h := newHarness(t, cfg)
	h.q.Add(start, events(3))
	got := h.receiveNow(t, 2)
	h.q.Release([]string{got[1].Token}, time.Hour) // delayed past the TTL
	h.clock.Advance(10 * time.Minute)
	ended := h.endings()
	if len(ended) != 3 {
		t.Fatalf("endings %+v", ended)
	}
	for _, e := range ended {
		if e.Cause != Expired || !e.At.Equal(start.Add(10*time.Minute)) {
			t.Fatalf("ending %+v", e)
		}
	}
	if h.q.Len() != 0 {
		t.Fatalf("held %d", h.q.Len())
	}
}

func TestRenewExtendsTheLockWithinTheHour(t *testing.T) {
	t.Parallel()
	h, tok := newLockedEvent(t, defaultConfig())
	for i := 0; i < 71; i++ { // renew every 50 s up to 59m10s after the receive
		h.clock.Advance(50 * time.Second)
		if r := h.q.RenewLocks([]string{tok}); r[0].Err != nil {
			t.Fatalf("renew %d: %+v", i, r[0].Err)
		}
	}
	h.clock.Advance(50 * time.Second) // exactly an hour after the receive
	if r := h.q.RenewLocks([]string{tok}); r[0].Err == nil || r[0].Err.Message != MessageRenewWindow {
		t.Fatalf("renew after an hour: %+v", r[0])
	}
	if r := h.q.Acknowledge([]string{tok}); r[0].Err != nil {
		t.Fatalf("ack within the renewed lock: %+v", r[0].Err)
	}
}

func TestReceiveWaitsForEventsAndTimesOut(t *testing.T) {
	t.Parallel()
	h := newHarness(t, defaultConfig())
	begin := time.Now()
	if got := h.q.Receive(context.Background(), 1, 30*time.Millisecond); got != nil {
		t.Fatalf("empty queue returned %+v", got)
	}
	if time.Since(begin) < 30*time.Millisecond {
		t.Fatal("returned before the wait ran out")
	}
	done := make(chan []Delivery)
	go func() { done <- h.q.Receive(context.Background(), 5, time.Minute) }()
	h.q.Add(start, events(1))
	select {
	case got := <-done:
		if len(got) != 1 {
			t.Fatalf("got %+v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("receive did not return when an event arrived")
	}
}

func TestCloseWakesReceiversAndReturnsHeldEvents(t *testing.T) {
	t.Parallel()
	h := newHarness(t, defaultConfig())
	done := make(chan []Delivery)
	go func() { done <- h.q.Receive(context.Background(), 1, time.Minute) }()
	h.q.Add(start, nil)
	evs := h.q.Close()
	if len(evs) != 0 {
		t.Fatalf("held %d", len(evs))
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("receive not woken by Close")
	}
	if h.q.Add(start, events(1)) {
		t.Fatal("Add on a closed queue succeeded")
	}
}

func TestCloseReportsEventsInEveryState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, defaultConfig())
	h.q.Add(start, events(3))
	got := h.receiveNow(t, 2)
	h.q.Release([]string{got[1].Token}, time.Minute)
	if held := h.q.Close(); len(held) != 3 {
		t.Fatalf("held %d, want 3", len(held))
	}
	if h.clock.Pending() != 0 {
		t.Fatalf("%d timers still pending after Close", h.clock.Pending())
	}
}

func TestReceiverWhoseClientLeftTakesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, defaultConfig())
	h.q.Add(start, events(1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := h.q.Receive(ctx, 1, time.Minute); got != nil {
		t.Fatalf("cancelled receive took %+v", got)
	}
	if h.q.Available() != 1 {
		t.Fatal("the event is no longer available")
	}
}
