package httpserve

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// pipeConn is a connection whose client sent in and closed: the server
// reads in, writes to out, and every deadline is a no-op.
type pipeConn struct {
	in  *bytes.Reader
	out bytes.Buffer
}

func (p *pipeConn) Read(b []byte) (int, error)       { return p.in.Read(b) }
func (p *pipeConn) Write(b []byte) (int, error)      { return p.out.Write(b) }
func (p *pipeConn) Close() error                     { return nil }
func (p *pipeConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (p *pipeConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (p *pipeConn) SetDeadline(time.Time) error      { return nil }
func (p *pipeConn) SetReadDeadline(time.Time) error  { return nil }
func (p *pipeConn) SetWriteDeadline(time.Time) error { return nil }

// FuzzConn feeds arbitrary bytes to a connection: the server must never
// panic, and whatever it answers must parse as HTTP/1.1 answers.
func FuzzConn(f *testing.F) {
	for _, seed := range []string{
		"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
		"POST /x?y HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.0\r\n\r\n",
		"PUT / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;x\r\nabc\r\n0\r\nT: v\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nz",
		"HEAD http://h/p HTTP/1.1\r\nHost: b\r\nConnection: close\r\n\r\n",
		"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n 2\r\n\r\n",
		"\r\n\r\nGET / HTTP/1.1\nHost: a\n\n",
	} {
		f.Add([]byte(seed))
	}
	srv := &Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			w.Header().Set("X-Len", r.Header.Get("Content-Length"))
			_, _ = w.Write(b)
		}),
		MaxHeaderBytes: 1 << 10,
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		p := &pipeConn{in: bytes.NewReader(in)}
		srv.conns = map[*conn]struct{}{}
		c := newConn(srv, p, context.Background())
		srv.conns[c] = struct{}{}
		c.serve()
		if p.out.Len() == 0 {
			return
		}
		// The first answer must parse (later ones may answer a HEAD, which
		// a reader without the request cannot frame).
		if _, err := http.ReadResponse(bufio.NewReader(&p.out), nil); err != nil {
			t.Fatalf("unparsable answer to %q: %v", in, err)
		}
	})
}
