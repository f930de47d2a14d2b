package engine

import (
	"sync"
	"sync/atomic"
	"time"
)

// Engine delivers queued events along routes, on the clock, under each
// route's retry and dead-letter policy, and journals everything it does.
// It knows nothing of Azure or AWS: the cloud faces supply routes.
type Engine struct {
	clock   Clock
	journal *Journal
	faults  *Faults
	// apiFaults fail API calls (the faces' request frames take them).
	apiFaults *APIFaults
	// recordSecrets keeps secret values readable in recorded requests
	// (secrets.go).
	recordSecrets atomic.Bool

	// epoch is the clock's time when the engine started: retry queues keep
	// their due times as offsets from it (retryqueue.go).
	epoch time.Time

	// workers make the destination calls an attempt waits on (attempt.go).
	workers *workers

	mu     sync.Mutex
	routes map[string]*routeState
}

// Drop reasons the engine itself produces.
const (
	ReasonRouteDeleted            = "RouteDeleted"
	ReasonNoDeadLetterDestination = "NoDeadLetterDestination"
	ReasonDeadLetterNotFound      = "DeadLetterDestinationNotFound"
	ReasonDeadLetterUnavailable   = "DeadLetterDestinationUnavailable"
	ReasonDeadLetterBuildFailed   = "DeadLetterRecordFailed"
)

// New returns an engine on clock that journals into journal.
func New(clock Clock, journal *Journal) *Engine {
	return &Engine{clock: clock, journal: journal, faults: NewFaults(), apiFaults: NewAPIFaults(clock, journal), routes: make(map[string]*routeState), epoch: clock.Now(), workers: newWorkers()}
}

// Clock returns the engine's clock.
func (e *Engine) Clock() Clock { return e.clock }

// Journal returns the engine's journal.
func (e *Engine) Journal() *Journal { return e.journal }

// Faults returns the engine's fault rules.
func (e *Engine) Faults() *Faults { return e.faults }

// APIFaults returns the faults API calls answer.
func (e *Engine) APIFaults() *APIFaults { return e.apiFaults }

// Reset forgets every route, dropping what they held without journalling it
// (the caller asked for a clean slate), and empties the journal and faults.
// The route table is replaced, not emptied, so the memory it grew to is
// given back.
func (e *Engine) Reset() {
	e.mu.Lock()
	for _, rs := range e.routes {
		rs.removed = true
		e.clearRetriesLocked(rs)
		for _, t := range rs.writes {
			t.Stop()
		}
		if rs.holdTimer != nil {
			rs.holdTimer.Stop()
		}
		rs.pending, rs.deferred, rs.writes = nil, nil, nil
	}
	e.routes = make(map[string]*routeState)
	e.mu.Unlock()
	e.faults.Clear()
	e.apiFaults.Clear()
	e.journal.Reset()
}
