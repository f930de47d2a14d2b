package sqssend

import (
	"testing"
	"time"
)

// EB-11: a dead letter that cannot be written is tried again after 1 s, 5 s,
// 30 s, 1 min and 5 min, then given up: 6 min 36 s in all.
func TestEB11_DeadLetterWriteRetries(t *testing.T) {
	t.Parallel()
	var total time.Duration
	for n := 1; ; n++ {
		wait, ok := retryDeadLetterWrite(n, 0)
		if !ok {
			if n != MaxDeadLetterWrites+1 {
				t.Fatalf("gave up after %d failures, want %d", n, MaxDeadLetterWrites+1)
			}
			break
		}
		total += wait
	}
	if total != 6*time.Minute+36*time.Second {
		t.Fatalf("retried over %s", total)
	}
}
