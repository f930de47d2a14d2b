package httpserve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingListener counts the writes of the connections it accepts.
type countingListener struct {
	net.Listener
	writes *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.writes}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) CloseWrite() error { return c.Conn.(*net.TCPConn).CloseWrite() }

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

type testServer struct {
	srv    *Server
	addr   string
	writes atomic.Int64
}

func start(t *testing.T, h http.HandlerFunc, configure ...func(*Server)) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{addr: ln.Addr().String()}
	ts.srv = &Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 8 << 10}
	for _, f := range configure {
		f(ts.srv)
	}
	done := make(chan error, 1)
	go func() { done <- ts.srv.Serve(countingListener{ln, &ts.writes}) }()
	t.Cleanup(func() {
		_ = ts.srv.Close()
		if err := <-done; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v", err)
		}
	})
	return ts
}

type client struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

func (ts *testServer) dial(t *testing.T) *client {
	t.Helper()
	c, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	return &client{t: t, c: c, br: bufio.NewReader(c)}
}

func (cl *client) send(raw string) {
	cl.t.Helper()
	if _, err := io.WriteString(cl.c, raw); err != nil {
		cl.t.Fatal(err)
	}
}

// read reads one answer, its body whole.
func (cl *client) read(method string) (*http.Response, string) {
	cl.t.Helper()
	resp, err := http.ReadResponse(cl.br, &http.Request{Method: method})
	if err != nil {
		cl.t.Fatalf("reading the answer: %v", err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		cl.t.Fatalf("reading the answer's body: %v", err)
	}
	return resp, string(b)
}

// closed reports whether the server closed the connection.
func (cl *client) closed() bool {
	_, err := cl.br.ReadByte()
	return err == io.EOF
}

func echo(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	fmt.Fprintf(w, "%s %s host=%s len=%d body=%s", r.Method, r.URL.RequestURI(), r.Host, r.ContentLength, b)
}

func TestKeepAliveOneWritePerAnswer(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5")
		_, _ = w.Write([]byte("hello"))
	})
	cl := ts.dial(t)
	for i := range 3 {
		before := ts.writes.Load()
		cl.send("GET /x HTTP/1.1\r\nHost: a\r\n\r\n")
		resp, body := cl.read("GET")
		if resp.StatusCode != 200 || body != "hello" || resp.Close || resp.Header.Get("Date") == "" {
			t.Fatalf("request %d: %d %q close=%v %v", i, resp.StatusCode, body, resp.Close, resp.Header)
		}
		if n := ts.writes.Load() - before; n != 1 {
			t.Errorf("request %d took %d writes, want 1", i, n)
		}
	}
}

func TestAnswerWithoutContentLengthFitsOneWrite(t *testing.T) {
	ts := start(t, echo)
	cl := ts.dial(t)
	cl.send("POST /q?a=1 HTTP/1.1\r\nHost: h:1\r\nContent-Length: 3\r\n\r\nabc")
	resp, body := cl.read("POST")
	if body != "POST /q?a=1 host=h:1 len=3 body=abc" || resp.ContentLength != int64(len(body)) {
		t.Fatalf("%q, Content-Length %d", body, resp.ContentLength)
	}
	if n := ts.writes.Load(); n != 1 {
		t.Errorf("%d writes, want 1", n)
	}
}

func TestConnectionClose(t *testing.T) {
	ts := start(t, echo)
	cl := ts.dial(t)
	cl.send("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
	resp, _ := cl.read("GET")
	if !resp.Close {
		t.Error("the answer does not say Connection: close")
	}
	if !cl.closed() {
		t.Error("the connection stayed open")
	}
}

func TestHandlerSaysConnectionClose(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		_, _ = io.WriteString(w, "bye")
	})
	cl := ts.dial(t)
	cl.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
	if resp, _ := cl.read("GET"); !resp.Close || !cl.closed() {
		t.Error("a handler's Connection: close was not honoured")
	}
}

