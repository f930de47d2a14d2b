package retry_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestEG17_DelayedDelivery(t *testing.T) {
	t.Parallel()
	t.Run("hold grows with the streak", func(t *testing.T) {
		t.Parallel()
		for failing, want := range map[int]time.Duration{
			1: 0, 9: 0, 10: time.Minute, 19: time.Minute, 20: 2 * time.Minute,
			30: 4 * time.Minute, 80: 2 * time.Hour, 10_000: 2 * time.Hour,
		} {
			if got := retry.DelayedDeliveryHold(failing); got != want {
				t.Fatalf("DelayedDeliveryHold(%d) = %v, want %v", failing, got, want)
			}
		}
	})

	ids := func(from, to int) []string {
		var out []string
		for i := from; i <= to; i++ {
			out = append(out, fmt.Sprintf("e%02d", i))
		}
		return out
	}
	// 409 is retried and causes no probation, so only delayed delivery acts.
	t.Run("first 10 events fail: new deliveries and retries delayed", func(t *testing.T) {
		t.Parallel()
		dest := newSwitchable(409)
		h := newHarness(t, setup{cfg: retry.Config{Probation: true}, dest: dest, concurrency: 1})
		h.publish(ids(1, 9)...)
		h.wantActive("after 9 failing events")
		h.publish("e10")
		s := h.state()
		if s.State != retry.HoldDelayedDelivery || s.HeldUntil == nil || !s.HeldUntil.Equal(t0.Add(time.Minute)) {
			t.Fatalf("after 10 failing events: state %q until %v, want DelayedDelivery until +1m", s.State, s.HeldUntil)
		}
		h.advanceTo(at("1s"))
		h.publish("e11")
		h.advanceTo(at("59s"))
		h.none(engine.KindAttempt, "e11")
		wantAttempts(t, h, "e01", "0") // its 10 s retry waits too

		// The endpoint recovers: everything held goes at the end of the hold,
		// and the successes end the streak.
		dest.set(200)
		h.advanceTo(at("1m"))
		wantAttempts(t, h, "e11", "1m")
		wantAttempts(t, h, "e01", "0", "1m")
		h.one(engine.KindDelivered, "e01")

		// A later failure starts a new streak: no delay.
		dest.set(409)
		h.advanceTo(at("2m"))
		h.publish("e12")
		h.wantActive("after recovery and one failure")
		h.advanceTo(at("2m1s"))
		h.publish("e13")
		wantAttempts(t, h, "e13", "2m1s")
	})
	t.Run("off", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, setup{dest: routetest.Status(409), concurrency: 1})
		h.publish(ids(1, 10)...)
		h.advanceTo(at("1s"))
		h.publish("e11")
		h.wantActive("probation off")
		wantAttempts(t, h, "e11", "1s")
	})
}

func TestEG18_Probation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		outcome string
		hold    time.Duration
	}{
		{"Busy", 10 * time.Second},
		{"NotFound", 5 * time.Minute},
		{"SocketError", 30 * time.Second},
		{"ResolutionError", 5 * time.Minute},
		{"Disabled", 5 * time.Minute},
		{"Full", 5 * time.Minute},
		{"TimedOut", 10 * time.Second},
		{"Unauthorized", 5 * time.Minute},
		{"Forbidden", 5 * time.Minute},
		{"InvalidAzureFunctionDestination", 10 * time.Minute},
		// About one event, not the destination: no probation.
		{"BadRequest", 0},
		{"PayloadTooLarge", 0},
	}
	for _, tt := range tests {
		t.Run(tt.outcome, func(t *testing.T) {
			t.Parallel()
			if got := retry.ProbationDuration(tt.outcome); got != tt.hold {
				t.Fatalf("ProbationDuration(%s) = %v, want %v", tt.outcome, got, tt.hold)
			}
			// Event "bad" fails once with the outcome; every later attempt
			// would succeed, but none is made during probation.
			dest := engine.DestinationFunc(func(_ context.Context, a *engine.Attempt) engine.Outcome {
				if a.Batch.Items[0].ID == "bad" && a.Number == 1 {
					return engine.Outcome{Name: tt.outcome}
				}
				return routetest.Answer(200)
			})
			h := newHarness(t, setup{cfg: retry.Config{Destination: retry.AzureResource, Probation: true}, dest: dest})
			h.publish("bad")
			s := h.state()
			if tt.hold == 0 {
				if s.State != "Active" {
					t.Fatalf("state %q, want Active", s.State)
				}
			} else if s.State != retry.HoldProbation || s.HeldUntil == nil || !s.HeldUntil.Equal(t0.Add(tt.hold)) {
				t.Fatalf("state %q until %v, want Probation until +%v", s.State, s.HeldUntil, tt.hold)
			}
			h.advanceTo(at("1s"))
			h.publish("good")
			h.advanceTo(at("15m"))
			want := max(time.Second, tt.hold)
			if got := h.attempts("good"); len(got) != 1 || got[0] != want {
				t.Fatalf("next event attempted at %v, want once at %v", got, want)
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, setup{cfg: retry.Config{Destination: retry.AzureResource}, dest: failingWith("NotFound")})
		h.publish("e1")
		h.wantActive("probation off")
		h.advanceTo(at("1s"))
		h.publish("e2")
		wantAttempts(t, h, "e2", "1s")
	})
}
