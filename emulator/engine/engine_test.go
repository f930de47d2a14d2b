package engine_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

var t0 = time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)

// fixedPolicy retries every failure after a fixed delay, up to max attempts.
type fixedPolicy struct {
	delay time.Duration
	max   int
}

func (p fixedPolicy) AfterFailure(b *engine.Batch, o engine.Outcome, now time.Time) engine.Decision {
	if b.Attempts >= p.max {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: "MaxDeliveryAttemptsExceeded"}
	}
	return engine.Decision{Action: engine.Retry, After: p.delay}
}

func (p fixedPolicy) BeforeRetry(*engine.Batch, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Proceed}
}

func newEngine(t *testing.T) (*engine.Engine, *engine.VirtualClock) {
	t.Helper()
	clock := engine.NewVirtualClock(t0, 0)
	return engine.New(clock, engine.NewJournal(0)), clock
}

func waitKind(t *testing.T, e *engine.Engine, kind string, n int) []engine.Entry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got, err := e.Journal().Wait(ctx, engine.Filter{Kind: kind}, func(es []engine.Entry) bool { return len(es) >= n })
	if err != nil {
		t.Fatalf("waiting for %d %q entries: got %d: %+v", n, kind, len(got), got)
	}
	return got
}

func TestFirstAttemptRunsWithoutAdvance(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t)
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Second, 3},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{OK: true}
		})})
	if err := e.Enqueue("r", &engine.Item{ID: "e1", Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	got := waitKind(t, e, engine.KindDelivered, 1)
	if got[0].EventIDs[0] != "e1" || !got[0].Time.Equal(t0) {
		t.Fatalf("delivered entry = %+v", got[0])
	}
}

func TestRetriesLandAtScheduledCloudTimes(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{10 * time.Second, 5},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			if calls.Add(1) < 3 {
				return engine.Outcome{Name: "Busy", Status: 503}
			}
			return engine.Outcome{OK: true}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	clock.Advance(time.Minute)
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	want := []time.Duration{0, 10 * time.Second, 20 * time.Second}
	if len(attempts) != len(want) {
		t.Fatalf("got %d attempts, want %d: %+v", len(attempts), len(want), attempts)
	}
	for i, a := range attempts {
		if got := a.Time.Sub(t0); got != want[i] {
			t.Errorf("attempt %d at +%v, want +%v", i+1, got, want[i])
		}
		if a.Attempt != i+1 {
			t.Errorf("attempt number %d, want %d", a.Attempt, i+1)
		}
	}
	if n := len(e.Journal().Query(engine.Filter{Kind: engine.KindDelivered})); n != 1 {
		t.Fatalf("delivered %d times, want 1", n)
	}
}

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

func giveUpAtOnce() engine.RetryPolicy { return fixedPolicy{time.Second, 1} }

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

func TestBatchingTakesWhatIsAvailable(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t)
	sizes := make(chan int, 10)
	e.PutRoute(&engine.Route{ID: "r", Retry: giveUpAtOnce(), MaxBatchEvents: 3, PreferredBatchBytes: 10, Concurrency: 1,
		Destination: engine.DestinationFunc(func(_ context.Context, a *engine.Attempt) engine.Outcome {
			sizes <- len(a.Batch.Items)
			return engine.Outcome{OK: true}
		})})
	big := make([]byte, 50)
	_ = e.Enqueue("r",
		&engine.Item{ID: "1", Body: []byte("aaaa")}, &engine.Item{ID: "2", Body: []byte("bbbb")},
		&engine.Item{ID: "3", Body: []byte("cccc")}, // would pass 10 bytes: next batch
		&engine.Item{ID: "4", Body: big},            // larger than the target: alone
		&engine.Item{ID: "5", Body: []byte("e")}, &engine.Item{ID: "6", Body: []byte("f")},
		&engine.Item{ID: "7", Body: []byte("g")}, &engine.Item{ID: "8", Body: []byte("h")})
	waitKind(t, e, engine.KindDelivered, 5)
	close(sizes)
	var got []int
	for n := range sizes {
		got = append(got, n)
	}
	want := []int{2, 1, 1, 3, 1}
	if len(got) != len(want) {
		t.Fatalf("batch sizes %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("batch sizes %v, want %v", got, want)
		}
	}
}

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

