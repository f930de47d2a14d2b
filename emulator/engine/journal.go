package engine

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// Entry kinds, as the inspection API spells them.
const (
	KindPublish    = "publish"    // the cloud accepted events for a route
	KindAttempt    = "attempt"    // one delivery attempt and its outcome
	KindDelivered  = "delivered"  // a batch reached its destination
	KindDeadLetter = "deadletter" // a dead letter was written
	KindDrop       = "drop"       // events were given up, with a reason (D-DROP)
	// KindDeferred says events that were due were not tried because their
	// route is held (probation, delayed delivery); Outcome names the hold.
	KindDeferred = "deferred"
)

// Entry is one line of the journal: every publish, attempt, outcome, dead
// letter and drop, so a test can ask what happened and in which order.
type Entry struct {
	Seq  uint64    `json:"seq"`
	Time time.Time `json:"time"`
	Kind string    `json:"kind"`
	// Route is the route's id; Labels say what it belongs to in the cloud's
	// terms (topic, subscription, bus, rule, target …) for filtering.
	Route  string            `json:"route,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`

	EventIDs []string `json:"eventIds,omitempty"`
	Attempt  int      `json:"attempt,omitempty"`
	// Outcome is the cloud's name for what happened ("Success", "Busy",
	// "TimedOut", …) or, for drops and dead letters, the reason.
	Outcome string           `json:"outcome,omitempty"`
	Status  int              `json:"status,omitempty"`
	Message string           `json:"message,omitempty"`
	Request *RecordedRequest `json:"request,omitempty"`
	// Destination is where a dead letter went, or the target of an attempt.
	Destination string `json:"destination,omitempty"`
	// Body is a dead letter's stored content.
	Body []byte `json:"body,omitempty"`
	// NextAttemptAt is when the batch is tried again after a failed attempt.
	NextAttemptAt *time.Time `json:"nextAttemptAt,omitempty"`
}

// RecordedRequest is what a delivery attempt sent.
type RecordedRequest struct {
	Method string      `json:"method,omitempty"`
	URL    string      `json:"url,omitempty"`
	Header http.Header `json:"headers,omitempty"`
	Body   []byte      `json:"body,omitempty"`
}

// Journal is a bounded, append-only log. When it is full the oldest entries
// are discarded and counted, so a long load run cannot exhaust memory and the
// inspection API can say how much it no longer holds.
type Journal struct {
	mu        sync.Mutex
	entries   []Entry // ring buffer, grown on demand up to capacity
	capacity  int
	start     int // index of the oldest entry
	n         int
	seq       uint64
	discarded uint64
	counts    map[string]uint64 // per kind, never discarded
	// changed is closed on the next append; it exists only while someone
	// waits, so appends cost no allocation when nobody is watching.
	changed chan struct{}
}

// DefaultJournalCap is the journal size when none is configured.
const DefaultJournalCap = 100_000

// NewJournal returns a journal holding at most capacity entries.
func NewJournal(capacity int) *Journal {
	if capacity <= 0 {
		capacity = DefaultJournalCap
	}
	return &Journal{
		capacity: capacity,
		counts:   make(map[string]uint64),
	}
}

// Append stores e, stamping its sequence number, and returns it.
func (j *Journal) Append(e Entry) Entry {
	j.mu.Lock()
	j.seq++
	e.Seq = j.seq
	if j.n < j.capacity {
		// Still filling: start stays 0 until the buffer is full. Grow by
		// doubling but never past capacity, so a full journal holds no slack.
		if len(j.entries) == cap(j.entries) {
			grown := make([]Entry, len(j.entries), min(j.capacity, max(64, 2*cap(j.entries))))
			copy(grown, j.entries)
			j.entries = grown
		}
		j.entries = append(j.entries, e)
		j.n++
	} else {
		j.entries[j.start] = e
		j.start = (j.start + 1) % j.capacity
		j.discarded++
	}
	j.counts[e.Kind]++
	j.notifyLocked()
	j.mu.Unlock()
	return e
}

// Filter selects journal entries. Empty fields match everything; Labels must
// all match.
type Filter struct {
	Kind    string
	Route   string
	Outcome string
	EventID string
	Labels  map[string]string
	// AfterSeq keeps only entries appended after this sequence number.
	AfterSeq uint64
}

// Match reports whether e passes the filter.
func (f Filter) Match(e *Entry) bool {
	if f.Kind != "" && e.Kind != f.Kind {
		return false
	}
	if f.Route != "" && e.Route != f.Route {
		return false
	}
	if f.Outcome != "" && e.Outcome != f.Outcome {
		return false
	}
	if e.Seq <= f.AfterSeq {
		return false
	}
	for k, v := range f.Labels {
		if e.Labels[k] != v {
			return false
		}
	}
	if f.EventID != "" {
		found := false
		for _, id := range e.EventIDs {
			if id == f.EventID {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Stats describes the journal as a whole.
type Stats struct {
	Capacity  int               `json:"capacity"`
	Held      int               `json:"held"`
	Appended  uint64            `json:"appended"`
	Discarded uint64            `json:"discarded"`
	Counts    map[string]uint64 `json:"counts"`
}

// Stats reports size, totals per kind and how many entries were discarded.
func (j *Journal) Stats() Stats {
	j.mu.Lock()
	defer j.mu.Unlock()
	counts := make(map[string]uint64, len(j.counts))
	for k, v := range j.counts {
		counts[k] = v
	}
	return Stats{Capacity: j.capacity, Held: j.n, Appended: j.seq, Discarded: j.discarded, Counts: counts}
}

// Query returns the held entries that pass f, oldest first.
func (j *Journal) Query(f Filter) []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	// Count first: matching is cheap, while growing the answer by appending
	// copies a full journal's entries many times over.
	n := 0
	for i := 0; i < j.n; i++ {
		if f.Match(&j.entries[(j.start+i)%len(j.entries)]) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Entry, 0, n)
	for i := 0; i < j.n; i++ {
		e := &j.entries[(j.start+i)%len(j.entries)]
		if f.Match(e) {
			out = append(out, *e)
		}
	}
	return out
}

// Wait blocks until cond, called with the entries passing f, returns true, or
// ctx ends. It returns the entries cond last saw.
func (j *Journal) Wait(ctx context.Context, f Filter, cond func([]Entry) bool) ([]Entry, error) {
	for {
		j.mu.Lock()
		if j.changed == nil {
			j.changed = make(chan struct{})
		}
		changed := j.changed
		j.mu.Unlock()
		got := j.Query(f)
		if cond(got) {
			return got, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return got, ctx.Err()
		}
	}
}

// Reset empties the journal and its counters.
func (j *Journal) Reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = nil
	j.start, j.n, j.discarded = 0, 0, 0
	j.counts = make(map[string]uint64)
	j.notifyLocked()
}

func (j *Journal) notifyLocked() {
	if j.changed != nil {
		close(j.changed)
		j.changed = nil
	}
}
