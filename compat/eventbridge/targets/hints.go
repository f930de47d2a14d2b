package targets

import (
	"sync"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Hints carries what an attempt learnt from one destination to its route's
// retry policy. The engine asks the policy right after the attempt, in the
// same goroutine, so each hint is taken once and never outlives its batch's
// attempt.
type Hints struct {
	m sync.Map // *engine.Batch → retry.Hint
}

func (h *Hints) set(b *engine.Batch, hint retry.Hint) { h.m.Store(b, hint) }

// Take returns and forgets the hint of the batch's last attempt.
func (h *Hints) Take(b *engine.Batch) (retry.Hint, bool) {
	v, ok := h.m.LoadAndDelete(b)
	if !ok {
		return retry.Hint{}, false
	}
	return v.(retry.Hint), true
}