func TestFaultRuleFailsAttemptsThenExpires(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	e.Faults().Add(engine.Fault{Labels: map[string]string{"target": "lambda"}, Status: 500, Count: 2})
	e.PutRoute(&engine.Route{ID: "r", Labels: map[string]string{"target": "lambda"}, Retry: fixedPolicy{time.Second, 5},
		NameFault: func(status int) string { return "INVOCATION_DEPENDENCY_INTERNAL" },
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{OK: true}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	clock.Advance(5 * time.Second)
	attempts := e.Journal().Query(engine.Filter{Kind: engine.KindAttempt})
	if len(attempts) != 3 || attempts[0].Outcome != "INVOCATION_DEPENDENCY_INTERNAL" || attempts[2].Outcome != "Success" {
		t.Fatalf("attempts = %+v", attempts)
	}
	if len(e.Faults().List()) != 0 {
		t.Fatalf("fault rule should have expired")
	}
}

func TestRemoveRouteDropsWhatItHeld(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t)
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Hour, 5},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{Status: 503}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	e.RemoveRoute("r", "")
	drops := waitKind(t, e, engine.KindDrop, 1)
	if drops[0].Outcome != engine.ReasonRouteDeleted || drops[0].EventIDs[0] != "e1" {
		t.Fatalf("drop = %+v", drops[0])
	}
}

func TestJournalWrapsAndCountsDiscarded(t *testing.T) {
	t.Parallel()
	j := engine.NewJournal(3)
	for i := 0; i < 5; i++ {
		j.Append(engine.Entry{Kind: engine.KindPublish})
	}
	st := j.Stats()
	if st.Held != 3 || st.Discarded != 2 || st.Appended != 5 || st.Counts[engine.KindPublish] != 5 {
		t.Fatalf("stats = %+v", st)
	}
	got := j.Query(engine.Filter{})
	if got[0].Seq != 3 || got[2].Seq != 5 {
		t.Fatalf("held seqs = %d..%d, want 3..5", got[0].Seq, got[2].Seq)
	}
}

func TestTwoEnginesAreIndependent(t *testing.T) {
	t.Parallel()
	a, ca := newEngine(t)
	b, _ := newEngine(t)
	ca.Advance(time.Hour)
	if !b.Clock().Now().Equal(t0) || !a.Clock().Now().Equal(t0.Add(time.Hour)) {
		t.Fatal("clocks are shared")
	}
}

// holdOnFailure puts the route on probation for a minute after a failure.
type holdOnFailure struct{}

func (holdOnFailure) AfterFailure(*engine.Batch, engine.Outcome, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Retry, After: 10 * time.Second, Hold: time.Minute, HoldState: "Probation"}
}
func (holdOnFailure) BeforeRetry(*engine.Batch, time.Time) engine.Decision {
	return engine.Decision{Action: engine.Proceed}
}

func TestHeldRouteJournalsWhatItDefers(t *testing.T) {
	t.Parallel()
	e, clock := newEngine(t)
	var calls atomic.Int32
	e.PutRoute(&engine.Route{ID: "r", Retry: holdOnFailure{},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			if calls.Add(1) == 1 {
				return engine.Outcome{Name: "NotFound", Status: 404}
			}
			return engine.Outcome{OK: true}
		})})
	_ = e.Enqueue("r", &engine.Item{ID: "e1"})
	waitKind(t, e, engine.KindAttempt, 1)
	_ = e.Enqueue("r", &engine.Item{ID: "e2"}) // arrives during probation
	clock.Advance(10 * time.Second)
	// One hold, one entry: e2 queued and e1's retry due at 10 s wait for it.
	deferred := e.Journal().Query(engine.Filter{Kind: engine.KindDeferred})
	if len(deferred) != 1 || deferred[0].Outcome != "Probation" || !deferred[0].NextAttemptAt.Equal(t0.Add(time.Minute)) ||
		deferred[0].Count != 2 || !slices.Equal(deferred[0].EventIDs, []string{"e1", "e2"}) {
		t.Fatalf("deferred = %+v", deferred)
	}
	if m, _ := e.RouteMetrics("r"); m.State != "Probation" {
		t.Fatalf("state = %q, want Probation", m.State)
	}
	clock.Advance(time.Minute)
	if n := len(e.Journal().Query(engine.Filter{Kind: engine.KindDelivered})); n != 2 {
		t.Fatalf("delivered %d after the hold, want 2", n)
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