func TestHTTP10(t *testing.T) {
	ts := start(t, echo)
	cl := ts.dial(t)
	cl.send("GET /a HTTP/1.0\r\n\r\n")
	resp, body := cl.read("GET")
	if resp.Proto != "HTTP/1.0" || body != "GET /a host= len=0 body=" || !cl.closed() {
		t.Fatalf("%s %q; want HTTP/1.0, closed", resp.Proto, body)
	}
	cl = ts.dial(t)
	cl.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n")
	if resp, _ := cl.read("GET"); resp.Close {
		t.Error("keep-alive HTTP/1.0 request closed")
	}
	if _, body := cl.read("GET"); body != "GET /b host= len=0 body=" || !cl.closed() {
		t.Errorf("second answer %q", body)
	}
}

func TestHTTP10StreamingEndsWithConnection(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "part")
		w.(http.Flusher).Flush()
		_, _ = io.WriteString(w, "rest")
	})
	cl := ts.dial(t)
	cl.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
	resp, body := cl.read("GET")
	if body != "partrest" || resp.ContentLength != -1 || !resp.Close {
		t.Fatalf("%q len %d close %v", body, resp.ContentLength, resp.Close)
	}
}

func TestPipelined(t *testing.T) {
	ts := start(t, echo)
	cl := ts.dial(t)
	cl.send("POST /1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nxyGET /2 HTTP/1.1\r\nHost: a\r\n\r\nPOST /3 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
	for _, want := range []string{"POST /1 host=a len=2 body=xy", "GET /2 host=a len=0 body=", "POST /3 host=a len=-1 body=abc"} {
		if _, body := cl.read("GET"); body != want {
			t.Fatalf("%q, want %q", body, want)
		}
	}
}

func TestChunkedRequestBody(t *testing.T) {
	ts := start(t, echo)
	cl := ts.dial(t)
	cl.send("PUT /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nwiki\r\n5\r\npedia\r\n0\r\nTrailer: x\r\n\r\n")
	if _, body := cl.read("PUT"); body != "PUT /c host=a len=-1 body=wikipedia" {
		t.Fatalf("%q", body)
	}
	cl.send("GET /next HTTP/1.1\r\nHost: a\r\n\r\n")
	if _, body := cl.read("GET"); body != "GET /next host=a len=0 body=" {
		t.Fatalf("after a chunked body: %q", body)
	}
}

func TestExpectContinue(t *testing.T) {
	ts := start(t, echo)
	cl := ts.dial(t)
	cl.send("POST /e HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
	resp, err := http.ReadResponse(cl.br, nil)
	if err != nil || resp.StatusCode != http.StatusContinue {
		t.Fatalf("want 100 Continue first: %v %v", resp, err)
	}
	cl.send("body")
	if _, body := cl.read("POST"); body != "POST /e host=a len=4 body=body" {
		t.Fatalf("%q", body)
	}
}

// A handler that answers without reading the body gets no 100 sent for it,
// and the connection closes, since the client may or may not send it.
func TestExpectContinueUnread(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	})
	cl := ts.dial(t)
	cl.send("POST /e HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
	resp, _ := cl.read("POST")
	if resp.StatusCode != http.StatusForbidden || !resp.Close || !cl.closed() {
		t.Fatalf("%d close %v, want 403 and close", resp.StatusCode, resp.Close)
	}
}

func TestHead(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "twelve bytes")
	})
	cl := ts.dial(t)
	cl.send("HEAD / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")
	resp, body := cl.read("HEAD")
	if resp.ContentLength != 12 || body != "" {
		t.Fatalf("HEAD: Content-Length %d body %q", resp.ContentLength, body)
	}
	if _, body := cl.read("GET"); body != "twelve bytes" {
		t.Fatalf("GET after HEAD: %q", body)
	}
}

func TestAbsoluteFormTarget(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s|%s|%s|%s", r.Host, r.URL.Host, r.URL.Path, r.URL.RawQuery)
	})
	cl := ts.dial(t)
	cl.send("GET http://example.test:8/p%20q?x=1 HTTP/1.1\r\nHost: other\r\n\r\n")
	if _, body := cl.read("GET"); body != "example.test:8|example.test:8|/p q|x=1" {
		t.Fatalf("%q", body)
	}
}

