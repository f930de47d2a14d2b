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
