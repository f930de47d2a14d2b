package pipes

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/sqssource"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// A running pipe reads its SQS source on the emulator clock (D-CLOCK). It
// polls when the queue says messages may have become visible (a send, a
// redrive, a visibility change) and when the next delayed or in-flight
// message's time comes, so a virtual-clock test sees a message taken at the
// instant it is sent, or at the instant its visibility timeout ends, and a
// batch leave exactly when its batching window closes: the window opens
// when the first message of a batch is taken, and the batch goes when it
// is full or the window closes (at once with no window).
//
// One worker at a time polls and processes a pipe's batches, in order; it
// runs as clock work, so a virtual clock's Advance waits for the whole
// batch, enrichment and target included. The messages stay in flight in
// the queue while the pipe works on them, and are deleted once they are
// delivered or filtered out; a failed batch is left to return to the queue
// when its visibility timeout ends, where the queue's redrive policy
// applies to it.
type runner struct {
	svc   *Service
	p     *pipe
	set   settings
	src   sqssource.Queues
	queue string
	// region is the source queue's, which its events name.
	region    string
	clock     engine.Clock
	stopWatch func()
	// scheduled is set while a wake-up's work is queued; stopped once the
	// pipe no longer runs. Both are read where the queue's lock is held.
	scheduled atomic.Bool
	stopped   atomic.Bool

	mu sync.Mutex
	// busy while the worker runs; again when it was woken meanwhile.
	busy, again bool
	// pending are the messages taken and waiting for the batch to leave,
	// oldest first; windowEnds is when it leaves at the latest.
	pending     []*record
	windowEnds  time.Time
	windowTimer engine.Timer
	// visibleTimer wakes the worker when the next message becomes visible.
	visibleTimer engine.Timer
	visibleAt    time.Time
	// queueMissing remembers that the source queue did not exist at the
	// last poll, so the journal says so once.
	queueMissing bool
}

// sourceCtx is the context of calls into the source queues, which answer
// from memory.
var sourceCtx = context.Background()

func (s *Service) newRunner(p *pipe) *runner {
	region := p.key.region
	if a, ok := sqsRegion(*p.set.in.Source); ok {
		region = a
	}
	return &runner{svc: s, p: p, set: p.set, src: s.cfg.Sources, queue: *p.set.in.Source, region: region, clock: s.clock}
}

// start watches the queue and polls it once, for messages already there.
func (r *runner) start() {
	r.stopWatch = r.src.Watch(r.queue, r.wake)
	r.wake()
}

// stop ends the pipe's reading. The messages it took and has not
// processed stay in flight and return to the queue when their visibility
// timeout ends; a batch being processed finishes.
func (r *runner) stop() {
	if r.stopped.Swap(true) {
		return
	}
	r.stopWatch()
	r.mu.Lock()
	for _, t := range []engine.Timer{r.windowTimer, r.visibleTimer} {
		if t != nil {
			t.Stop()
		}
	}
	held := r.pending
	r.pending, r.windowTimer, r.visibleTimer = nil, nil, nil
	r.mu.Unlock()
	if len(held) > 0 {
		r.p.stats.returned(held)
	}
}

// wake schedules the worker. It runs where the source queue's lock is
// held, so it only starts clock work, at most one at a time.
func (r *runner) wake() {
	if r.stopped.Load() || !r.scheduled.CompareAndSwap(false, true) {
		return
	}
	r.clock.Go(func() {
		r.scheduled.Store(false)
		r.run()
	})
}

// run is the worker: it works until nothing more is due, again if it was
// woken meanwhile.
func (r *runner) run() {
	r.mu.Lock()
	if r.busy {
		r.again = true
		r.mu.Unlock()
		return
	}
	r.busy = true
	r.mu.Unlock()
	for {
		r.work()
		r.mu.Lock()
		if !r.again || r.stopped.Load() {
			r.busy = false
			r.mu.Unlock()
			return
		}
		r.again = false
		r.mu.Unlock()
	}
}

// work polls for the batch being gathered and processes each batch that
// is due, taking the next at once, as AWS's pollers do, until the queue
// has nothing visible or the open batch waits for its window.
func (r *runner) work() {
	for !r.stopped.Load() {
		r.mu.Lock()
		want := r.set.batchSize - len(r.pending)
		r.mu.Unlock()
		drained := true
		if want > 0 {
			drained = r.poll(want) < want
		}
		batch := r.due()
		if batch == nil {
			if drained {
				r.watchVisibility()
			}
			return
		}
		r.process(batch)
	}
}

// due takes the batch that should leave now, or arms the window's timer
// and returns nil.
func (r *runner) due() []*record {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return nil
	}
	now := r.clock.Now()
	if len(r.pending) < r.set.batchSize && now.Before(r.windowEnds) {
		if r.windowTimer == nil {
			r.windowTimer = r.clock.AfterFunc(r.windowEnds.Sub(now), r.windowClosed)
		}
		return nil
	}
	n := min(len(r.pending), r.set.batchSize)
	batch := r.pending[:n:n]
	r.pending = append([]*record(nil), r.pending[n:]...)
	if r.windowTimer != nil {
		r.windowTimer.Stop()
		r.windowTimer = nil
	}
	r.windowEnds = time.Time{}
	if len(r.pending) > 0 {
		r.windowEnds = now.Add(r.set.window)
	}
	return batch
}

func (r *runner) windowClosed() {
	r.mu.Lock()
	r.windowTimer = nil
	r.mu.Unlock()
	r.run()
}

