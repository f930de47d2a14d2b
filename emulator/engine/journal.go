package engine

import (
	"context"
	"net/http"
	"slices"
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
	// KindPoll says a face read events from a source it polls (an
	// EventBridge pipe reading its SQS queue): EventIDs are what it took.
	KindPoll = "poll"
	// KindFilter is a filter's decision on polled events: Outcome
	// "Matched" or "FilteredOut".
	KindFilter = "filter"
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
	// NextAttemptAt is when the batch is tried again after a failed attempt,
	// or when a hold ends (deferred).
	NextAttemptAt *time.Time `json:"nextAttemptAt,omitempty"`
	// Count is how many events a deferred entry's hold keeps waiting;
	// EventIDs then lists a bounded sample of them.
	Count int `json:"count,omitempty"`

	// items, when set, are the events the entry is about: the journal
	// derives EventIDs from them and refers to their stored bodies instead
	// of copying an attempt's request body (see compactRequest).
	items []*Item
	// req is a stored attempt's request, rebuilt into Request on read.
	req *storedRequest
}

// RecordedRequest is what a delivery attempt sent.
type RecordedRequest struct {
	Method string      `json:"method,omitempty"`
	URL    string      `json:"url,omitempty"`
	Header http.Header `json:"headers,omitempty"`
	Body   []byte      `json:"body,omitempty"`
	// ItemsBody says Body is what the attempt's items append
	// (Item.AppendBody): the only item's body, or all of them in a JSON
	// array. The destination that built it so sets it, and the journal
	// then refers to the items without rendering them again to compare;
	// whatever changes Body afterwards clears it.
	ItemsBody bool `json:"-"`
}

// Journal is a bounded, append-only log. When it is full — in entries or in
// bytes — the oldest entries are discarded and counted, so a long load run
// cannot exhaust memory and the inspection API can say how much it no longer
// holds.
//
// An attempt's entry does not copy what the attempt sent: it refers to the
// batch's events, whose bodies are stored once (shared with the engine's
// queue), and to an interned request shape (method, URL, headers); Query
// rebuilds the full request on read.
type Journal struct {
	mu     sync.Mutex
	chunks [][]Entry // a queue of entries, oldest first from chunks[0][start]
	// spare is the last chunk the queue let go of, all zero, kept for the
	// next chunk it needs: a full journal turns over a chunk every 512
	// appends, and allocating each anew made it a sixth of the bytes the
	// EventBridge publish path allocates.
	spare     []Entry
	capacity  int
	maxBytes  int64
	bytes     int64 // estimated bytes held by the n entries
	start     int   // index of the oldest entry
	n         int
	seq       uint64
	resetSeq  uint64 // seq at the last Reset
	discarded uint64
	counts    map[string]uint64 // per kind, never discarded
	shapes    interner[*requestShape]
	texts     interner[string]
	// scratch renders an item's body to compare it with an attempt's
	// request (isBodyOf).
	scratch []byte
	// keyBuf holds an attempt's request shape key while it is looked up.
	keyBuf []byte
	// changed is closed on the next append; it exists only while someone
	// waits, so appends cost no allocation when nobody is watching.
	changed chan struct{}
}

// DefaultJournalCap is the journal size when none is configured.
const DefaultJournalCap = 100_000

// DefaultJournalMaxBytes bounds the journal's estimated memory when no bound
// is configured: about 14,000 attempt entries, the full history of a test
// that sends a few thousand events, some retried. The journal is a history
// to assert on, not a store (every event's fate is also in the route
// metrics), so the bound is sized against the process: at 10,000 pending
// events it is 0.4 KiB per event, a fifth of the 2 KiB an event may cost in
// all. A run that needs more history sets --journal-max-bytes.
const DefaultJournalMaxBytes = 4 << 20

// NewJournal returns a journal holding at most capacity entries and
// DefaultJournalMaxBytes bytes.
func NewJournal(capacity int) *Journal { return NewJournalBytes(capacity, 0) }

// NewJournalBytes returns a journal holding at most capacity entries (0:
// DefaultJournalCap) and maxBytes estimated bytes (0: DefaultJournalMaxBytes).
func NewJournalBytes(capacity int, maxBytes int64) *Journal {
	if capacity <= 0 {
		capacity = DefaultJournalCap
	}
	if maxBytes <= 0 {
		maxBytes = DefaultJournalMaxBytes
	}
	return &Journal{
		capacity: capacity,
		maxBytes: maxBytes,
		counts:   make(map[string]uint64),
	}
}

// Append stores e, stamping its sequence number, and returns it as given
// with that number. (It used to return the entry rebuilt from its stored
// form, a copy of every attempt's request and event ids per append, which
// no caller used; Query shows the stored entry in full.)
func (j *Journal) Append(e Entry) Entry {
	given := e
	j.mu.Lock()
	j.appendLocked(&e)
	j.notifyLocked()
	j.mu.Unlock()
	given.Seq = e.Seq
	return given
}

// AppendAll stores es in order, with consecutive sequence numbers: a face
// that accepts many events at once journals them in one step.
func (j *Journal) AppendAll(es []Entry) {
	if len(es) == 0 {
		return
	}
	j.mu.Lock()
	for i := range es {
		e := es[i]
		j.appendLocked(&e)
	}
	j.notifyLocked()
	j.mu.Unlock()
}

