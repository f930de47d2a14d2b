// Package httpserve is a lean HTTP/1.1 server for an http.Handler: one
// goroutine per connection and no other per request, a request, header
// map, reader and answer buffer reused by every request of a connection,
// and one write per answer that fits the buffer. It serves the emulator's
// plain-HTTP listener, where net/http's general machinery (a goroutine
// reading behind every request, fresh maps and allocations per header,
// two writes per answer) cost more CPU than the emulator's own work.
//
// What it does not do, since the emulator's clients do not need it:
// HTTP/2 (the TLS listener stays on net/http), Hijack, response trailers.
//
// Differences from net/http a handler can see: the *http.Request, its
// Header and URL are reused by the connection's next request, so a handler
// must not keep them after it returns (copy what it keeps); and a
// request's context ends when its client goes away, the connection closes
// or the server shuts down, not when the handler returns.
package httpserve

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Server serves HTTP/1.1 on the listeners given to Serve.
type Server struct {
	Handler http.Handler
	// ReadHeaderTimeout bounds reading a request's header block, counted
	// from its first byte (from the accept for a connection's first).
	ReadHeaderTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that sends no request.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's line and header block; a larger one
	// is answered 431.
	MaxHeaderBytes int
	// BaseContext gives the context every request's context derives from.
	BaseContext func(net.Listener) context.Context
	// ConnState is told of a connection's states as net/http's is.
	ConnState func(net.Conn, http.ConnState)
	// Log records handler panics; nil discards them.
	Log *slog.Logger

	inShutdown atomic.Bool
	// buffers pools the answers' buffers (conn.takeBuffers).
	buffers sync.Pool

	mu        sync.Mutex
	listeners map[net.Listener]struct{}
	conns     map[*conn]struct{}
}

// ErrServerClosed is what Serve returns after Shutdown or Close.
var ErrServerClosed = http.ErrServerClosed

// Serve accepts connections on ln and serves each on a goroutine of its
// own. It returns ErrServerClosed once Shutdown or Close has been called.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.inShutdown.Load() {
		s.mu.Unlock()
		_ = ln.Close()
		return ErrServerClosed
	}
	if s.listeners == nil {
		s.listeners = map[net.Listener]struct{}{}
		s.conns = map[*conn]struct{}{}
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
	}()
	base := context.Background()
	if s.BaseContext != nil {
		base = s.BaseContext(ln)
	}
	var delay time.Duration
	for {
		rwc, err := ln.Accept()
		if err != nil {
			if s.inShutdown.Load() {
				return ErrServerClosed
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			// Out of file descriptors and the like: wait and try again, as
			// net/http does, rather than spin or stop serving.
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			time.Sleep(delay)
			continue
		}
		delay = 0
		c := newConn(s, rwc, base)
		if !s.track(c) {
			_ = rwc.Close()
			return ErrServerClosed
		}
		c.setState(http.StateNew)
		go c.serve()
	}
}

func (s *Server) track(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inShutdown.Load() {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) untrack(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

func (s *Server) closeListenersLocked() {
	for ln := range s.listeners {
		_ = ln.Close()
		delete(s.listeners, ln)
	}
}

// Shutdown stops accepting, closes idle connections (and those that never
// sent a request) and waits for the others to finish their request, until
// ctx ends; then it returns ctx's error and leaves them to Close.
func (s *Server) Shutdown(ctx context.Context) error {
	s.inShutdown.Store(true)
	s.mu.Lock()
	s.closeListenersLocked()
	s.mu.Unlock()
	poll := time.Millisecond
	timer := time.NewTimer(poll)
	defer timer.Stop()
	for {
		if s.closeIdle() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
			poll = min(2*poll, 50*time.Millisecond)
			timer.Reset(poll)
		}
	}
}

// closeIdle closes the connections waiting for a request and reports
// whether none is serving one.
func (s *Server) closeIdle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	quiet := true
	for c := range s.conns {
		switch http.ConnState(c.state.Load()) {
		case http.StateIdle, http.StateNew:
			_ = c.rwc.Close()
		case http.StateActive:
			quiet = false
		}
	}
	return quiet
}

// Close stops accepting and closes every connection at once.
func (s *Server) Close() error {
	s.inShutdown.Store(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeListenersLocked()
	for c := range s.conns {
		_ = c.rwc.Close()
	}
	return nil
}
