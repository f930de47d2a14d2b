package dlwriter

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

var start = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func newWriter(t *testing.T, sink engine.Sink) (*Writer, *engine.VirtualClock, *engine.Journal) {
	t.Helper()
	clock := engine.NewVirtualClock(start, time.Second)
	journal := engine.NewJournal(0)
	return New(clock, journal, sink), clock, journal
}

func job(deadline time.Time) Job {
	return Job{Route: "r", Labels: map[string]string{"subscription": "s"}, Destination: "acct/c/p.json",
		Body: []byte("[]"), EventIDs: []string{"e1"}, Reason: "Rejected by client.", Deadline: deadline}
}

func TestRetryScheduleIsTenSecondsOneMinuteThenEveryFiveMinutes(t *testing.T) {
	t.Parallel() // NS-7
	var calls atomic.Int32
	sink := engine.SinkFunc(func(context.Context, engine.DeadLetter) error {
		if calls.Add(1) <= 5 {
			return errors.New("connection refused")
		}
		return nil
	})
	w, clock, journal := newWriter(t, sink)
	w.Submit(job(start.Add(DefaultRetryPeriod)))
	clock.Advance(time.Hour)
	var times []time.Duration
	for _, e := range journal.Query(engine.Filter{Route: "r"}) {
		times = append(times, e.Time.Sub(start))
		if e.Kind == engine.KindDeadLetter && e.Outcome != "Rejected by client." {
			t.Fatalf("dead-letter entry %+v", e)
		}
	}
	want := []time.Duration{0, 10 * time.Second, 70 * time.Second, 370 * time.Second, 670 * time.Second, 970 * time.Second}
	if fmt.Sprint(times) != fmt.Sprint(want) {
		t.Fatalf("write times %v, want %v", times, want)
	}
	if n := len(journal.Query(engine.Filter{Kind: engine.KindDeadLetter})); n != 1 {
		t.Fatalf("%d dead-letter entries", n)
	}
}

func TestWritesStopAtTheDeadlineAndTheEventIsDropped(t *testing.T) {
	t.Parallel() // NS-7
	sink := engine.SinkFunc(func(context.Context, engine.DeadLetter) error { return errors.New("down") })
	w, clock, journal := newWriter(t, sink)
	w.Submit(job(start.Add(20 * time.Minute)))
	clock.Advance(time.Hour)
	drops := journal.Query(engine.Filter{Kind: engine.KindDrop})
	if len(drops) != 1 || drops[0].Outcome != engine.ReasonDeadLetterUnavailable {
		t.Fatalf("drops %+v", drops)
	}
	// Writes at 0, 10 s, 1m10s, 6m10s, 11m10s, 16m10s; the next (21m10s) is past the deadline.
	if got := drops[0].Time.Sub(start); got != 16*time.Minute+10*time.Second {
		t.Fatalf("dropped at +%v", got)
	}
	if n := len(journal.Query(engine.Filter{Kind: engine.KindAttempt, Outcome: OutcomeWriteFailed})); n != 6 {
		t.Fatalf("%d failed writes journalled", n)
	}
	if clock.Pending() != 0 {
		t.Fatal("a retry is still pending after the drop")
	}
}

func TestMissingContainerDropsAtOnce(t *testing.T) {
	t.Parallel()
	sink := engine.SinkFunc(func(context.Context, engine.DeadLetter) error {
		return fmt.Errorf("container gone: %w", engine.ErrDestinationNotFound)
	})
	w, clock, journal := newWriter(t, sink)
	w.Submit(job(start.Add(DefaultRetryPeriod)))
	clock.Settle()
	drops := journal.Query(engine.Filter{Kind: engine.KindDrop})
	if len(drops) != 1 || drops[0].Outcome != engine.ReasonDeadLetterNotFound || !drops[0].Time.Equal(start) {
		t.Fatalf("drops %+v", drops)
	}
}

func TestResetAbandonsPendingRetries(t *testing.T) {
	t.Parallel()
	sink := engine.SinkFunc(func(context.Context, engine.DeadLetter) error { return errors.New("down") })
	w, clock, journal := newWriter(t, sink)
	w.Submit(job(start.Add(DefaultRetryPeriod)))
	clock.Settle()
	w.Reset()
	before := len(journal.Query(engine.Filter{}))
	clock.Advance(time.Hour)
	if after := len(journal.Query(engine.Filter{})); after != before {
		t.Fatalf("journal grew from %d to %d after Reset", before, after)
	}
}

func TestDeadlineKeepsTheFullPeriodWhenStartedWithinRetention(t *testing.T) {
	t.Parallel() // NS-8
	retentionEnd := start.Add(4 * time.Hour)
	if got := Deadline(start, retentionEnd, DefaultRetryPeriod); !got.Equal(start.Add(48 * time.Hour)) {
		t.Fatalf("deadline %v", got)
	}
	if got := Deadline(start, start, 24*time.Hour); !got.Equal(start.Add(24 * time.Hour)) {
		t.Fatalf("deadline at retention end %v", got)
	}
	if got := Deadline(start, start.Add(-time.Minute), DefaultRetryPeriod); !got.Equal(start) {
		t.Fatalf("deadline after retention %v", got)
	}
	if got := Deadline(start, retentionEnd, 0); !got.Equal(start.Add(DefaultRetryPeriod)) {
		t.Fatalf("default period %v", got)
	}
}
