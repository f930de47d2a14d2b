package httpserve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// aLongTimeAgo is a read deadline in the past: it ends a read at once.
var aLongTimeAgo = time.Unix(1, 0)

// conn is one client connection and everything its requests reuse.
type conn struct {
	srv        *Server
	rwc        net.Conn
	remoteAddr string
	state      atomic.Int32 // http.ConnState
	br         *bufio.Reader
	cr         connReader

	ctx    *watchCtx
	cancel context.CancelFunc

	// The request and what hangs off it, reused by every request.
	req     *http.Request
	blank   http.Request // carries ctx, which only WithContext can set
	url     url.URL
	hdr     http.Header
	vals    []string
	te      []string
	keys    map[string]*headerKey
	lastTgt string
	lastURL url.URL
	line    []byte // a request or header line longer than br's buffer
	body    body
	w       response

	// closeAfter ends the connection once the current answer is out;
	// linger closes it gently (closeGently).
	closeAfter bool
	linger     bool

	// The read deadline: rdl is what the socket has, [wantLo, wantHi] what
	// the current phase accepts (wantNone: no deadline). The socket's is
	// changed only before a read and only when outside the window, so a
	// busy keep-alive connection sets it a few times a minute, not twice a
	// request.
	rdl              time.Time
	wantLo, wantHi   time.Time
	wantNone         bool
	dateSec          int64
	date             []byte
	out              []byte
	bufs             *answerBuffers // c.w.buf's and out's while an answer is made
	watch            watcher
	bodyReadFinished bool
}

type headerKey struct {
	canon string
	last  string // the value last seen, reused when the next is equal
}

// maxHeaderKeys bounds the per-connection cache of header names, so a
// client inventing names cannot grow it.
const maxHeaderKeys = 64

func newConn(s *Server, rwc net.Conn, base context.Context) *conn {
	c := &conn{srv: s, rwc: rwc, remoteAddr: rwc.RemoteAddr().String()}
	c.cr.c = c
	c.state.Store(-1) // not yet StateNew, which is 0
	c.br = bufio.NewReaderSize(&c.cr, 4<<10)
	cctx, cancel := context.WithCancel(base)
	c.ctx = &watchCtx{Context: cctx, c: c}
	c.cancel = cancel
	c.blank = *(&http.Request{}).WithContext(c.ctx)
	c.req = new(http.Request)
	c.hdr = http.Header{}
	c.keys = map[string]*headerKey{}
	c.body.c = c
	c.body.eof = true // no request yet, so no body left unread
	c.w.c = c
	c.w.hdr = http.Header{}
	return c
}

func (c *conn) setState(st http.ConnState) {
	if http.ConnState(c.state.Swap(int32(st))) == st {
		return
	}
	if c.srv.ConnState != nil {
		c.srv.ConnState(c.rwc, st)
	}
}

// want sets the read deadline window of the current phase: at least d
// from now, at most d/8 later.
func (c *conn) want(d time.Duration) {
	if d <= 0 {
		c.wantNone = true
		return
	}
	now := time.Now()
	c.wantNone = false
	c.wantLo = now.Add(d)
	c.wantHi = c.wantLo.Add(d / 8)
}

// wantAt is an exact deadline from SetReadDeadline, with the same slack
// relative to the time left.
func (c *conn) wantAt(t time.Time) {
	if t.IsZero() {
		c.wantNone = true
		return
	}
	c.wantNone = false
	c.wantLo = t
	c.wantHi = t
	if left := time.Until(t); left > 0 {
		c.wantHi = t.Add(left / 8)
	}
}

func (c *conn) applyDeadline() {
	if c.wantNone {
		if !c.rdl.IsZero() {
			c.rdl = time.Time{}
			_ = c.rwc.SetReadDeadline(c.rdl)
		}
		return
	}
	if c.rdl.IsZero() || c.rdl.Before(c.wantLo) || c.rdl.After(c.wantHi) {
		c.rdl = c.wantHi
		_ = c.rwc.SetReadDeadline(c.rdl)
	}
}

// connReader is what br reads: the socket, behind the deadline window and
// the byte a watcher may have read.
type connReader struct{ c *conn }

func (r *connReader) Read(p []byte) (int, error) {
	c := r.c
	if len(p) == 0 {
		return 0, nil
	}
	if c.watch.hasByte {
		c.watch.hasByte = false
		p[0] = c.watch.b[0]
		return 1, nil
	}
	c.applyDeadline()
	return c.rwc.Read(p)
}

func (c *conn) serve() {
	defer c.finish()
	c.want(c.srv.ReadHeaderTimeout)
	for first := true; ; first = false {
		if !first {
			c.setState(http.StateIdle)
			c.want(c.srv.IdleTimeout)
		}
		if _, err := c.br.Peek(1); err != nil {
			return // closed, idle too long or never spoke: nothing to answer
		}
		if !first {
			c.want(c.srv.ReadHeaderTimeout)
		}
		if err := c.readRequest(); err != nil {
			c.setState(http.StateActive)
			var re *requestError
			if errors.As(err, &re) {
				c.writeError(re)
				c.linger = true
			}
			return
		}
		c.setState(http.StateActive)
		if c.srv.inShutdown.Load() {
			c.closeAfter = true
		}
		c.serveRequest()
		if c.closeAfter || c.w.err != nil {
			return
		}
	}
}

func (c *conn) finish() {
	c.cancel()
	if c.linger || !c.body.done() {
		c.closeGently()
	}
	_ = c.rwc.Close()
	c.setState(http.StateClosed)
	c.srv.untrack(c)
}

func (c *conn) serveRequest() {
	c.w.reset(c.req)
	c.bodyReadFinished = c.body.done()
	c.watch.begin(c.bodyReadFinished)
	aborted := c.runHandler()
	c.watch.end(c)
	if aborted {
		c.closeAfter = true
		return
	}
	c.w.finish()
	c.releaseBuffers()
}

