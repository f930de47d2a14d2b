// Package outbound is the transport of the emulator's outgoing deliveries
// (webhooks, API destinations): HTTP/1.1 over kept-alive connections, one
// goroutine per request.
//
// net/http's Transport runs a reader and a writer goroutine per connection
// and hands each request and answer between them and the caller; on a
// delivery path that makes one small POST per event, those hand-offs cost
// about as much CPU as the request's own system calls. This transport
// writes the request and reads the answer on the caller's goroutine and
// hands everything it does not make itself (a proxy, a body of unknown
// length, a header net/http would refuse) to a fallback net/http Transport,
// so what a caller sees does not depend on which of the two made the call.
package outbound

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/net/http/httpguts"
)

// maxResponseHeaderBytes bounds an answer's status line and headers, as
// net/http's Transport does by default.
const maxResponseHeaderBytes = 10 << 20

// maxKeptBuffer is the largest request buffer a connection keeps between
// requests; a larger one is dropped after its request.
const maxKeptBuffer = 64 << 10

// Transport is an http.RoundTripper. Its zero value is not usable: make it
// with New.
type Transport struct {
	fallback *http.Transport
	proxy    func(*http.Request) (*url.URL, error)
	tls      *tls.Config
	maxIdle  int
	dialer   net.Dialer

	// bufs holds request buffers (*[]byte) between requests: a request is
	// written from one, head and body, and the body is read into it
	// straight from the request.
	bufs sync.Pool

	mu sync.Mutex
	// idle holds the idle connections by host, most recently used last. A
	// host's entry stays, emptied, when its last idle connection is taken,
	// so the next one returned needs no new slice; CloseIdleConnections
	// and idle expiry drop it.
	idle map[connKey][]*conn
}

// connKey names the endpoint a connection goes to: a URL's scheme and its
// host as written (with or without the default port: two spellings of one
// endpoint only keep separate pools).
type connKey struct{ scheme, host string }

// New returns a Transport that keeps up to maxIdlePerHost idle connections
// a host, makes TLS connections with tlsConfig (nil: the defaults) and
// sends a request that proxy names a proxy for through fallback, which
// also makes whatever else this transport does not. fallback should be
// configured alike (same proxy and TLS settings).
func New(fallback *http.Transport, proxy func(*http.Request) (*url.URL, error), tlsConfig *tls.Config, maxIdlePerHost int) *Transport {
	return &Transport{
		fallback: fallback, proxy: proxy, tls: tlsConfig, maxIdle: maxIdlePerHost,
		dialer: net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second},
		idle:   map[connKey][]*conn{},
	}
}

// CloseIdleConnections closes the idle connections of both transports.
func (t *Transport) CloseIdleConnections() {
	t.mu.Lock()
	idle := t.idle
	t.idle = map[connKey][]*conn{}
	t.mu.Unlock()
	for _, cs := range idle {
		for _, c := range cs {
			c.idleTimer.Stop()
			c.nc.Close()
		}
	}
	t.fallback.CloseIdleConnections()
}

// RoundTrip makes one request.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.makes(req) {
		return t.fallback.RoundTrip(req)
	}
	buf := t.buffer()
	defer t.keep(buf)
	var err error
	if *buf, err = appendRequest((*buf)[:0], req); err != nil {
		return nil, err
	}
	key := connKey{req.URL.Scheme, req.URL.Host}
	for try := 0; ; try++ {
		c, reused, err := t.get(req.Context(), key, req.URL, try > 0)
		if err != nil {
			return nil, err
		}
		resp, retry, err := c.roundTrip(req, *buf, reused)
		if err == nil {
			return resp, nil
		}
		c.nc.Close()
		if !retry {
			return nil, err
		}
		// The server closed a kept-alive connection before it read the
		// request: nothing was delivered, so the request goes again, on a
		// new connection (the other idle ones may be closed too), as
		// net/http does.
	}
}

// makes reports whether the request is one this transport makes: HTTP/1.1
// to the URL's own host, a body of known length, headers net/http accepts.
func (t *Transport) makes(req *http.Request) bool {
	if req.URL == nil || (req.URL.Scheme != "http" && req.URL.Scheme != "https") || req.URL.Host == "" {
		return false
	}
	if req.Close || len(req.TransferEncoding) > 0 || len(req.Trailer) > 0 || req.Host != "" && req.Host != req.URL.Host {
		return false
	}
	if req.Body != nil && req.Body != http.NoBody && (req.ContentLength <= 0 || req.ContentLength > math.MaxInt32) {
		return false
	}
	if req.Method != "" && !validMethod(req.Method) {
		return false
	}
	for k, vs := range req.Header {
		if !httpguts.ValidHeaderFieldName(k) || hopByHop(k) {
			return false
		}
		for _, v := range vs {
			if !httpguts.ValidHeaderFieldValue(v) {
				return false
			}
		}
	}
	if t.proxy != nil {
		if u, err := t.proxy(req); err != nil || u != nil {
			return false
		}
	}
	return true
}

