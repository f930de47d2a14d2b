package e2e

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// switchProxy forwards TCP connections to a real service until it is taken
// down: then it drops every connection, as an unreachable service would.
// Tests use it to take Azurite down and bring it back mid-test.
type switchProxy struct {
	ln     net.Listener
	target string
	down   atomic.Bool
	mu     sync.Mutex
	open   []net.Conn
}

func newSwitchProxy(t *testing.T, target string) *switchProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &switchProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.closeAll() })
	go p.serve()
	return p
}

func (p *switchProxy) Addr() string { return p.ln.Addr().String() }

// SetDown takes the service down (true) or brings it back (false).
func (p *switchProxy) SetDown(down bool) {
	p.down.Store(down)
	if down {
		p.closeAll()
	}
}

func (p *switchProxy) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.open {
		c.Close()
	}
	p.open = nil
}

func (p *switchProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if p.down.Load() {
			c.Close()
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.open = append(p.open, c, up)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(up, c); up.Close() }()
		go func() { _, _ = io.Copy(c, up); c.Close() }()
	}
}
