package deadletter_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestEG21_WrittenFiveMinutesAfterGiveUp(t *testing.T) {
	t.Parallel()
	// Three attempts: the last at 40s; the write follows it by 5 minutes.
	r := newRoute(t, routetest.Status(500), retry.Config{MaxDeliveryAttempts: 3}, builder(), engine.NewMemorySink(), 1)
	r.publish(egEvent("e1"))
	const last, written = 40 * time.Second, 5 * time.Minute
	r.advanceTo(last + written - 1)
	if got := r.entries(engine.KindDeadLetter); len(got) != 0 {
		t.Fatalf("written before the delay: %+v", got)
	}
	r.advanceTo(time.Hour)
	got := r.entries(engine.KindDeadLetter)
	if len(got) != 1 || got[0].Time.Sub(t0) != last+written {
		t.Fatalf("dead letters %+v, want one at %v", got, last+written)
	}
	if want := "devstoreaccount1/deadletters/ORDERS-SUB/2026/3/10/8/blob-1.json"; got[0].Destination != want {
		t.Fatalf("written to %q, want %q", got[0].Destination, want)
	}
}

func TestEG22_DeadLetterLocationUnavailable(t *testing.T) {
	t.Parallel()
	t.Run("write-retry schedule", func(t *testing.T) {
		t.Parallel()
		tests := []struct {
			n          int
			failingFor time.Duration
			wait       time.Duration
			ok         bool
		}{
			{1, 0, 10 * time.Second, true},
			{2, 10 * time.Second, time.Minute, true},
			{3, 70 * time.Second, 5 * time.Minute, true},
			{40, 3*time.Hour + 50*time.Minute, 5 * time.Minute, true},
			{50, 3*time.Hour + 58*time.Minute, 2 * time.Minute, true}, // last try at exactly 4 h
			{51, 4 * time.Hour, 0, false},
			{60, 5 * time.Hour, 0, false},
		}
		for _, tt := range tests {
			wait, ok := deadletter.RetryAfter(tt.n, tt.failingFor)
			if wait != tt.wait || ok != tt.ok {
				t.Fatalf("RetryAfter(%d, %v) = %v, %v; want %v, %v", tt.n, tt.failingFor, wait, ok, tt.wait, tt.ok)
			}
		}
	})

	unavailable := errors.New("storage unavailable")
	tests := []struct {
		name     string
		failures int   // writes that fail before one succeeds; -1: all
		err      error // what a failing write returns
		written  string
		dropped  string
		reason   string
	}{
		// Given up at 0 (400), first write at 5m; retries 10s, 1m, 5m later.
		{name: "recovers after 3 failures", failures: 3, err: unavailable, written: "11m10s"},
		{name: "unavailable for 4 hours: dropped", failures: -1, err: unavailable, dropped: "4h5m", reason: engine.ReasonDeadLetterUnavailable},
		{name: "container not found: dropped at once", failures: -1, err: fmt.Errorf("container deadletters: %w", engine.ErrDestinationNotFound), dropped: "5m", reason: engine.ReasonDeadLetterNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var tries atomic.Int64
			sink := sinkFunc(func(context.Context, engine.DeadLetter) error {
				if n := tries.Add(1); tt.failures < 0 || n <= int64(tt.failures) {
					return tt.err
				}
				return nil
			})
			r := newRoute(t, routetest.Status(400), retry.Config{}, builder(), sink, 1)
			r.publish(egEvent("e1"))
			r.advanceTo(6 * time.Hour)
			dls, drops := r.entries(engine.KindDeadLetter), r.entries(engine.KindDrop)
			if tt.written != "" {
				if len(dls) != 1 || dls[0].Time.Sub(t0) != mustDuration(tt.written) || len(drops) != 0 {
					t.Fatalf("dead letters %+v, drops %+v; want one written at %s", dls, drops, tt.written)
				}
				return
			}
			if len(dls) != 0 || len(drops) != 1 || drops[0].Time.Sub(t0) != mustDuration(tt.dropped) || drops[0].Outcome != tt.reason {
				t.Fatalf("dead letters %+v, drops %+v; want one drop at %s (%s)", dls, drops, tt.dropped, tt.reason)
			}
			if m, _ := r.eng.RouteMetrics("orders-sub"); m.DeadLetterFailed != 1 {
				t.Fatalf("metrics %+v, want the failed dead letter counted", m)
			}
		})
	}
}

func mustDuration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return d
}
