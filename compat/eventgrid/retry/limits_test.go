package retry_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// wantInvalid checks a Validate result: nil, or an InvalidRequest error
// naming the property and its range.
func wantInvalid(t *testing.T, err error, invalid bool, property, bounds string) {
	t.Helper()
	if !invalid {
		if err != nil {
			t.Fatalf("Validate: %v, want nil", err)
		}
		return
	}
	var v *retry.ValidationError
	if !errors.As(err, &v) || v.Code != "InvalidRequest" ||
		!strings.Contains(v.Message, property) || !strings.Contains(v.Message, bounds) {
		t.Fatalf("Validate: %v, want InvalidRequest naming %s and %q", err, property, bounds)
	}
}

func TestEG11_MaxDeliveryAttempts(t *testing.T) {
	t.Parallel()
	t.Run("validate 1..30", func(t *testing.T) {
		t.Parallel()
		for _, tt := range []struct {
			value   int
			invalid bool
		}{{-1, true}, {0, true}, {1, false}, {30, false}, {31, true}} {
			wantInvalid(t, retry.Validate(tt.value, 1440), tt.invalid, "maxDeliveryAttempts", "between 1 and 30")
		}
	})
	t.Run("default 30", func(t *testing.T) {
		t.Parallel()
		if got := retry.NewPolicy(retry.Config{}).Config().MaxDeliveryAttempts; got != 30 {
			t.Fatalf("default MaxDeliveryAttempts = %d, want 30", got)
		}
	})
	tests := []struct {
		name     string
		max      int
		attempts []string
		givenUp  string
	}{
		{"1 attempt", 1, []string{"0"}, "0"},
		{"3 attempts", 3, []string{"0", "10s", "40s"}, "40s"},
		{"5 attempts", 5, []string{"0", "10s", "40s", "1m40s", "6m40s"}, "6m40s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, setup{cfg: retry.Config{MaxDeliveryAttempts: tt.max}, dest: routetest.Status(500), noDeadLetter: true})
			h.publish("e1")
			h.advanceTo(at("2h"))
			wantAttempts(t, h, "e1", tt.attempts...)
			drop := h.one(engine.KindDrop, "e1")
			if drop.Time.Sub(t0) != at(tt.givenUp) || drop.Outcome != retry.ReasonMaxDeliveryAttemptsExceeded {
				t.Fatalf("given up at %v with %q, want %s MaxDeliveryAttemptsExceeded", drop.Time.Sub(t0), drop.Outcome, tt.givenUp)
			}
		})
	}
}

func TestEG12_EventTimeToLive(t *testing.T) {
	t.Parallel()
	t.Run("validate 1..1440 minutes", func(t *testing.T) {
		t.Parallel()
		for _, tt := range []struct {
			value   int
			invalid bool
		}{{0, true}, {1, false}, {1440, false}, {1441, true}} {
			wantInvalid(t, retry.Validate(30, tt.value), tt.invalid, "eventTimeToLiveInMinutes", "between 1 and 1440")
		}
	})
	t.Run("default 1440 minutes", func(t *testing.T) {
		t.Parallel()
		if got := retry.NewPolicy(retry.Config{}).Config().EventTimeToLive; got != 1440*time.Minute {
			t.Fatalf("default EventTimeToLive = %v, want 24h", got)
		}
	})
	t.Run("1 minute: given up at the first attempt due after it", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, setup{cfg: retry.Config{EventTimeToLive: time.Minute}, dest: routetest.Status(500), noDeadLetter: true})
		h.publish("e1")
		h.advanceTo(at("1h"))
		wantAttempts(t, h, "e1", "0", "10s", "40s")
		drop := h.one(engine.KindDrop, "e1")
		if drop.Time.Sub(t0) != at("1m40s") || drop.Outcome != retry.ReasonTimeToLiveExceeded {
			t.Fatalf("given up at %v with %q, want 1m40s TimeToLiveExceeded", drop.Time.Sub(t0), drop.Outcome)
		}
	})
}
