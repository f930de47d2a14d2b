package emulator

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// ShutdownGrace bounds how long Close lets requests in flight finish before
// it closes their connections. Long polls (an SQS ReceiveMessage with
// WaitTimeSeconds, an inspection wait, the dashboard's live view) do not
// count against it: their contexts end when Close starts, so they answer at
// once. A container runtime's stop (SIGTERM, then SIGKILL after 10 s) and a
// test's cleanup both see the process gone well within a second.
const ShutdownGrace = 500 * time.Millisecond

// lifecycle is what Close needs from the listeners: one context that every
// request's context derives from, ended when shutdown starts, and the
// connections that have not sent a request yet.
type lifecycle struct {
	requests context.Context
	stop     context.CancelFunc

	mu sync.Mutex
	// fresh holds the connections in http.StateNew. net/http's Shutdown
	// counts them as busy for 5 s after they were accepted; Close closes
	// them at once instead (a client that connected but never sent a
	// request loses nothing).
	fresh map[net.Conn]struct{}
	// changed is closed whenever running or fresh changes, for a test
	// that waits for a connection or a request; it is made when counts is
	// asked (nil until then), so requests nobody waits on do not each make
	// a channel.
	changed chan struct{}
	// nfresh is len(fresh), read without the lock.
	nfresh atomic.Int32

	// running counts the requests being served, outside mu: every request
	// changes it twice, and two lock round trips a request were most of
	// track's cost. watched is set (for good) once counts has been asked;
	// until then nobody can be waiting on changed and count takes no lock.
	running atomic.Int64
	watched atomic.Bool
}

func newLifecycle() *lifecycle {
	ctx, stop := context.WithCancel(context.Background())
	return &lifecycle{requests: ctx, stop: stop, fresh: map[net.Conn]struct{}{}}
}

// track counts the requests next serves.
func (l *lifecycle) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.count(1)
		defer l.count(-1)
		next.ServeHTTP(w, r)
	})
}

func (l *lifecycle) count(delta int64) {
	l.running.Add(delta)
	// counts sets watched before it reads running, and count reads
	// watched after it changes running: either counts sees this change or
	// count sees watched and closes the channel counts handed out.
	if l.watched.Load() {
		l.mu.Lock()
		l.notifyLocked()
		l.mu.Unlock()
	}
}

// counts are the requests being served and the connections that have not
// sent one, and a channel closed when either next changes.
func (l *lifecycle) counts() (running, fresh int, changed <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.changed == nil {
		l.changed = make(chan struct{})
	}
	l.watched.Store(true)
	return int(l.running.Load()), len(l.fresh), l.changed
}

// baseContext is http.Server.BaseContext: requests' contexts end when
// shutdown starts.
func (l *lifecycle) baseContext(net.Listener) context.Context { return l.requests }

// connState is http.Server.ConnState: it keeps track of the connections
// that have not sent a request yet.
func (l *lifecycle) connState(c net.Conn, state http.ConnState) {
	if state != http.StateNew && l.nfresh.Load() == 0 {
		return // the common case, a request on a used connection: no lock
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if state == http.StateNew {
		l.fresh[c] = struct{}{}
		l.nfresh.Store(int32(len(l.fresh)))
	} else if _, ok := l.fresh[c]; ok {
		delete(l.fresh, c)
		l.nfresh.Store(int32(len(l.fresh)))
	} else {
		return
	}
	l.notifyLocked()
}

func (l *lifecycle) notifyLocked() {
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
}

// closeFresh closes the connections that never sent a request.
func (l *lifecycle) closeFresh() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.fresh) == 0 {
		return
	}
	for c := range l.fresh {
		_ = c.Close()
		delete(l.fresh, c)
	}
	l.nfresh.Store(0)
	l.notifyLocked()
}

// server is a listener's server: net/http's or httpserve's.
type server interface {
	Shutdown(context.Context) error
	Close() error
}

// shutdown stops the servers: no new connections, long polls ended (their
// contexts), idle and never-used connections closed, requests in flight
// given grace to finish and then cut off. forced reports whether grace ran
// out, and cutOff how many requests were still running then.
func (l *lifecycle) shutdown(grace time.Duration, servers ...server) (forced bool, cutOff int) {
	l.stop()
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, srv := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if srv.Shutdown(ctx) != nil {
				// Grace is over: close what is left.
				mu.Lock()
				if !forced {
					forced = true
					cutOff, _, _ = l.counts()
				}
				mu.Unlock()
				_ = srv.Close()
			}
		}()
	}
	// Shutdown closes the listeners first; a connection accepted just
	// before is closed on the next pass.
	done := waitChan(&wg)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		l.closeFresh()
		select {
		case <-done:
			return forced, cutOff
		case <-tick.C:
		}
	}
}

func waitChan(wg *sync.WaitGroup) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}