// watchVisibility arms a timer for when the queue's next delayed or
// in-flight message becomes visible, unless one is armed for sooner.
func (r *runner) watchVisibility() {
	at, ok := r.src.NextVisible(r.queue)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped.Load() || r.visibleTimer != nil && !at.Before(r.visibleAt) {
		return
	}
	if r.visibleTimer != nil {
		r.visibleTimer.Stop()
	}
	r.visibleAt = at
	r.visibleTimer = r.clock.AfterFunc(max(at.Sub(r.clock.Now()), 0), func() {
		r.mu.Lock()
		r.visibleTimer = nil
		r.mu.Unlock()
		r.run()
	})
}

// poll takes up to want messages from the queue into the open batch and
// returns how many it took.
func (r *runner) poll(want int) int {
	got, err := r.src.Receive(sourceCtx, r.queue, want)
	now := r.clock.Now()
	if err != nil {
		r.sourceFailed(err, now)
		return 0
	}
	r.mu.Lock()
	wasMissing := r.queueMissing
	r.queueMissing = false
	r.mu.Unlock()
	st := r.p.stats
	st.polled()
	if len(got.Redriven) > 0 {
		r.redriven(got.Redriven, now)
	}
	if len(got.Messages) == 0 {
		if wasMissing {
			r.svc.journal(r.p, "source", engine.Entry{Kind: engine.KindPoll, Outcome: "Empty", Message: "The source queue exists now; the pipe reads it."})
		}
		r.checkAwaiting(now)
		return 0
	}
	vt, _ := r.src.VisibilityTimeout(r.queue)
	recs := make([]*record, len(got.Messages))
	ids := make([]string, len(got.Messages))
	for i, m := range got.Messages {
		recs[i] = newRecord(m, r.queue, r.region, now, now.Add(vt))
		ids[i] = m.ID
	}
	r.mu.Lock()
	fresh := recs[:0:0]
	index := make(map[string]int, len(r.pending))
	for i, p := range r.pending {
		index[p.id] = i
	}
	for _, rec := range recs {
		// A message of the open batch whose visibility timeout ended
		// while the window stayed open is received again: it keeps its
		// place, with its new receipt.
		if i, ok := index[rec.id]; ok {
			r.pending[i] = rec
			continue
		}
		fresh = append(fresh, rec)
	}
	if len(r.pending) == 0 && len(fresh) > 0 {
		r.windowEnds = now.Add(r.set.window)
	}
	r.pending = append(r.pending, fresh...)
	r.mu.Unlock()
	redelivered := st.taken(fresh)
	msg := fmt.Sprintf("Received %s from %s.", messages(len(recs)), r.queue)
	if redelivered > 0 {
		msg = fmt.Sprintf("Received %s from %s, %d of them again after a failure.", messages(len(recs)), r.queue, redelivered)
	}
	r.svc.journal(r.p, "source", engine.Entry{Kind: engine.KindPoll, Outcome: "Received", EventIDs: ids, Message: msg, Destination: r.queue})
	return len(recs)
}

// sourceFailed journals, once, that the source queue cannot be read: the
// pipe reads it as soon as it exists (GridBridge's own SQS tells it when).
func (r *runner) sourceFailed(err error, now time.Time) {
	r.mu.Lock()
	first := !r.queueMissing
	r.queueMissing = true
	r.mu.Unlock()
	if !first {
		return
	}
	msg := "The source queue cannot be read: " + err.Error()
	if errors.Is(err, sqssource.ErrNoQueue) {
		msg = fmt.Sprintf("The source queue %s does not exist; the pipe reads it once it is created.", r.queue)
	}
	r.svc.journal(r.p, "source", engine.Entry{Time: now, Kind: engine.KindPoll, Outcome: "QueueDoesNotExist", Message: msg, Destination: r.queue})
}

// redriven journals the messages the queue's redrive policy moved to its
// dead-letter queue, as dead letters of the pipe when it had failed them.
func (r *runner) redriven(moved []sqssource.Redriven, now time.Time) {
	mine := r.p.stats.deadLettered(moved)
	for _, mv := range moved {
		if !mine[mv.ID] {
			continue
		}
		r.svc.journal(r.p, "source", engine.Entry{
			Time: now, Kind: engine.KindDeadLetter, EventIDs: []string{mv.ID}, Outcome: "MaxReceiveCountExceeded",
			Destination: mv.DeadLetterQueueArn, Attempt: mv.ReceiveCount,
			Message: fmt.Sprintf("The source queue's redrive policy moved the message to %s after %d receives.", mv.DeadLetterQueueArn, mv.ReceiveCount),
		})
	}
}

// checkAwaiting drops, with the reason, the messages the pipe failed that
// are no longer in the queue to be received again.
func (r *runner) checkAwaiting(now time.Time) {
	ids := r.p.stats.awaitingIDs()
	if len(ids) == 0 {
		return
	}
	held := r.src.Holding(r.queue, ids)
	var gone []string
	for i, id := range ids {
		if !held[i] {
			gone = append(gone, id)
		}
	}
	if len(gone) == 0 {
		return
	}
	gone = r.p.stats.dropped(gone)
	if len(gone) == 0 {
		return
	}
	r.svc.journal(r.p, "source", engine.Entry{
		Time: now, Kind: engine.KindDrop, EventIDs: gone, Outcome: "LeftSourceQueue",
		Message: "The messages left the source queue while they waited to be received again: deleted by another consumer, purged, past the queue's MessageRetentionPeriod, or moved to its dead-letter queue by another consumer's receive.",
	})
}

// sqsRegion is the region of a queue ARN.
func sqsRegion(queueArn string) (string, bool) {
	parts := splitArn(queueArn)
	if parts == nil || parts[3] == "" {
		return "", false
	}
	return parts[3], true
}

func messages(n int) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}
