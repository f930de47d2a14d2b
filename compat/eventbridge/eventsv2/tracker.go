package eventsv2

import (
	"sync"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// batchTracker keeps what the engine's Batch has no room for: the failures
// that were GridBridge's own (they do not count as retries, EB-6), the id of
// the last request sent (a record's targetRequestId), and the dead-letter
// records still being written (FIFO groups wait for them, EB-10).
type batchTracker struct {
	mu      sync.Mutex
	batches map[*engine.Batch]*batchState
	records map[string]*pendingRecord
}

type batchState struct {
	internalFailures int
	lastInternal     bool
	requestID        string
}

// pendingRecord is a dead-letter record the engine is writing.
type pendingRecord struct {
	items         []*engine.Item
	writeFailures int
}

func newBatchTracker() *batchTracker {
	return &batchTracker{batches: make(map[*engine.Batch]*batchState), records: make(map[string]*pendingRecord)}
}

func (t *batchTracker) stateLocked(b *engine.Batch) *batchState {
	st, ok := t.batches[b]
	if !ok {
		st = &batchState{}
		t.batches[b] = st
	}
	return st
}

// attempted records the request id of an attempt that reached a target.
func (t *batchTracker) attempted(b *engine.Batch, requestID string) {
	t.mu.Lock()
	t.stateLocked(b).requestID = requestID
	t.mu.Unlock()
}

// failed records the outcome of a failed attempt and returns how many of the
// batch's failures were GridBridge's own.
func (t *batchTracker) failed(b *engine.Batch, internal bool) (internalFailures int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stateLocked(b)
	st.lastInternal = internal
	if internal {
		st.internalFailures++
	}
	return st.internalFailures
}

// lastWasInternal reports whether the batch's last failure was GridBridge's own.
func (t *batchTracker) lastWasInternal(b *engine.Batch) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	st, ok := t.batches[b]
	return ok && st.lastInternal
}

// finish forgets b and returns what was known of it.
func (t *batchTracker) finish(b *engine.Batch) batchState {
	t.mu.Lock()
	defer t.mu.Unlock()
	st, ok := t.batches[b]
	if !ok {
		return batchState{}
	}
	delete(t.batches, b)
	return *st
}

// recordPending remembers the items of a record being written under key.
func (t *batchTracker) recordPending(key string, items []*engine.Item) {
	t.mu.Lock()
	t.records[key] = &pendingRecord{items: items}
	t.mu.Unlock()
}

// recordWriteFailed counts a failed write of the record and returns the count.
func (t *batchTracker) recordWriteFailed(key string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.records[key]
	if !ok {
		return 0
	}
	r.writeFailures++
	return r.writeFailures
}

// recordResolved forgets a record whose write is over and returns its items.
func (t *batchTracker) recordResolved(key string) []*engine.Item {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.records[key]
	if !ok {
		return nil
	}
	delete(t.records, key)
	return r.items
}
