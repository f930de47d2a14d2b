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

func TestEG4_OnlyStatus200To204AreSuccess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status    int
		delivered bool
	}{
		{200, true}, {201, true}, {202, true}, {203, true}, {204, true},
		{100, false}, {205, false}, {206, false}, {299, false}, {302, false}, {304, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			t.Parallel()
			if got := retry.IsSuccess(tt.status); got != tt.delivered {
				t.Fatalf("IsSuccess(%d) = %v, want %v", tt.status, got, tt.delivered)
			}
			h := newHarness(t, setup{dest: routetest.Status(tt.status)})
			h.publish("e1")
			h.advanceTo(at("10s"))
			if tt.delivered {
				wantAttempts(t, h, "e1", "0")
				h.one(engine.KindDelivered, "e1")
				return
			}
			// A failure: retried on the schedule.
			wantAttempts(t, h, "e1", "0", "10s")
			h.none(engine.KindDelivered, "e1")
		})
	}
}

func TestEG5_NoAnswerWithin30s_TimedOutAndRetried(t *testing.T) {
	t.Parallel()
	// An endpoint that never answers: the engine cancels each attempt at the
	// 30-second response timeout; the destination names the cause.
	silent := engine.DestinationFunc(func(ctx context.Context, _ *engine.Attempt) engine.Outcome {
		<-ctx.Done()
		return engine.Outcome{Name: retry.OutcomeName(0, context.Cause(ctx))}
	})
	h := newHarness(t, setup{
		cfg:             retry.Config{MaxDeliveryAttempts: 2},
		dest:            silent,
		noDeadLetter:    true,
		responseTimeout: 30 * time.Second,
		// The blocked attempt holds the virtual clock for this long (real
		// time) before the clock treats it as waiting for cloud time.
		settle: 250 * time.Millisecond,
	})
	h.publish("e1")
	h.advanceTo(at("2m"))
	// Attempt 1 at 0 times out at 30s, retried 10s later; attempt 2 at 40s
	// times out at 70s and was the last one.
	wantAttempts(t, h, "e1", "0", "40s")
	for _, e := range h.entries(engine.KindAttempt, "e1") {
		if e.Outcome != retry.OutcomeTimedOut {
			t.Fatalf("attempt %d outcome %q, want TimedOut", e.Attempt, e.Outcome)
		}
	}
	drop := h.one(engine.KindDrop, "e1")
	if drop.Time.Sub(t0) != at("1m10s") || drop.Outcome != retry.ReasonMaxDeliveryAttemptsExceeded {
		t.Fatalf("dropped at %v with %q, want 1m10s MaxDeliveryAttemptsExceeded", drop.Time.Sub(t0), drop.Outcome)
	}
}

func TestEG6_NeverRetriedCodes_DeadLetteredAtOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		kind    retry.DestinationKind
		dest    engine.Destination
		retried bool
		outcome string
		status  int // lastHttpStatusCode, 0: none
	}{
		{"webhook 400", retry.Webhook, routetest.Status(400), false, "BadRequest", 400},
		{"webhook 401", retry.Webhook, routetest.Status(401), false, "Unauthorized", 401},
		{"webhook 403", retry.Webhook, routetest.Status(403), false, "Forbidden", 403},
		{"webhook 413", retry.Webhook, routetest.Status(413), false, "PayloadTooLarge", 413},
		{"azure 400", retry.AzureResource, routetest.Status(400), false, "BadRequest", 400},
		{"azure 403", retry.AzureResource, routetest.Status(403), false, "Forbidden", 403},
		{"azure 413", retry.AzureResource, routetest.Status(413), false, "PayloadTooLarge", 413},
		{"azure PayloadTooLarge, no status", retry.AzureResource, failingWith("PayloadTooLarge"), false, "PayloadTooLarge", 0},
		// Retried: Azure resources retry 401 (EG-7), 404 is retried for both.
		{"azure 401", retry.AzureResource, routetest.Status(401), true, "", 0},
		{"webhook 404", retry.Webhook, routetest.Status(404), true, "", 0},
		{"azure 404", retry.AzureResource, routetest.Status(404), true, "", 0},
		{"webhook 500", retry.Webhook, routetest.Status(500), true, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, setup{cfg: retry.Config{Destination: tt.kind}, dest: tt.dest})
			h.publish("e1")
			h.advanceTo(at("5m"))
			if tt.retried {
				if n := len(h.attempts("e1")); n < 2 {
					t.Fatalf("%d attempt(s) in 5 minutes, want the event retried", n)
				}
				h.none(engine.KindDeadLetter, "e1")
				return
			}
			wantAttempts(t, h, "e1", "0")
			dl := h.one(engine.KindDeadLetter, "e1")
			if got := dl.Time.Sub(t0); got != deadletterDelay {
				t.Fatalf("dead letter written at %v, want %v (given up at once, EG-21 delay)", got, deadletterDelay)
			}
			rec := h.record(dl)
			if rec["deadLetterReason"] != retry.ReasonUndeliverableDueToClientError ||
				rec["deliveryAttempts"] != 1.0 || rec["lastDeliveryOutcome"] != tt.outcome {
				t.Fatalf("record %v", rec)
			}
			code, has := rec["lastHttpStatusCode"]
			if (tt.status != 0) != has || (has && code != float64(tt.status)) {
				t.Fatalf("lastHttpStatusCode = %v (present %v), want %d", code, has, tt.status)
			}
		})
	}
	t.Run("no dead-letter destination: dropped at once", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, setup{dest: routetest.Status(400), noDeadLetter: true})
		h.publish("e1")
		drop := h.one(engine.KindDrop, "e1")
		if drop.Time != t0 || drop.Outcome != retry.ReasonUndeliverableDueToClientError {
			t.Fatalf("drop %+v", drop)
		}
	})
}

