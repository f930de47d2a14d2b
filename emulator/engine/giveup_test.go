package engine_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestGiveUpWritesDeadLetterAfterDelay(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	sink := engine.NewMemorySink()
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Second, 2},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{Name: "Busy", Status: 503}
		}),
		DeadLetter: &engine.DeadLetterPolicy{Sink: sink, Delay: 5 * time.Minute,
			Build: func(b *engine.Batch, reason string, now time.Time) ([]engine.DeadLetter, error) {
				return []engine.DeadLetter{{Destination: "mem/" + reason, Body: []byte(`[]`), EventIDs: b.EventIDs()}}, nil
			}},
	})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	clock.Advance(time.Second + 5*time.Minute - time.Nanosecond)
	if n := len(sink.List()); n != 0 {
		t.Fatalf("dead letter written before the delay: %d", n)
	}
	clock.Advance(time.Nanosecond)
	dl := sink.List()
	if len(dl) != 1 || dl[0].Destination != "mem/MaxDeliveryAttemptsExceeded" {
		t.Fatalf("dead letters = %+v", dl)
	}
	entries := e.Journal().Query(engine.Filter{Kind: engine.KindDeadLetter})
	if len(entries) != 1 || !entries[0].Time.Equal(t0.Add(time.Second+5*time.Minute)) {
		t.Fatalf("dead-letter journal = %+v", entries)
	}
	// The entry says why, as a drop's does.
	if entries[0].Outcome != "MaxDeliveryAttemptsExceeded" {
		t.Fatalf("the dead letter's outcome is %q, want the reason MaxDeliveryAttemptsExceeded", entries[0].Outcome)
	}
}

type flakySink struct {
	down atomic.Bool
	mem  *engine.MemorySink
}

func (s *flakySink) Write(ctx context.Context, dl engine.DeadLetter) error {
	if s.down.Load() {
		return errors.New("connection refused")
	}
	return s.mem.Write(ctx, dl)
}

func TestDeadLetterWriteRetriedThenDropped(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	sink := &flakySink{mem: engine.NewMemorySink()}
	sink.down.Store(true)
	e.PutRoute(&engine.Route{ID: "r", Retry: giveUpAtOnce(), Labels: map[string]string{"topic": "t"},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{Name: "BadRequest", Status: 400}
		}),
		DeadLetter: &engine.DeadLetterPolicy{Sink: sink,
			RetryAfter: func(n int, failingFor time.Duration) (time.Duration, bool) {
				return time.Minute, failingFor < 10*time.Minute
			},
			Build: func(b *engine.Batch, reason string, now time.Time) ([]engine.DeadLetter, error) {
				return []engine.DeadLetter{{Destination: "x", EventIDs: b.EventIDs()}}, nil
			}},
	})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"}, &engine.Item{ID: "e2"})
	waitKind(t, e, engine.KindAttempt, 2)
	clock.Advance(3 * time.Minute)
	sink.down.Store(false)
	clock.Advance(time.Minute)
	if n := len(sink.mem.List()); n != 2 {
		t.Fatalf("written after recovery: %d, want 2", n)
	}

	// A second burst while the sink stays down is dropped, and says why.
	sink.down.Store(true)
	_ = e.Enqueue("r", &engine.Item{ID: "e3"})
	waitKind(t, e, engine.KindAttempt, 3)
	clock.Advance(time.Hour)
	drops := e.Journal().Query(engine.Filter{Kind: engine.KindDrop, Labels: map[string]string{"topic": "t"}})
	if len(drops) != 1 || drops[0].Outcome != engine.ReasonDeadLetterUnavailable || drops[0].EventIDs[0] != "e3" {
		t.Fatalf("drops = %+v", drops)
	}
	m, _ := e.RouteMetrics("r")
	if m.DeadLettered != 2 || m.DeadLetterFailed != 1 {
		t.Fatalf("metrics = %+v", m)
	}
}

func TestMissingDeadLetterDestinationDropsAtOnce(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	e.PutRoute(&engine.Route{ID: "r", Retry: giveUpAtOnce(),
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{Status: 400}
		}),
		DeadLetter: &engine.DeadLetterPolicy{
			Sink: engine.SinkFunc(func(context.Context, engine.DeadLetter) error {
				return engine.ErrDestinationNotFound
			}),
			Build: func(b *engine.Batch, reason string, now time.Time) ([]engine.DeadLetter, error) {
				return []engine.DeadLetter{{Destination: "x", EventIDs: b.EventIDs()}}, nil
			}},
	})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	clock.Advance(time.Second)
	drops := waitKind(t, e, engine.KindDrop, 1)
	if drops[0].Outcome != engine.ReasonDeadLetterNotFound {
		t.Fatalf("drop = %+v", drops[0])
	}
}
