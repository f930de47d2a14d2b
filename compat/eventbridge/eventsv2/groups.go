package eventsv2

import (
	"sync"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// groupScheduler keeps EB-4 for a FIFO subscriber: a failing event blocks
// the later events of its EventGroupId while it retries, other groups flow,
// and order within a group is kept.
//
// The engine batches whatever is pending on a route and knows nothing of
// groups, so the scheduler decides what the engine sees:
//
//   - each group has at most one batch in the engine at a time; the group's
//     next batch is handed over only when the previous one is finished —
//     delivered, or its dead-letter record written (or given up), or dropped;
//   - at most one batch is "staged" (enqueued but not yet cut into a batch by
//     the engine) at a time, so the engine can never put events of two groups
//     into one batch. A staged batch is started as soon as the engine makes
//     its first attempt, which the destination and the retry policy report
//     (the policy for attempts a fault rule fails without a delivery).
//
// Items count per group while the engine holds them, so a batch the engine
// cuts in two (MaxBatchSize lowered by an update) or a partly delivered
// batch still releases its group exactly when its last event is finished.
type groupScheduler struct {
	sub *subscriber

	mu     sync.Mutex
	groups map[string]*groupQueue
	ready  []string // groups with events waiting and none in the engine, in arrival order
	staged map[*engine.Item]struct{}
	closed bool
}

type groupQueue struct {
	waiting  []*engine.Item
	inEngine int  // items of the group the engine holds
	isReady  bool // listed in ready
}

func newGroupScheduler(sub *subscriber) *groupScheduler {
	return &groupScheduler{sub: sub, groups: make(map[string]*groupQueue), staged: make(map[*engine.Item]struct{})}
}

// add queues items behind their groups. All are queued before anything is
// staged, so events sent together can share a batch.
func (g *groupScheduler) add(items ...*engine.Item) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return
	}
	for _, it := range items {
		key := deliveryOf(it).groupKey
		q, ok := g.groups[key]
		if !ok {
			q = &groupQueue{}
			g.groups[key] = q
		}
		q.waiting = append(q.waiting, it)
		g.markReadyLocked(key, q)
	}
	g.pumpLocked()
}

// started tells the scheduler that the engine attempted items for the first
// time: they are no longer staged.
func (g *groupScheduler) started(items []*engine.Item) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.staged) == 0 {
		return
	}
	for _, it := range items {
		delete(g.staged, it)
	}
	g.pumpLocked()
}

// done tells the scheduler that items are finished, so their groups may go on.
func (g *groupScheduler) done(items []*engine.Item) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, it := range items {
		d := deliveryOf(it)
		if d == nil || d.groupKey == "" {
			continue
		}
		q, ok := g.groups[d.groupKey]
		if !ok {
			continue
		}
		delete(g.staged, it)
		q.inEngine--
		if q.inEngine > 0 {
			continue
		}
		if len(q.waiting) == 0 {
			delete(g.groups, d.groupKey)
			continue
		}
		g.markReadyLocked(d.groupKey, q)
	}
	g.pumpLocked()
}

// close stops the scheduler and returns the items that never reached the engine.
func (g *groupScheduler) close() []*engine.Item {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	var waiting []*engine.Item
	for _, q := range g.groups {
		waiting = append(waiting, q.waiting...)
	}
	g.groups = make(map[string]*groupQueue)
	g.ready = nil
	g.staged = make(map[*engine.Item]struct{})
	return waiting
}

// waiting counts items held back behind their groups.
func (g *groupScheduler) waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, q := range g.groups {
		n += len(q.waiting)
	}
	return n
}

func (g *groupScheduler) markReadyLocked(key string, q *groupQueue) {
	if q.inEngine == 0 && !q.isReady && len(q.waiting) > 0 {
		q.isReady = true
		g.ready = append(g.ready, key)
	}
}

// pumpLocked stages the next ready group's batch when nothing is staged.
// Enqueue only schedules the engine's dispatch; it never calls back into the
// subscriber, so holding the lock across it is safe.
func (g *groupScheduler) pumpLocked() {
	for !g.closed && len(g.staged) == 0 && len(g.ready) > 0 {
		key := g.ready[0]
		g.ready = g.ready[1:]
		q := g.groups[key]
		if q == nil {
			continue
		}
		q.isReady = false
		if q.inEngine > 0 || len(q.waiting) == 0 {
			continue
		}
		n := min(g.sub.config().invoke.maxBatch, len(q.waiting))
		batch := make([]*engine.Item, n)
		copy(batch, q.waiting)
		clear(q.waiting[:n])
		q.waiting = q.waiting[n:]
		q.inEngine += n
		for _, it := range batch {
			g.staged[it] = struct{}{}
		}
		if err := g.sub.svc.engine.Enqueue(g.sub.routeID, batch...); err != nil {
			// The route is gone: the subscriber is being deleted.
			for _, it := range batch {
				delete(g.staged, it)
			}
			q.inEngine -= n
			g.sub.dropItems(batch, engine.ReasonRouteDeleted, "the subscriber was deleted before its events were queued")
		}
	}
}
