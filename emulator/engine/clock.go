package engine

import (
	"container/heap"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Clock is the emulator's only source of time (D-CLOCK). Every retry, TTL
// check, lock expiry and dead-letter write is scheduled on it, so a test that
// drives a virtual clock sees a day of cloud behaviour in milliseconds.
type Clock interface {
	// Now is the current cloud time.
	Now() time.Time
	// AfterFunc runs f once, d of cloud time from now, in its own goroutine.
	// A d <= 0 runs f as soon as possible, without waiting for an advance.
	AfterFunc(d time.Duration, f func()) Timer
	// Go runs f now in its own goroutine and counts it as work in progress,
	// so a virtual clock does not move past work it has started.
	Go(f func())
	// Mode names the kind of clock: "real", "scaled" or "virtual".
	Mode() string

	// orderedClock is what the engine needs of every clock beyond this.
	orderedClock
}

// orderedClock is what the engine needs of its clock besides telling time
// and running timers: on a virtual clock, a route's retries keep the
// clock's order among every timer due at one instant (EG-8, EG-14: each
// retry is judged when it comes due), and an attempt waiting for its
// endpoint does not hold time back for the whole settle bound
// (outside.go). Every clock has it, so the engine never asks which clock it
// runs on; on real and scaled time timers due together have no order to
// keep and nothing waits for work, so those clocks implement it trivially.
// Unexported, it keeps Clock implemented in this package only: a clock
// made elsewhere cannot leave it out (one that embeds a Clock delegates it).
type orderedClock interface {
	// nextSeq reserves the place among timers due at one instant that a
	// timer created now would take, for one armed later with afterFuncAt.
	nextSeq() uint64
	// afterFuncAt runs f at when, in seq's place among the timers due then.
	// A time already reached runs f as soon as possible, as AfterFunc with
	// no wait does, except during an Advance of a virtual clock, which
	// fires it in its (when, seq) order.
	afterFuncAt(when time.Time, seq uint64, f func()) Timer
	// goTask is Go for work that tells the clock, by its task id, when it
	// waits outside the emulator (setOutside). The id is 0 on a clock that
	// does not wait for work: there is nothing to tell it. endpoint names
	// what the work waits for (a route), so one that has left an attempt
	// unanswered is not awaited again within the same advance; "" is none.
	goTask(endpoint string, f func(task uint64))
	// setOutside says that running task now waits for something outside
	// the emulator (true) or works again (false); deadline is when its
	// response timeout fires on the clock (zero: none).
	setOutside(task uint64, outside bool, deadline time.Time)
	// answered says that the endpoint running task waits for has begun to
	// answer: it is awaited again.
	answered(task uint64)
}

// Timer is a pending AfterFunc.
type Timer interface {
	// Stop cancels the timer; it reports whether the call stopped it.
	Stop() bool
}

// Clock modes as the inspection API and the --clock flag spell them.
const (
	ModeReal    = "real"
	ModeScaled  = "scaled"
	ModeVirtual = "virtual"
)

// NewRealClock returns wall-clock time.
func NewRealClock() Clock {
	return &scaledClock{scale: 1, start: time.Now(), base: time.Now(), workers: newWorkers()}
}

// NewScaledClock returns a clock on which scale cloud seconds pass for every
// real second (--time-scale): with scale 1000, a 10 s retry delay takes 10 ms.
func NewScaledClock(scale float64) (Clock, error) {
	if !(scale > 0) {
		return nil, fmt.Errorf("time scale must be greater than 0, got %v", scale)
	}
	now := time.Now()
	return &scaledClock{scale: scale, start: now, base: now, workers: newWorkers()}, nil
}

type scaledClock struct {
	scale float64
	start time.Time // real time when the clock started
	base  time.Time // cloud time at start
	seq   atomic.Uint64
	// workers run Go and goTask: attempts reuse the goroutines, and the
	// stacks, earlier attempts grew.
	workers *workers
}

func (c *scaledClock) Now() time.Time {
	if c.scale == 1 {
		return time.Now()
	}
	elapsed := time.Since(c.start)
	return c.base.Add(time.Duration(float64(elapsed) * c.scale))
}

func (c *scaledClock) AfterFunc(d time.Duration, f func()) Timer {
	if d <= 0 {
		// Due now (a route's next dispatch, most often): a worker runs
		// it, with no runtime timer and no new goroutine.
		t := &dueTimer{}
		c.workers.Go(func() {
			if t.stopped.CompareAndSwap(false, true) {
				f()
			}
		})
		return t
	}
	return time.AfterFunc(time.Duration(float64(d)/c.scale), f)
}

// dueTimer is a timer that was due when it was made: Stop stops it only if
// its function has not started.
type dueTimer struct{ stopped atomic.Bool }

func (t *dueTimer) Stop() bool { return t.stopped.CompareAndSwap(false, true) }

func (c *scaledClock) Go(f func()) { c.workers.Go(f) }

// nextSeq numbers timers in the order they are created; real timers due at
// one instant fire in no set order, so nothing else depends on it.
func (c *scaledClock) nextSeq() uint64 { return c.seq.Add(1) }

func (c *scaledClock) afterFuncAt(when time.Time, _ uint64, f func()) Timer {
	return c.AfterFunc(when.Sub(c.Now()), f)
}

// goTask runs f with task 0: a scaled clock never waits for work.
func (c *scaledClock) goTask(_ string, f func(task uint64)) { c.workers.Go(func() { f(0) }) }

func (c *scaledClock) setOutside(uint64, bool, time.Time) {}

func (c *scaledClock) answered(uint64) {}

func (c *scaledClock) Mode() string {
	if c.scale == 1 {
		return ModeReal
	}
	return ModeScaled
}

// VirtualClock moves only when Advance is called. Advance fires every timer
// that comes due, in time order, and waits for the work each one starts
// (including work that work starts) before it looks at the next timer, so a
// test sees the same sequence of attempts on every run.
type VirtualClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  timerHeap
	seq     uint64
	taskSeq uint64
	busy    map[uint64]*task // running work, by id
	idle    *sync.Cond
	advance sync.Mutex // one Advance at a time
	// advancing is true while an Advance runs (afterFuncAt).
	advancing bool

	// settle bounds how long Advance waits, in real time, for work that is
	// blocked on something outside the emulator (a webhook that never answers).
	// After it, such work is taken to be waiting for cloud time to pass.
	settle time.Duration
	// answer bounds how long Advance waits for work that has said it waits
	// outside the emulator (a delivery whose request is written and which
	// waits for the endpoint's answer): long enough for a local endpoint to
	// answer, so its outcome is acted on before time moves, but short, since
	// a webhook that never answers would otherwise cost a settle bound of
	// real time for every attempt an advance makes.
	answer time.Duration
	// silent holds, for the advance under way, the endpoints (goTask) that
	// have left an attempt unanswered past the answer bound. Their later
	// attempts are not awaited at all until one of them is answered: an
	// endpoint that never answers otherwise costs an answer bound of real
	// time for every instant an attempt to it starts at, and retries on a
	// rate limit or with jitter start at a new instant each, so an hour's
	// advance over 64 events to a hanging API destination took minutes.
	silent map[string]bool
	// probe is how long a silent endpoint's attempt is waited for, once,
	// before time reaches its response timeout: long enough for a local
	// endpoint that answers again to be seen, short, since it is paid for
	// each attempt to an endpoint that stays silent.
	probe time.Duration
}