func TestOriginFormTargetIsCachedPerConnectionNotShared(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = "/mutated" // a handler may change it; the next request must not see that
		_, _ = io.WriteString(w, r.RequestURI)
	})
	cl := ts.dial(t)
	for range 2 {
		cl.send("GET /same?q HTTP/1.1\r\nHost: a\r\n\r\n")
		if _, body := cl.read("GET"); body != "/same?q" {
			t.Fatalf("%q", body)
		}
	}
}

func TestHeadersReachTheHandler(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%q %q %q %v", r.Header.Values("X-Multi"), r.Header.Get("Content-Type"), r.Header.Get("Host"), r.Header["Expect"])
	})
	cl := ts.dial(t)
	for range 2 {
		cl.send("GET / HTTP/1.1\r\nhost: a\r\nx-multi: 1\r\nX-MULTI:  2 \r\ncontent-type:text/plain\r\n\r\n")
		if _, body := cl.read("GET"); body != `["1" "2"] "text/plain" "" []` {
			t.Fatalf("%s", body)
		}
	}
}

// The server answers bad input itself and closes; the handler never sees it.
func TestBadRequests(t *testing.T) {
	cases := []struct {
		name, raw string
		status    int
	}{
		{"garbage request line", "\x00\x01garbage\r\n\r\n", 400},
		{"no version", "GET /\r\n\r\n", 400},
		{"bad version", "GET / HTTP/x.y\r\nHost: a\r\n\r\n", 400},
		{"HTTP/2", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505},
		{"bad method", "G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400},
		{"relative target", "GET x HTTP/1.1\r\nHost: a\r\n\r\n", 400},
		{"missing Host", "GET / HTTP/1.1\r\n\r\n", 400},
		{"two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},
		{"bad Host", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400},
		{"header without colon", "GET / HTTP/1.1\r\nHost: a\r\nnocolon\r\n\r\n", 400},
		{"bad header name", "GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n", 400},
		{"control in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\x01b\r\n\r\n", 400},
		{"line folding", "GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n  b\r\n\r\n", 400},
		{"bad Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n", 400},
		{"negative Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400},
		{"conflicting Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400},
		{"both framings", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
		{"unknown transfer encoding", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
		{"unknown expectation", "POST / HTTP/1.1\r\nHost: a\r\nExpect: tea\r\nContent-Length: 1\r\n\r\nx", 417},
		{"huge header", "GET / HTTP/1.1\r\nHost: a\r\nX: " + strings.Repeat("v", 9<<10) + "\r\n\r\n", 431},
		{"many headers", "GET / HTTP/1.1\r\nHost: a\r\n" + strings.Repeat("X: 0123456789\r\n", 1000) + "\r\n", 431},
		{"huge request line", "GET /" + strings.Repeat("p", 9<<10) + " HTTP/1.1\r\nHost: a\r\n\r\n", 431},
		{"bad chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
		{"chunk size overflow", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n", 400},
		{"chunk without CRLF", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n0\r\n\r\n", 400},
	}
	var handled atomic.Int64
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		handled.Add(1)
		// Reads the body and ignores its error, as a careless handler
		// would: the server answers 400 for a malformed chunked body.
		_, _ = io.Copy(io.Discard, r.Body)
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cl := ts.dial(t)
			cl.send(tc.raw)
			resp, _ := cl.read("GET")
			if resp.StatusCode != tc.status || !resp.Close {
				t.Errorf("%d close %v, want %d and close", resp.StatusCode, resp.Close, tc.status)
			}
			if !cl.closed() {
				t.Error("connection left open")
			}
		})
	}
	if n := handled.Load(); n != 3 {
		t.Errorf("the handler saw %d requests, want only the 3 with bad chunks", n)
	}
}

func TestUnreadBodyIsDrainedOrClosed(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "ok")
	})
	cl := ts.dial(t)
	cl.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789GET /2 HTTP/1.1\r\nHost: a\r\n\r\n")
	if resp, _ := cl.read("POST"); resp.Close {
		t.Fatal("a small unread body closed the connection")
	}
	if _, body := cl.read("GET"); body != "ok" {
		t.Fatalf("after a drained body: %q", body)
	}
	// More than the drain bound: the answer says close.
	size := maxDrain + 10<<10
	go func() {
		_, _ = fmt.Fprintf(cl.c, "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: %d\r\n\r\n%s", size, strings.Repeat("x", size))
	}()
	if resp, _ := cl.read("POST"); !resp.Close {
		t.Error("a big unread body kept the connection")
	}
}

func TestStreamingAnswerIsChunked(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "first,")
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Error(err)
		}
		_, _ = w.Write([]byte(strings.Repeat("z", maxBuffered+5)))
	})
	cl := ts.dial(t)
	cl.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
	resp, body := cl.read("GET")
	if len(resp.TransferEncoding) != 1 || body != "first,"+strings.Repeat("z", maxBuffered+5) {
		t.Fatalf("TE %v, %d bytes", resp.TransferEncoding, len(body))
	}
	cl.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
	if _, body := cl.read("GET"); len(body) != maxBuffered+11 {
		t.Fatalf("second answer %d bytes", len(body))
	}
}

