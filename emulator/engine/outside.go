package engine

import (
	"context"
	"net/http/httptrace"
	"sync"
	"time"
)

// A virtual clock waits, after each timer it fires, for the work the timer
// started, so a test sees the same sequence of attempts on every run. A
// delivery attempt whose request is written waits for its endpoint, and no
// amount of waiting by the clock makes a webhook that never answers answer:
// only its response timeout, on the same clock, ends the attempt. So once the
// request is on the wire the attempt tells the clock it waits outside the
// emulator, and the clock waits for it only the short answer bound (long
// enough for a local endpoint's answer to be acted on before time moves)
// instead of the settle bound meant for work still computing. Without it
// every attempt to a hanging webhook cost a full settle bound of real time:
// an hour's advance over 64 such events took 50 s. And once an endpoint has
// let one attempt pass the answer bound, the clock does not wait for its
// other attempts in that advance until one is answered, except briefly (the
// probe bound) before time reaches an attempt's own response timeout, so an
// endpoint that answers again mid-advance is seen: otherwise every instant
// an attempt starts at (retries spread by jitter or a rate limit) cost the
// answer bound again.

// outsideMark lets a delivery attempt say when it waits for the endpoint.
// With task 0 (a clock that does not wait for work) it does nothing.
type outsideMark struct {
	clock Clock
	task  uint64
}

// goAttempts runs f as clock work on route rs, with the mark its attempts
// use; the route is the endpoint the clock stops waiting for once it has
// left an attempt unanswered.
func (e *Engine) goAttempts(rs *routeState, f func(m outsideMark)) {
	e.clock.goTask(rs.route.ID, func(task uint64) { f(outsideMark{clock: e.clock, task: task}) })
}

// awaited reports whether the clock waits for the attempt's work (a
// virtual clock's task); on real and scaled time nothing does.
func (m outsideMark) awaited() bool { return m.task != 0 }

// start begins one attempt's watch of its request, whose response timeout
// fires at deadline on the clock.
func (m outsideMark) start(deadline time.Time) *outsideWatch {
	return &outsideWatch{mark: m, deadline: deadline}
}

// outsideWatch follows one attempt's HTTP exchanges. The request being
// written and the answer arriving are reported by the transport's own
// goroutines and may race with the attempt ending (a server may answer
// before the body is fully sent); once ended, the watch ignores them, so a
// late "written" never marks an attempt that is acting on its outcome.
type outsideWatch struct {
	mark     outsideMark
	deadline time.Time
	mu       sync.Mutex
	ended    bool
}

func (w *outsideWatch) set(outside bool) {
	if w.mark.task == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.ended {
		w.mark.clock.setOutside(w.mark.task, outside, w.deadline)
	}
}

// trace returns ctx with hooks that mark the attempt outside once a request
// is written and back at work when its answer starts to arrive (a
// destination may make several requests: SDK retries, redirects).
// Destinations that do not speak HTTP never fire them and stay awaited as
// work.
func (w *outsideWatch) trace(ctx context.Context) context.Context {
	if w.mark.task == 0 {
		return ctx
	}
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { w.set(true) },
		GotFirstResponseByte: func() {
			w.mark.clock.answered(w.mark.task)
			w.set(false)
		},
	})
}

// end marks the attempt back at work, for good: it has its outcome (or its
// response timeout fired) and acts on it before the clock moves on.
func (w *outsideWatch) end() {
	w.set(false)
	w.mu.Lock()
	w.ended = true
	w.mu.Unlock()
}