// task is work in progress the virtual clock waits for.
type task struct {
	since    time.Time // real time it started, or last changed state
	outside  bool      // waiting for something outside the emulator
	endpoint string    // what it waits for outside (goTask), "" if unnamed
	deadline time.Time // when its response timeout fires, on the clock; zero: none
}

// answerWait is how long Advance waits for an answer from outside the
// emulator: a tenth of the settle bound (100 ms by default), at least 50 ms
// and at most the settle bound; a local endpoint answers well within it.
func answerWait(settle time.Duration) time.Duration {
	return min(settle, max(settle/10, 50*time.Millisecond))
}

// NewVirtualClock returns a virtual clock standing at start. settle is how
// long Advance waits for in-flight work (for example an HTTP delivery whose
// endpoint never answers) before it moves time anyway; 0 means one second.
func NewVirtualClock(start time.Time, settle time.Duration) *VirtualClock {
	if settle <= 0 {
		settle = time.Second
	}
	answer := answerWait(settle)
	c := &VirtualClock{now: start, settle: settle, answer: answer, probe: min(answer, max(answer/20, 5*time.Millisecond)),
		busy: make(map[uint64]*task), silent: make(map[string]bool)}
	c.idle = sync.NewCond(&c.mu)
	return c
}

// Mode implements Clock.
func (c *VirtualClock) Mode() string { return ModeVirtual }