func TestNoBodyStatuses(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
		if _, err := w.Write([]byte("x")); err != http.ErrBodyNotAllowed {
			t.Errorf("Write after 204: %v", err)
		}
	})
	cl := ts.dial(t)
	cl.send("GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")
	for range 2 {
		if resp, _ := cl.read("GET"); resp.StatusCode != 204 || resp.Close {
			t.Fatalf("%d close %v", resp.StatusCode, resp.Close)
		}
	}
}

func TestShortBodyClosesConnection(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "10")
		_, _ = io.WriteString(w, "short")
		if _, err := io.WriteString(w, "toolong"); err != http.ErrContentLength {
			t.Errorf("writing past Content-Length: %v", err)
		}
	})
	cl := ts.dial(t)
	cl.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
	resp, err := http.ReadResponse(cl.br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(resp.Body); err != io.ErrUnexpectedEOF {
		t.Errorf("reading a short body: %v, want unexpected EOF", err)
	}
}

func TestPanicClosesConnectionOnly(t *testing.T) {
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panic" {
			panic("boom")
		}
		_, _ = io.WriteString(w, "alive")
	})
	cl := ts.dial(t)
	cl.send("GET /panic HTTP/1.1\r\nHost: a\r\n\r\n")
	if !cl.closed() {
		t.Fatal("a panicking handler's connection stayed open")
	}
	cl = ts.dial(t)
	cl.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
	if _, body := cl.read("GET"); body != "alive" {
		t.Fatalf("after a panic: %q", body)
	}
}

// A handler that waits on its context (a long poll) sees it end when the
// client goes away.
func TestContextEndsWhenClientGoes(t *testing.T) {
	ended := make(chan error, 1)
	waiting := make(chan struct{})
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		done := r.Context().Done()
		close(waiting)
		select {
		case <-done:
			ended <- r.Context().Err()
		case <-time.After(20 * time.Second):
			ended <- errors.New("the context did not end")
		}
	})
	cl := ts.dial(t)
	cl.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
	<-waiting
	_ = cl.c.Close()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("context after the client left: %v", err)
	}
}

// A handler that waits while its client sends the next request keeps its
// context, and the next request is served whole, whether or not the
// watcher read its first byte.
func TestContextSurvivesPipelinedRequest(t *testing.T) {
	waiting := make(chan struct{})
	release := make(chan struct{})
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/wait" {
			done := r.Context().Done()
			close(waiting)
			select {
			case <-done:
				t.Error("context ended though the client stayed")
			case <-release:
			}
		}
		_, _ = io.WriteString(w, r.URL.Path)
	})
	cl := ts.dial(t)
	cl.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
	<-waiting
	cl.send("GET /next HTTP/1.1\r\nHost: a\r\n\r\n")
	close(release)
	for _, want := range []string{"/wait", "/next"} {
		if _, body := cl.read("GET"); body != want {
			t.Fatalf("%q, want %q", body, want)
		}
	}
}

