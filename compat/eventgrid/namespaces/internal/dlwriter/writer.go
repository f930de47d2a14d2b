package dlwriter

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// OutcomeWriteFailed names a journal attempt entry for a dead-letter write
// that failed and will be retried (or, past the deadline, dropped).
const OutcomeWriteFailed = "DeadLetterWriteFailed"

// writeTimeout bounds one write in real time, so a storage service that hangs
// counts as a failed write and is retried on the schedule.
const writeTimeout = 10 * time.Second

// Job is one dead-letter blob to write.
type Job struct {
	// Route and Labels tag every journal entry of the job.
	Route  string
	Labels map[string]string
	// Destination is "<account>/<container>/<blob path>".
	Destination string
	Body        []byte
	EventIDs    []string
	// Reason is the records' deadletterreason, journalled as the outcome.
	Reason string
	// Deadline is the last time a failed write may be retried (Deadline()).
	Deadline time.Time
	// Done, when set, is told how the job ended: dropReason is "" when the
	// dead letter was written, else the drop's reason. It is not called for
	// work a Reset abandoned.
	Done func(dropReason string)
}

// Writer is safe for concurrent use.
type Writer struct {
	clock   engine.Clock
	journal *engine.Journal
	sink    engine.Sink

	mu      sync.Mutex
	gen     uint64 // bumped by Reset; work of an older generation stops
	pending map[*attempt]engine.Timer
}

type attempt struct {
	job      Job
	gen      uint64
	failures int
}

// New returns a writer storing into sink.
func New(clock engine.Clock, journal *engine.Journal, sink engine.Sink) *Writer {
	return &Writer{clock: clock, journal: journal, sink: sink, pending: make(map[*attempt]engine.Timer)}
}

// Submit starts writing job now, on the clock; it never waits for the write.
func (w *Writer) Submit(job Job) {
	w.mu.Lock()
	a := &attempt{job: job, gen: w.gen}
	w.scheduleLocked(a, 0)
	w.mu.Unlock()
}

func (w *Writer) scheduleLocked(a *attempt, after time.Duration) {
	t := w.clock.AfterFunc(after, func() {
		w.mu.Lock()
		if a.gen != w.gen {
			w.mu.Unlock()
			return
		}
		delete(w.pending, a)
		w.mu.Unlock()
		w.try(a)
	})
	if after > 0 {
		w.pending[a] = t
	}
}

// try makes one write and acts on its result.
func (w *Writer) try(a *attempt) {
	job := a.job
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	err := w.sink.Write(ctx, engine.DeadLetter{
		Destination: job.Destination, Body: job.Body, ContentType: "application/json", EventIDs: job.EventIDs,
	})
	cancel()
	now := w.clock.Now()
	entry := engine.Entry{
		Time: now, Route: job.Route, Labels: job.Labels, EventIDs: job.EventIDs,
		Destination: job.Destination, Attempt: a.failures + 1,
	}
	switch {
	case err == nil:
		entry.Kind, entry.Outcome, entry.Body = engine.KindDeadLetter, job.Reason, job.Body
		w.append(a, entry)
		w.done(a, "")
	case errors.Is(err, engine.ErrDestinationNotFound):
		// A missing container drops the event at once (NS-1 docs: "If the
		// destination does not exist, the event is also dropped").
		entry.Kind, entry.Outcome = engine.KindDrop, engine.ReasonDeadLetterNotFound
		entry.Message = fmt.Sprintf("dead letter (%s) dropped: %v", job.Reason, err)
		w.append(a, entry)
		w.done(a, engine.ReasonDeadLetterNotFound)
	default:
		a.failures++
		next := now.Add(RetryWait(a.failures))
		entry.Kind, entry.Outcome, entry.Message = engine.KindAttempt, OutcomeWriteFailed, err.Error()
		if next.After(job.Deadline) {
			w.append(a, entry)
			w.append(a, engine.Entry{
				Time: now, Kind: engine.KindDrop, Route: job.Route, Labels: job.Labels, EventIDs: job.EventIDs,
				Destination: job.Destination, Attempt: a.failures, Outcome: engine.ReasonDeadLetterUnavailable,
				Message: fmt.Sprintf("dead letter (%s) dropped: %d write(s) failed and the retry period ended at %s; last error: %v",
					job.Reason, a.failures, job.Deadline.UTC().Format(time.RFC3339), err),
			})
			w.done(a, engine.ReasonDeadLetterUnavailable)
			return
		}
		entry.NextAttemptAt = &next
		w.mu.Lock()
		if a.gen == w.gen {
			w.journal.Append(entry)
			w.scheduleLocked(a, next.Sub(now))
		}
		w.mu.Unlock()
	}
}

// append journals e unless the writer was reset meanwhile.
func (w *Writer) append(a *attempt, e engine.Entry) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if a.gen == w.gen {
		w.journal.Append(e)
	}
}

// done tells the job's owner how it ended, unless the writer was reset.
func (w *Writer) done(a *attempt, dropReason string) {
	w.mu.Lock()
	current := a.gen == w.gen
	w.mu.Unlock()
	if current && a.job.Done != nil {
		a.job.Done(dropReason)
	}
}

// Reset abandons every pending retry without journalling it: the caller asked
// for a clean slate.
func (w *Writer) Reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.gen++
	for a, t := range w.pending {
		t.Stop()
		delete(w.pending, a)
	}
}