func validMethod(m string) bool {
	return strings.IndexFunc(m, func(r rune) bool { return !httpguts.IsTokenRune(r) }) < 0
}

// hopByHop names the headers that change how the connection behaves; a
// request carrying one goes through net/http, which knows them all.
func hopByHop(k string) bool {
	switch http.CanonicalHeaderKey(k) {
	case "Connection", "Transfer-Encoding", "Upgrade", "Te", "Trailer", "Keep-Alive", "Proxy-Connection", "Content-Length", "Host", "Expect":
		return true
	}
	return false
}

// buffer takes a request buffer from the pool, or makes one.
func (t *Transport) buffer() *[]byte {
	if b, ok := t.bufs.Get().(*[]byte); ok {
		return b
	}
	return new([]byte)
}

// keep returns a request buffer to the pool once its request is written
// and answered; a large one is dropped.
func (t *Transport) keep(b *[]byte) {
	if cap(*b) > maxKeptBuffer {
		return
	}
	t.bufs.Put(b)
}

// hostPort is the URL's host with its port, the scheme's default when it
// names none.
func hostPort(u *url.URL) string {
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(host, port)
}

// get takes an idle connection to key, or dials one (always, with dial).
func (t *Transport) get(ctx context.Context, key connKey, u *url.URL, dial bool) (*conn, bool, error) {
	if !dial {
		if c := t.takeIdle(key); c != nil {
			return c, true, nil
		}
	}
	nc, err := t.dialer.DialContext(ctx, "tcp", hostPort(u))
	if err != nil {
		return nil, false, err
	}
	if u.Scheme == "https" {
		cfg := &tls.Config{}
		if t.tls != nil {
			cfg = t.tls.Clone()
		}
		if cfg.ServerName == "" {
			cfg.ServerName = u.Hostname()
		}
		cfg.NextProtos = []string{"http/1.1"}
		tc := tls.Client(nc, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return nil, false, err
		}
		nc = tc
	}
	c := &conn{t: t, key: key, nc: nc}
	c.br = bufio.NewReader(&c.counted)
	c.counted.r = nc
	return c, false, nil
}

// takeIdle takes the most recently used idle connection to key, nil when
// there is none.
func (t *Transport) takeIdle(key connKey) *conn {
	t.mu.Lock()
	defer t.mu.Unlock()
	for cs := t.idle[key]; len(cs) > 0; cs = t.idle[key] {
		c := cs[len(cs)-1]
		cs[len(cs)-1] = nil
		t.idle[key] = cs[:len(cs)-1]
		if c.idleTimer.Stop() {
			return c
		}
		// Its idle time ran out as it was taken: the timer closes it.
	}
	return nil
}

// idleTimeout is how long a connection stays idle before it is closed, as
// in net/http's DefaultTransport: a webhook server that has gone (a test's
// own, on a port of its own) leaves no connection open for long.
const idleTimeout = 90 * time.Second

// put keeps c for the next request to its host, or closes it when the
// host has enough idle connections.
func (t *Transport) put(c *conn) {
	t.mu.Lock()
	if cs := t.idle[c.key]; len(cs) < t.maxIdle {
		t.idle[c.key] = append(cs, c)
		if c.idleTimer == nil {
			c.idleTimer = time.AfterFunc(idleTimeout, func() { t.expire(c) })
		} else {
			c.idleTimer.Reset(idleTimeout)
		}
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	c.nc.Close()
}

// expire closes c, idle for idleTimeout, and takes it out of the pool.
func (t *Transport) expire(c *conn) {
	t.mu.Lock()
	cs := t.idle[c.key]
	if i := slices.Index(cs, c); i >= 0 {
		cs = slices.Delete(cs, i, i+1)
		if len(cs) == 0 {
			delete(t.idle, c.key)
		} else {
			t.idle[c.key] = cs
		}
	}
	t.mu.Unlock()
	c.nc.Close()
}

// conn is one HTTP/1.1 connection, used by one request at a time.
type conn struct {
	t       *Transport
	key     connKey
	nc      net.Conn
	counted countingReader
	br      *bufio.Reader
	// idleTimer closes the connection once it has been idle for
	// idleTimeout; set on its first return to the pool.
	idleTimer *time.Timer
}

// countingReader counts what the connection has read and bounds it while
// headers are read.
type countingReader struct {
	r     io.Reader
	read  int64
	limit int64 // the read total at which reading fails; 0 for none
}

var errHeadersTooLarge = fmt.Errorf("net/http: server response headers exceeded %d bytes; aborted", maxResponseHeaderBytes)

func (r *countingReader) Read(p []byte) (int, error) {
	if r.limit > 0 {
		if r.read >= r.limit {
			return 0, errHeadersTooLarge
		}
		if rest := r.limit - r.read; int64(len(p)) > rest {
			p = p[:rest]
		}
	}
	n, err := r.r.Read(p)
	r.read += int64(n)
	return n, err
}

// aLongTimeAgo is a deadline that has passed: setting it ends a blocked
// read or write at once.
var aLongTimeAgo = time.Unix(1, 0)

// roundTrip writes the request and reads the answer's head. retry is true
// when the request failed on a kept-alive connection the server had
// closed before reading anything: it may go again.
func (c *conn) roundTrip(req *http.Request, wire []byte, reused bool) (resp *http.Response, retry bool, err error) {
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		return nil, false, context.Cause(ctx)
	}
	cancelled := false
	var stop func() bool
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, func() { _ = c.nc.SetDeadline(aLongTimeAgo) })
	}
	fail := func(err error, nothingRead bool) (*http.Response, bool, error) {
		if stop != nil && !stop() {
			cancelled = true
		}
		if cancelled {
			return nil, false, context.Cause(ctx)
		}
		return nil, reused && nothingRead && closedByPeer(err), err
	}
	if _, err := c.nc.Write(wire); err != nil {
		return fail(err, true)
	}
	readBefore := c.counted.read
	for {
		c.counted.limit = c.counted.read + int64(c.br.Buffered()) + maxResponseHeaderBytes
		resp, err = http.ReadResponse(c.br, req)
		c.counted.limit = 0
		if err != nil {
			return fail(err, c.counted.read == readBefore)
		}
		// 1xx answers other than 101 precede the real one.
		if resp.StatusCode < 100 || resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
	}
	resp.Body = &body1{rc: resp.Body, c: c, stop: stop, keep: !resp.Close && resp.StatusCode != http.StatusSwitchingProtocols}
	return resp, false, nil
}