func TestBaseContextAndReadDeadline(t *testing.T) {
	type key struct{}
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
			t.Error(err)
		}
		_, err := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%v %v", r.Context().Value(key{}), err != nil)
	}, func(s *Server) {
		s.BaseContext = func(net.Listener) context.Context { return context.WithValue(context.Background(), key{}, "base") }
	})
	cl := ts.dial(t)
	cl.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab") // three bytes never come
	resp, body := cl.read("POST")
	if body != "base true" || !resp.Close {
		t.Fatalf("%q close %v; want the base context's value and a read timeout", body, resp.Close)
	}
}

func TestIdleAndHeaderTimeouts(t *testing.T) {
	ts := start(t, echo, func(s *Server) {
		s.IdleTimeout = 100 * time.Millisecond
		s.ReadHeaderTimeout = 100 * time.Millisecond
	})
	cl := ts.dial(t)
	cl.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
	cl.read("GET")
	if !cl.closed() {
		t.Error("an idle connection stayed open")
	}
	cl = ts.dial(t)
	cl.send("GET / HTTP/1.1\r\nHost: a\r\n") // headers never end
	if !cl.closed() {
		t.Error("a connection with unfinished headers stayed open")
	}
}

func TestShutdown(t *testing.T) {
	var states sync.Map
	release := make(chan struct{})
	started := make(chan struct{})
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(started)
			<-release
		}
		_, _ = io.WriteString(w, "done")
	}, func(s *Server) {
		s.ConnState = func(c net.Conn, st http.ConnState) { states.Store(st, true) }
	})
	idle := ts.dial(t)
	idle.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
	idle.read("GET")
	busy := ts.dial(t)
	busy.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
	<-started
	shut := make(chan error, 1)
	go func() { shut <- ts.srv.Shutdown(context.Background()) }()
	if !idle.closed() {
		t.Error("Shutdown left an idle connection open")
	}
	close(release)
	resp, body := busy.read("GET")
	if body != "done" || !resp.Close {
		t.Errorf("the request in flight: %q close %v", body, resp.Close)
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	if _, err := net.Dial("tcp", ts.addr); err == nil {
		t.Error("still accepting after Shutdown")
	}
	for _, st := range []http.ConnState{http.StateNew, http.StateActive, http.StateIdle, http.StateClosed} {
		if _, ok := states.Load(st); !ok {
			t.Errorf("ConnState never told of %v", st)
		}
	}
}

func TestShutdownGivesUpWithItsContext(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
	})
	t.Cleanup(func() { close(release) })
	cl := ts.dial(t)
	cl.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown with a busy request: %v", err)
	}
}

// An idle keep-alive connection holds no answer buffers: they go back to
// the server's pool when the answer is complete, so memory follows the
// requests in progress, not the connections open.
func TestIdleConnectionsHoldNoAnswerBuffers(t *testing.T) {
	idle := make(chan net.Conn, 16)
	big := strings.Repeat("x", 20<<10)
	ts := start(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, big)
	}, func(s *Server) {
		s.ConnState = func(c net.Conn, st http.ConnState) {
			if st == http.StateIdle {
				idle <- c
			}
		}
	})
	for range 8 {
		cl := ts.dial(t)
		cl.send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
		if resp, body := cl.read("GET"); resp.StatusCode != 200 || body != big {
			t.Fatalf("answer %d with %d bytes", resp.StatusCode, len(body))
		}
		<-idle // the connection went idle after its answer
	}
	ts.srv.mu.Lock()
	defer ts.srv.mu.Unlock()
	if len(ts.srv.conns) != 8 {
		t.Fatalf("%d connections open, want 8", len(ts.srv.conns))
	}
	for c := range ts.srv.conns {
		if c.bufs != nil || c.out != nil || c.w.buf != nil {
			t.Errorf("an idle connection holds answer buffers: %d and %d bytes", cap(c.out), cap(c.w.buf))
		}
	}
}