// Now implements Clock.
func (c *VirtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements Clock.
func (c *VirtualClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d <= 0 {
		// Work due now runs without an advance (the first delivery attempt).
		go c.run(c.startTaskLocked(""), f)
		return stoppedTimer{}
	}
	c.seq++
	t := &virtualTimer{clock: c, when: c.now.Add(d), seq: c.seq, f: f, index: -1}
	heap.Push(&c.timers, t)
	return t
}

// Go implements Clock.
func (c *VirtualClock) Go(f func()) { c.goTask("", func(uint64) { f() }) }

// goTask is Go for work that tells the clock, by its id, when it waits
// outside the emulator for endpoint (setOutside).
func (c *VirtualClock) goTask(endpoint string, f func(id uint64)) {
	c.mu.Lock()
	id := c.startTaskLocked(endpoint)
	c.mu.Unlock()
	go c.run(id, func() { f(id) })
}

// startTaskLocked counts new work in progress. Ids start at 1: 0 is a clock
// that does not wait for work (orderedClock.goTask).
func (c *VirtualClock) startTaskLocked(endpoint string) uint64 {
	c.taskSeq++
	c.busy[c.taskSeq] = &task{since: time.Now(), endpoint: endpoint}
	return c.taskSeq
}

// answered says the endpoint task id waits for has begun to answer, so its
// attempts are awaited again for the answer bound.
func (c *VirtualClock) answered(id uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.busy[id]; ok && t.endpoint != "" {
		delete(c.silent, t.endpoint)
	}
}

// setOutside says that running task id now waits for something outside the
// emulator (true) — an answer cloud time cannot cause, so Advance waits for
// it only the short answer bound — or works again (false), awaited for up to
// the settle bound from now.
func (c *VirtualClock) setOutside(id uint64, outside bool, deadline time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.busy[id]
	if !ok || t.outside == outside {
		return
	}
	t.outside, t.since, t.deadline = outside, time.Now(), deadline
	c.idle.Broadcast() // a waiting Advance may now have less to wait for
}

func (c *VirtualClock) run(id uint64, f func()) {
	defer c.done(id)
	f()
}

func (c *VirtualClock) done(id uint64) {
	c.mu.Lock()
	delete(c.busy, id)
	c.idle.Broadcast()
	c.mu.Unlock()
}

// Advance moves the clock forward by d, firing every timer due on the way in
// time order, and returns the new time.
func (c *VirtualClock) Advance(d time.Duration) time.Time {
	if d < 0 {
		d = 0
	}
	c.advance.Lock()
	defer c.advance.Unlock()
	c.mu.Lock()
	target := c.now.Add(d)
	c.advancing = true
	// Each advance gives every endpoint its answer bound afresh: one that
	// was silent in the last may answer now (a test fixed it in between).
	clear(c.silent)
	c.mu.Unlock()
	for {
		c.waitIdle()
		c.mu.Lock()
		if len(c.timers) == 0 || c.timers[0].when.After(target) {
			c.now = target
			// Work still running from here on is not ordered by this
			// advance: a timer it sets for a time already reached runs at
			// once (afterFuncAt).
			c.advancing = false
			c.mu.Unlock()
			c.waitIdle()
			return target
		}
		t := heap.Pop(&c.timers).(*virtualTimer)
		if t.when.After(c.now) {
			c.now = t.when
		}
		id := c.startTaskLocked("")
		c.mu.Unlock()
		go c.run(id, t.f)
	}
}

// Settle waits until no work started by the clock is running (or the settle
// bound has passed for work blocked outside the emulator).
func (c *VirtualClock) Settle() { c.waitIdle() }

// Pending reports how many timers are waiting for the clock to reach them.
func (c *VirtualClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// NextAt reports when the earliest pending timer fires.
func (c *VirtualClock) NextAt() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return time.Time{}, false
	}
	return c.timers[0].when, true
}

