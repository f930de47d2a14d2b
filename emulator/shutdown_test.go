package emulator

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// syncLog is a log destination safe for the server's goroutines.
type syncLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// startLogged starts a virtual-clock server whose logs the test reads.
func startLogged(t *testing.T) (*Server, *syncLog) {
	t.Helper()
	logs := &syncLog{}
	s, err := Start(Options{Clock: engine.ModeVirtual, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, logs
}

// waitCounts waits until the server serves running requests and holds
// fresh connections that sent none.
func waitCounts(t *testing.T, s *Server, running, fresh int) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		r, f, changed := s.life.counts()
		if r == running && f == fresh {
			return
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("requests %d, fresh connections %d; want %d and %d", r, f, running, fresh)
		}
	}
}

const closedBusy = "connections still busy at shutdown were closed"

// The dashboard's live feed and an inspection wait are long polls of up to
// 5 minutes. Close ends them at once: both answer 200 (a cut-off
// connection would answer nothing), and Close never needs its grace.
func TestCloseAnswersLongPollsAtOnce(t *testing.T) {
	t.Parallel()
	s, logs := startLogged(t)
	polls := []string{
		"/_emulator/ui/api/changes?after=1000000000&wait=5m",
		"/_emulator/journal?min=1000&wait=5m",
	}
	answers := make(chan string, len(polls))
	for _, path := range polls {
		go func() {
			resp, err := http.Get(s.URL() + path)
			if err != nil {
				answers <- path + ": " + err.Error()
				return
			}
			resp.Body.Close()
			answers <- path + ": " + resp.Status
		}()
	}
	waitCounts(t, s, len(polls), 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for range polls {
		if got := <-answers; !strings.HasSuffix(got, ": 200 OK") {
			t.Errorf("long poll at shutdown: %s, want 200", got)
		}
	}
	if strings.Contains(logs.String(), closedBusy) {
		t.Errorf("Close waited for its grace: %s", logs)
	}
}

// A client that connected and sent nothing (a browser's preconnect, a
// health checker's TCP probe) does not hold Close up: net/http's Shutdown
// would wait 5 s for it.
func TestCloseClosesConnectionsThatSentNothing(t *testing.T) {
	t.Parallel()
	s, logs := startLogged(t)
	for _, addr := range []net.Addr{s.httpLn.Addr(), s.tlsLn.Addr()} {
		conn, err := net.Dial("tcp", addr.String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
	}
	waitCounts(t, s, 0, 2)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), closedBusy) {
		t.Errorf("Close waited for its grace: %s", logs)
	}
}

// A request that does not end with its context (here a handler blocked
// reading a body the client never sends) gets ShutdownGrace, then its
// connection is closed and the cut-off is logged.
func TestCloseCutsOffARequestAfterItsGrace(t *testing.T) {
	t.Parallel()
	s, logs := startLogged(t)
	conn := testenv.StuckInBodyRead(t, s.httpLn.Addr().String())
	waitCounts(t, s, 1, 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(conn); err != nil && !strings.Contains(err.Error(), "reset") {
		t.Errorf("reading the cut-off connection: %v", err)
	}
	if got := logs.String(); !strings.Contains(got, closedBusy) || !strings.Contains(got, "requests=1") {
		t.Errorf("log %q, want the cut-off of one request", got)
	}
}

// A listener on every interface (the container image's) is advertised as
// localhost, which clients can dial and the certificate names; a specific
// address is advertised as it is.
func TestWildcardListenersAreAdvertisedAsLocalhost(t *testing.T) {
	t.Parallel()
	for addr, want := range map[*net.TCPAddr]string{
		{IP: net.IPv4zero, Port: 4443}:           "localhost:4443",
		{IP: net.IPv6unspecified, Port: 4443}:    "localhost:4443",
		{IP: net.IPv4(127, 0, 0, 1), Port: 4443}: "127.0.0.1:4443",
		{IP: net.IPv6loopback, Port: 4080}:       "[::1]:4080",
	} {
		if got := reachable(addr); got != want {
			t.Errorf("reachable(%v) = %q, want %q", addr, got, want)
		}
	}
}
