package engine_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestResponseTimeoutOnVirtualClock(t *testing.T) {
	t.Parallel()
	clock := engine.NewVirtualClock(t0, 20*time.Millisecond)
	e := engine.New(clock, engine.NewJournal(0))
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{10 * time.Second, 2}, ResponseTimeout: 30 * time.Second,
		Destination: engine.DestinationFunc(func(ctx context.Context, a *engine.Attempt) engine.Outcome {
			if calls.Add(1) == 1 {
				<-ctx.Done() // never answers
				if errors.Is(context.Cause(ctx), engine.ErrResponseTimeout) {
					return engine.Outcome{Name: "TimedOut"}
				}
				return engine.Outcome{Name: "Canceled"}
			}
			return engine.Outcome{OK: true}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	clock.Advance(time.Minute)
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	if len(attempts) != 2 {
		t.Fatalf("attempts = %+v", attempts)
	}
	if attempts[0].Outcome != "TimedOut" || !attempts[0].Time.Equal(t0) {
		t.Fatalf("first attempt = %+v", attempts[0])
	}
	if got := attempts[1].Time.Sub(t0); got != 40*time.Second {
		t.Fatalf("retry at +%v, want +40s (30 s timeout + 10 s)", got)
	}
}

// EG-5: an answer after the 30 s timeout but within 3 minutes takes the
// event off the retry queue.
func TestLateSuccessWithdrawsTheRetry(t *testing.T) {
	t.Parallel()
	clock := engine.NewVirtualClock(t0, 20*time.Millisecond)
	e := engine.New(clock, engine.NewJournal(0))
	answer := make(chan struct{})
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Minute, 5},
		ResponseTimeout: 30 * time.Second, LateSuccessWindow: 3 * time.Minute,
		Destination: engine.DestinationFunc(func(ctx context.Context, a *engine.Attempt) engine.Outcome {
			calls.Add(1)
			select {
			case <-answer:
				return engine.Outcome{OK: true, Status: 200}
			case <-ctx.Done():
				return engine.Outcome{Name: "TimedOut"}
			}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	clock.Advance(45 * time.Second)
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	if len(attempts) != 1 || attempts[0].Outcome != "TimedOut" {
		t.Fatalf("attempts = %+v", attempts)
	}
	close(answer) // the endpoint answers 200 at +45 s
	waitKind(t, e, engine.KindDelivered, 1)
	clock.Advance(time.Hour)
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d attempts: the retry due at +90 s should have been withdrawn", n)
	}
}

// Past the window the request is abandoned and the retry stands.
func TestAnswerAfterTheLateWindowIsIgnored(t *testing.T) {
	t.Parallel()
	clock := engine.NewVirtualClock(t0, 20*time.Millisecond)
	e := engine.New(clock, engine.NewJournal(0))
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{5 * time.Minute, 2},
		ResponseTimeout: 30 * time.Second, LateSuccessWindow: 3 * time.Minute,
		Destination: engine.DestinationFunc(func(ctx context.Context, a *engine.Attempt) engine.Outcome {
			if calls.Add(1) == 1 {
				<-ctx.Done()
				return engine.Outcome{Name: "TimedOut"}
			}
			return engine.Outcome{OK: true}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	clock.Advance(10 * time.Minute)
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	if len(attempts) != 2 || attempts[1].Time.Sub(t0) != 5*time.Minute+30*time.Second || attempts[1].Outcome != "Success" {
		t.Fatalf("attempts = %+v", attempts)
	}
}

// On scaled time (nothing waits for an attempt's work) the attempt is made
// on its own goroutine and its timeout acts from the timer: a late success
// still withdraws the retry the timeout scheduled (EG-5).
func TestLateSuccessWithdrawsTheRetryOnScaledTime(t *testing.T) {
	t.Parallel()
	clock, err := engine.NewScaledClock(1000) // the 30 s timeout is 30 ms
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(clock, engine.NewJournal(0))
	answer := make(chan struct{})
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{24 * time.Hour, 5},
		ResponseTimeout: 30 * time.Second, LateSuccessWindow: 24 * time.Hour,
		Destination: engine.DestinationFunc(func(ctx context.Context, a *engine.Attempt) engine.Outcome {
			calls.Add(1)
			select {
			case <-answer:
				return engine.Outcome{OK: true, Status: 200}
			case <-ctx.Done():
				return engine.Outcome{Name: "Canceled"}
			}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	attempts := waitKind(t, e, engine.KindAttempt, 1)
	if attempts[0].Outcome != "TimedOut" || attempts[0].NextAttemptAt == nil {
		t.Fatalf("attempt = %+v", attempts[0])
	}
	close(answer) // answered within the late-success window
	waitKind(t, e, engine.KindDelivered, 1)
	m, _ := e.RouteMetrics("r")
	if m.Retrying != 0 || m.Delivered != 1 || calls.Load() != 1 {
		t.Fatalf("metrics %+v after %d calls: the retry should have been withdrawn", m, calls.Load())
	}
}

// A route that does not linger has its request cancelled at the timeout,
// and the destination's own outcome for it is the attempt's.
func TestResponseTimeoutCancelsOnScaledTime(t *testing.T) {
	t.Parallel()
	clock, err := engine.NewScaledClock(1000)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(clock, engine.NewJournal(0))
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{24 * time.Hour, 5}, ResponseTimeout: 30 * time.Second,
		Destination: engine.DestinationFunc(func(ctx context.Context, a *engine.Attempt) engine.Outcome {
			<-ctx.Done()
			if errors.Is(context.Cause(ctx), engine.ErrResponseTimeout) {
				return engine.Outcome{Name: "NamedByTheDestination"}
			}
			return engine.Outcome{Name: "Canceled"}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	if a := waitKind(t, e, engine.KindAttempt, 1)[0]; a.Outcome != "NamedByTheDestination" || a.NextAttemptAt == nil {
		t.Fatalf("attempt = %+v", a)
	}
}