const deadletterDelay = 5 * time.Minute

func TestEG7_StatusFloors(t *testing.T) {
	t.Parallel()
	// Five attempts each: the wait is max(EG-8 step, EG-7 floor).
	tests := []struct {
		name string
		kind retry.DestinationKind
		dest engine.Destination
		want []string
	}{
		{"azure 401 ≥5m", retry.AzureResource, routetest.Status(401), []string{"0", "5m", "10m", "15m", "20m"}},
		{"azure 404 ≥5m", retry.AzureResource, routetest.Status(404), []string{"0", "5m", "10m", "15m", "20m"}},
		{"azure Unauthorized, no status ≥5m", retry.AzureResource, failingWith("Unauthorized"), []string{"0", "5m", "10m", "15m", "20m"}},
		{"webhook 404 standard", retry.Webhook, routetest.Status(404), []string{"0", "10s", "40s", "1m40s", "6m40s"}},
		{"webhook 408 ≥2m", retry.Webhook, routetest.Status(408), []string{"0", "2m", "4m", "6m", "11m"}},
		{"azure 408 ≥2m", retry.AzureResource, routetest.Status(408), []string{"0", "2m", "4m", "6m", "11m"}},
		{"503 ≥30s", retry.Webhook, routetest.Status(503), []string{"0", "30s", "1m", "2m", "7m"}},
		{"500 ≥10s", retry.Webhook, routetest.Status(500), []string{"0", "10s", "40s", "1m40s", "6m40s"}},
		{"429 ≥10s", retry.Webhook, routetest.Status(429), []string{"0", "10s", "40s", "1m40s", "6m40s"}},
		{"Busy, no status ≥10s", retry.AzureResource, failingWith("Busy"), []string{"0", "10s", "40s", "1m40s", "6m40s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, setup{cfg: retry.Config{Destination: tt.kind, MaxDeliveryAttempts: 5}, dest: tt.dest})
			h.publish("e1")
			h.advanceTo(at("1h"))
			wantAttempts(t, h, "e1", tt.want...)
		})
	}
}

func TestEG8_StandardBackOffSchedule(t *testing.T) {
	t.Parallel()
	t.Run("default policy over a day", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, setup{dest: routetest.Status(500)})
		h.publish("e1")
		h.advanceTo(at("25h"))
		wantAttempts(t, h, "e1", "0", "10s", "40s", "1m40s", "6m40s", "16m40s", "46m40s",
			"1h46m40s", "4h46m40s", "10h46m40s", "22h46m40s")
		last := h.entries(engine.KindAttempt, "e1")[10]
		if last.NextAttemptAt == nil || last.NextAttemptAt.Sub(t0) != at("34h46m40s") {
			t.Fatalf("11th attempt's next attempt at %v, want 34h46m40s (12 h later)", last.NextAttemptAt)
		}
		// The TTL (24 h) is seen when that attempt comes due (EG-14).
		h.advanceTo(at("40h"))
		dl := h.one(engine.KindDeadLetter, "e1")
		rec := h.record(dl)
		if dl.Time.Sub(t0) != at("34h51m40s") || rec["deadLetterReason"] != retry.ReasonTimeToLiveExceeded || rec["deliveryAttempts"] != 11.0 {
			t.Fatalf("dead letter at %v: %v", dl.Time.Sub(t0), rec)
		}
	})
	t.Run("every 12 h after the 6 h step", func(t *testing.T) {
		t.Parallel()
		// A TTL beyond Azure's 1440 minutes, set directly, shows the steady
		// 12-hour step.
		h := newHarness(t, setup{cfg: retry.Config{EventTimeToLive: 72 * time.Hour}, dest: routetest.Status(500)})
		h.publish("e1")
		h.advanceTo(at("60h"))
		got := h.attempts("e1")
		want := offsets("22h46m40s", "34h46m40s", "46h46m40s", "58h46m40s")
		if len(got) != 14 || fmt.Sprint(got[10:]) != fmt.Sprint(want) {
			t.Fatalf("attempts %v, want 14 ending %v", got, want)
		}
	})
}
