package engine_test

import (
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestExponential(t *testing.T) {
	t.Parallel()
	want := []time.Duration{1, 2, 4, 8, 16, 32, 64, 128, 256, 480, 480}
	for i, w := range want {
		if got := engine.Exponential(time.Second, 8*time.Minute, i+1); got != w*time.Second {
			t.Errorf("Exponential(1s, 8m, %d) = %s, want %s", i+1, got, w*time.Second)
		}
	}
	if got := engine.Exponential(time.Second, 8*time.Minute, 0); got != time.Second {
		t.Errorf("n = 0 gave %s, want the first wait", got)
	}
}

func TestJitter_BoundedRepeatableAndSeeded(t *testing.T) {
	t.Parallel()
	windows := []struct {
		name         string
		below, above float64
	}{
		{"Event Grid: up to 5 % later", 0, 0.05},
		{"EventBridge classic: [wait/2, wait)", 0.5, 0},
		{"EventBridge v2: ±20 %", 0.2, 0.2},
	}
	for _, w := range windows {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			a := &engine.Jitter{Seed: 42, Below: w.below, Above: w.above}
			b := &engine.Jitter{Seed: 43, Below: w.below, Above: w.above}
			moved, differs := false, false
			for n := 1; n <= 40; n++ {
				wait := time.Duration(n) * 10 * time.Second
				lo := wait - time.Duration(float64(wait)*w.below)
				hi := wait + time.Duration(float64(wait)*w.above)
				got := a.Apply(wait, "event-1", n)
				if got < lo || got > hi || (w.above == 0 && got >= hi) {
					t.Fatalf("attempt %d: %s jittered to %s, outside [%s, %s]", n, wait, got, lo, hi)
				}
				if got != got.Truncate(time.Millisecond) {
					t.Fatalf("attempt %d: %s is not whole milliseconds", n, got)
				}
				if got != a.Apply(wait, "event-1", n) {
					t.Fatalf("attempt %d: two draws differ", n)
				}
				moved = moved || got != wait
				differs = differs || got != b.Apply(wait, "event-1", n) || got != a.Apply(wait, "event-2", n)
			}
			if !moved || !differs {
				t.Fatalf("jitter moved a wait: %v; seeds or events differ: %v", moved, differs)
			}
		})
	}
	var off *engine.Jitter
	if got := off.Apply(10*time.Second, "event-1", 1); got != 10*time.Second {
		t.Errorf("a nil Jitter moved 10s to %s", got)
	}
	if got := (&engine.Jitter{Below: 0.5}).Spread(8*time.Second, 0.5); got != 6*time.Second {
		t.Errorf("the middle of [4s, 8s) is %s, want 6s", got)
	}
}