// answerBuffers are the two buffers an answer is made in: the body the
// handler wrote, and what goes on the wire.
type answerBuffers struct{ body, out []byte }

// takeBuffers gives the request being answered the server's pooled
// buffers, so answer buffers belong to the requests in progress, not to
// every open keep-alive connection.
func (c *conn) takeBuffers() {
	b, ok := c.srv.buffers.Get().(*answerBuffers)
	if !ok {
		b = &answerBuffers{body: make([]byte, 0, 4<<10), out: make([]byte, 0, 4<<10)}
	}
	c.bufs, c.w.buf, c.out = b, b.body[:0], b.out[:0]
}

// releaseBuffers returns them when the answer is complete; one grown far
// beyond the usual answer is dropped instead of kept.
func (c *conn) releaseBuffers() {
	b := c.bufs
	if b == nil {
		return
	}
	b.body, b.out = c.w.buf[:0], c.out[:0]
	if cap(b.body) > 2*maxBuffered {
		b.body = make([]byte, 0, 4<<10)
	}
	if cap(b.out) > 2*maxBuffered+4<<10 {
		b.out = make([]byte, 0, 4<<10)
	}
	c.bufs, c.w.buf, c.out = nil, nil, nil
	c.srv.buffers.Put(b)
}

// runHandler runs the handler; a panic closes the connection, logged unless
// it is http.ErrAbortHandler (the emulator's own recoverPanics answers 500
// before one gets here).
func (c *conn) runHandler() (aborted bool) {
	defer func() {
		if v := recover(); v != nil {
			aborted = true
			if v != http.ErrAbortHandler && c.srv.Log != nil {
				c.srv.Log.Error("panic serving request", "remote", c.remoteAddr, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			}
		}
	}()
	c.srv.Handler.ServeHTTP(&c.w, c.req)
	return false
}

// closeGently ends a connection the client may still be sending on (a
// refused request, a body left unread): closing it outright would answer
// the unread bytes with a reset, which can destroy the answer before the
// client reads it. The write side closes first, and what still comes is
// read and dropped for a moment, as net/http does.
func (c *conn) closeGently() {
	cw, ok := c.rwc.(interface{ CloseWrite() error })
	if !ok || c.w.err != nil {
		return
	}
	_ = cw.CloseWrite()
	_ = c.rwc.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	_, _ = io.Copy(io.Discard, io.LimitReader(c.rwc, 1<<20))
}

// bodyEnded is called when the handler has read the request body to its
// end: from then on a handler that waits may watch the connection.
func (c *conn) bodyEnded() {
	if !c.bodyReadFinished {
		c.bodyReadFinished = true
		c.watch.bodyDone(c)
	}
}

// watcher notices a client that goes away while its handler waits, the
// one thing that needs a read beside the connection's goroutine. A request
// pays for it only when something asks for its context's Done channel
// (a long poll selecting on it) after its body was read: then a goroutine
// reads one byte, which is either the start of a pipelined request, kept
// for the next read, or the end of the connection, which cancels the
// context.
type watcher struct {
	mu       sync.Mutex
	wanted   bool // Done was asked during this request
	canWatch bool // the body is read and the handler runs
	running  bool
	stopping bool
	done     chan struct{}
	hasByte  bool
	b        [1]byte
}

func (w *watcher) begin(bodyRead bool) {
	w.mu.Lock()
	w.wanted = false
	w.canWatch = bodyRead
	w.mu.Unlock()
}

func (w *watcher) bodyDone(c *conn) {
	w.mu.Lock()
	w.canWatch = true
	if w.wanted && !w.running {
		w.startLocked(c)
	}
	w.mu.Unlock()
}

// want is Done's hook.
func (w *watcher) want(c *conn) {
	w.mu.Lock()
	if !w.wanted {
		w.wanted = true
		if w.canWatch && !w.running {
			w.startLocked(c)
		}
	}
	w.mu.Unlock()
}

func (w *watcher) startLocked(c *conn) {
	if w.hasByte {
		return // the client already sent more: it is there
	}
	w.running = true
	w.done = make(chan struct{})
	if !c.rdl.IsZero() {
		c.rdl = time.Time{}
		_ = c.rwc.SetReadDeadline(c.rdl)
	}
	go w.read(c)
}

func (w *watcher) read(c *conn) {
	n, err := c.rwc.Read(w.b[:])
	w.mu.Lock()
	if n == 1 {
		w.hasByte = true
	}
	if err != nil && !(w.stopping && errors.Is(err, os.ErrDeadlineExceeded)) {
		c.cancel() // the client has gone
	}
	done := w.done
	w.mu.Unlock()
	close(done)
}

// end stops a running watcher once the handler returned.
func (w *watcher) end(c *conn) {
	w.mu.Lock()
	w.canWatch = false
	running := w.running
	w.stopping = running
	done := w.done
	w.mu.Unlock()
	if !running {
		return
	}
	_ = c.rwc.SetReadDeadline(aLongTimeAgo)
	c.rdl = aLongTimeAgo
	<-done
	w.mu.Lock()
	w.running, w.stopping, w.done = false, false, nil
	w.mu.Unlock()
	if c.ctx.Err() != nil {
		c.closeAfter = true
	}
}

// watchCtx is the connection's context; asking for its Done channel arms
// the watcher. Its Value hands out the context.WithCancel beneath, so
// contexts derived from it register with that one instead of starting a
// goroutine each.
type watchCtx struct {
	context.Context
	c *conn
}

func (x *watchCtx) Done() <-chan struct{} {
	x.c.watch.want(x.c)
	return x.Context.Done()
}