func (j *Journal) appendLocked(e *Entry) {
	j.seq++
	e.Seq = j.seq
	j.compactLocked(e)
	size := e.size()
	for j.n > 0 && (j.n >= j.capacity || j.bytes+size > j.maxBytes) {
		j.discardOldestLocked()
	}
	if i := j.start + j.n; i/journalChunk == len(j.chunks) {
		chunk := j.spare
		if chunk == nil {
			chunk = make([]Entry, journalChunk)
		}
		j.spare = nil
		j.chunks = append(j.chunks, chunk)
	}
	*j.at(j.n) = *e
	j.n++
	j.bytes += size
	j.counts[e.Kind]++
}

// intern returns a copy of s shared with the journal's attempt entries
// that carry the same text: an outcome's message and destination repeat
// from attempt to attempt, and a batch waiting for its retry keeps its last
// outcome's, so a backlog of failing events does not hold a copy each.
func (j *Journal) intern(s string) string {
	if s == "" || len(s) > maxInternedText {
		return s
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.texts.get(s, func() string { return s })
}

func (j *Journal) discardOldestLocked() {
	old := j.at(0)
	j.bytes -= old.size()
	*old = Entry{} // let the events and bodies it referred to go
	j.start++
	j.n--
	j.discarded++
	if j.start == journalChunk {
		j.spare = j.chunks[0] // every entry in it was zeroed on discard
		j.chunks[0] = nil
		j.chunks = j.chunks[1:]
		j.start = 0
	}
}

// journalChunk is how many entries one piece of the journal's queue holds:
// the queue grows and shrinks a chunk at a time, so it never holds more than
// one chunk of slack and never copies entries to grow.
const journalChunk = 512

// at is the i-th held entry, oldest first.
func (j *Journal) at(i int) *Entry {
	i += j.start
	return &j.chunks[i/journalChunk][i%journalChunk]
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
		found := slices.Contains(e.EventIDs, f.EventID)
		for _, it := range e.items {
			if found {
				break
			}
			found = it.ID == f.EventID
		}
		if !found {
			return false
		}
	}
	return true
}

// Stats describes the journal as a whole. The counters (Appended,
// Discarded, Counts) start again from zero at Reset; sequence numbers do not,
// so a reader's "after" position stays valid.
type Stats struct {
	Capacity int `json:"capacity"`
	// MaxBytes bounds Bytes, the estimated memory the held entries take.
	MaxBytes  int64             `json:"maxBytes"`
	Bytes     int64             `json:"bytes"`
	Held      int               `json:"held"`
	Appended  uint64            `json:"appended"`
	Discarded uint64            `json:"discarded"`
	Counts    map[string]uint64 `json:"counts"`
	// LastSeq is the sequence number of the latest entry.
	LastSeq uint64 `json:"lastSeq"`
}

// Stats reports size, totals per kind and how many entries were discarded.
func (j *Journal) Stats() Stats {
	j.mu.Lock()
	defer j.mu.Unlock()
	counts := make(map[string]uint64, len(j.counts))
	for k, v := range j.counts {
		counts[k] = v
	}
	return Stats{
		Capacity: j.capacity, MaxBytes: j.maxBytes, Bytes: j.bytes, Held: j.n,
		Appended: j.seq - j.resetSeq, Discarded: j.discarded, Counts: counts, LastSeq: j.seq,
	}
}

// Query returns the held entries that pass f, oldest first, each attempt's
// request rebuilt in full.
func (j *Journal) Query(f Filter) []Entry {
	out := j.Select(f)
	// Rebuilt outside the lock: stored entries and the events they refer
	// to are never modified.
	for i := range out {
		out[i] = out[i].materialize()
	}
	return out
}

// Select is Query without the rebuilding: the entries as stored, whose
// requests refer to the events' bodies instead of copying them. A reader that
// shows entries one at a time calls Full on each, so it never holds every
// rebuilt request at once.
func (j *Journal) Select(f Filter) []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	// Count first: matching is cheap, while growing the answer by appending
	// copies a full journal's entries many times over.
	n := 0
	for i := 0; i < j.n; i++ {
		if f.Match(j.at(i)) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Entry, 0, n)
	for i := 0; i < j.n; i++ {
		e := j.at(i)
		if f.Match(e) {
			out = append(out, *e)
		}
	}
	return out
}

// Full returns an entry from Select as Query shows it: event ids listed and
// the attempt's request rebuilt in full.
func (e Entry) Full() Entry { return e.materialize() }

// Wait blocks until cond, called with the entries passing f, returns true, or
// ctx ends. It returns the entries cond last saw.
func (j *Journal) Wait(ctx context.Context, f Filter, cond func([]Entry) bool) ([]Entry, error) {
	return j.wait(ctx, f, cond, j.Query)
}

// WaitSelect is Wait on the entries as Select returns them.
func (j *Journal) WaitSelect(ctx context.Context, f Filter, cond func([]Entry) bool) ([]Entry, error) {
	return j.wait(ctx, f, cond, j.Select)
}

func (j *Journal) wait(ctx context.Context, f Filter, cond func([]Entry) bool, query func(Filter) []Entry) ([]Entry, error) {
	for {
		j.mu.Lock()
		if j.changed == nil {
			j.changed = make(chan struct{})
		}
		changed := j.changed
		j.mu.Unlock()
		got := query(f)
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

// Reset empties the journal, gives its memory back and starts its counters
// again from zero.
func (j *Journal) Reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.chunks, j.spare = nil, nil
	j.start, j.n, j.discarded, j.bytes = 0, 0, 0, 0
	j.resetSeq = j.seq
	j.counts = make(map[string]uint64)
	j.shapes, j.texts = interner[*requestShape]{}, interner[string]{}
	j.scratch, j.keyBuf = nil, nil
	j.notifyLocked()
}

func (j *Journal) notifyLocked() {
	if j.changed != nil {
		close(j.changed)
		j.changed = nil
	}
}