// closedByPeer reports whether err says the server closed or reset the
// connection.
func closedByPeer(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// appendRequest writes the request's head and body as net/http's
// Transport would: the request line, Host, User-Agent unless the request
// sets its own, Content-Length, the headers in sorted order. The body,
// whose length is known and bounded, is read whole into b and closed.
func appendRequest(b []byte, req *http.Request) ([]byte, error) {
	hasBody := req.Body != nil && req.Body != http.NoBody
	if hasBody {
		defer req.Body.Close()
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	b = append(b, method...)
	b = append(b, ' ')
	b = appendRequestURI(b, req.URL)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, req.URL.Host...)
	b = append(b, "\r\n"...)
	if _, ok := req.Header["User-Agent"]; !ok {
		b = append(b, "User-Agent: Go-http-client/1.1\r\n"...)
	}
	var length int64
	if hasBody {
		length = req.ContentLength
	}
	if hasBody || method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, length, 10)
		b = append(b, "\r\n"...)
	}
	var keys [16]string
	names := keys[:0]
	for k := range req.Header {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, v := range req.Header[k] {
			if k == "User-Agent" && v == "" {
				continue // an empty User-Agent asks for none, as in net/http
			}
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, strings.TrimSpace(v)...)
			b = append(b, "\r\n"...)
		}
	}
	b = append(b, "\r\n"...)
	if !hasBody {
		return b, nil
	}
	head := len(b)
	b = slices.Grow(b, int(length))[:head+int(length)]
	if _, err := io.ReadFull(req.Body, b[head:]); err != nil {
		return b[:head], fmt.Errorf("http: ContentLength=%d with Body length shorter: %w", req.ContentLength, err)
	}
	return b, nil
}

// appendRequestURI appends u.RequestURI() without making it a string of
// its own first.
func appendRequestURI(b []byte, u *url.URL) []byte {
	if u.Opaque != "" {
		return append(b, u.RequestURI()...)
	}
	if p := u.EscapedPath(); p != "" {
		b = append(b, p...)
	} else {
		b = append(b, '/')
	}
	if u.ForceQuery || u.RawQuery != "" {
		b = append(b, '?')
		b = append(b, u.RawQuery...)
	}
	return b
}

// body1 is an answer's body: once read to its end and closed, its
// connection goes back to the pool; closed early, the connection is closed.
type body1 struct {
	rc   io.ReadCloser
	c    *conn
	stop func() bool
	keep bool
	eof  bool
	done bool
}

func (b *body1) Read(p []byte) (int, error) {
	if b.done {
		return 0, errors.New("http: read on closed response body")
	}
	n, err := b.rc.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

func (b *body1) Close() error {
	if b.done {
		return nil
	}
	b.done = true
	live := b.stop == nil || b.stop()
	if b.eof && b.keep && live {
		if err := b.rc.Close(); err != nil {
			b.c.nc.Close()
			return err
		}
		b.c.t.put(b.c)
		return nil
	}
	// Closed before its end: the connection goes, rather than reading the
	// rest of an answer nobody wants (net/http's body would drain it).
	b.c.nc.Close()
	_ = b.rc.Close()
	return nil
}