// NextTimers reports when the earliest n pending timers fire, soonest
// first, so a dashboard can show what advancing the clock will wake.
func (c *VirtualClock) NextTimers(n int) []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	at := make([]time.Time, len(c.timers))
	for i, t := range c.timers {
		at[i] = t.when
	}
	sort.Slice(at, func(i, j int) bool { return at[i].Before(at[j]) })
	if n >= 0 && len(at) > n {
		at = at[:n]
	}
	return at
}

// waitIdle waits until every running task has finished or has run longer
// than its bound: the settle bound for work, the answer bound for work that
// said it waits outside the emulator. A task past its bound is blocked
// outside the emulator (a webhook that never answers); it is waiting for
// cloud time — its response timeout stays on this clock — so holding the
// clock for it would deadlock. Work it does later is woken by a timer of its
// own, or by the answer, and counted again then. An endpoint that has let an
// attempt pass its answer bound is silent for the rest of the advance: its
// attempts are not awaited until one of them is answered.
func (c *VirtualClock) waitIdle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		var next time.Duration // until the first fresh task passes its bound
		fresh := 0
		// While timers are due at this very instant, time does not move:
		// firing them does not change when an answer from outside is acted
		// on, so only work in the emulator is waited for; answers are
		// awaited, for all such attempts together, before time moves.
		sameInstant := len(c.timers) > 0 && !c.timers[0].when.After(c.now)
		for _, t := range c.busy {
			bound := c.settle
			if t.outside {
				if sameInstant {
					continue
				}
				bound = c.answer
				if c.silent[t.endpoint] {
					// Not waited for, unless time is about to reach the
					// attempt's own response timeout: then briefly, so
					// an answer that comes at once still counts.
					if t.deadline.IsZero() || (len(c.timers) > 0 && c.timers[0].when.Before(t.deadline)) {
						continue
					}
					bound = c.probe
				}
			}
			left := bound - time.Since(t.since)
			if left <= 0 {
				if t.outside && t.endpoint != "" {
					c.silent[t.endpoint] = true
				}
				continue
			}
			if fresh == 0 || left < next {
				next = left
			}
			fresh++
		}
		if fresh == 0 {
			return
		}
		// sync.Cond has no timed wait: wake up when the first fresh task
		// passes its bound.
		wake := time.AfterFunc(next, func() {
			c.mu.Lock()
			c.idle.Broadcast()
			c.mu.Unlock()
		})
		c.idle.Wait()
		wake.Stop()
	}
}

type stoppedTimer struct{}

func (stoppedTimer) Stop() bool { return false }

type virtualTimer struct {
	clock *VirtualClock
	when  time.Time
	seq   uint64 // ties broken by creation order
	f     func()
	index int
}

func (t *virtualTimer) Stop() bool {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.index < 0 {
		return false
	}
	heap.Remove(&c.timers, t.index)
	return true
}

type timerHeap []*virtualTimer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].when.Equal(h[j].when) {
		return h[i].seq < h[j].seq
	}
	return h[i].when.Before(h[j].when)
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *timerHeap) Push(x any) {
	t := x.(*virtualTimer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	n := len(old)
	t := old[n-1]
	old[n-1] = nil
	t.index = -1
	*h = old[:n-1]
	return t
}

// nextSeq takes the sequence number the next timer would get, for a caller
// that schedules the timer later with afterFuncAt but must keep its place
// among timers due at the same instant.
func (c *VirtualClock) nextSeq() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	return c.seq
}

// afterFuncAt schedules f at when with a sequence number from nextSeq.
// During an Advance a time already reached fires in its (when, seq) order
// among the timers due then; otherwise it runs at once, as AfterFunc with
// no wait does.
func (c *VirtualClock) afterFuncAt(when time.Time, seq uint64, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.advancing && !when.After(c.now) {
		go c.run(c.startTaskLocked(""), f)
		return stoppedTimer{}
	}
	t := &virtualTimer{clock: c, when: when, seq: seq, f: f, index: -1}
	heap.Push(&c.timers, t)
	return t
}
