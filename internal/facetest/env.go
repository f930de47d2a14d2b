package facetest

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/entra"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Options shape an Env. The zero value is usable: a clock at DefaultStart
// with the engine's default settle time.
type Options struct {
	// Start is the virtual time the clock begins at. Default: DefaultStart.
	Start time.Time
	// Settle is how long, in real time, the clock waits for a delivery
	// blocked outside the emulator (a webhook that never answers) before
	// it moves on. Default (0): the engine's own default.
	Settle time.Duration
}

// DefaultStart is where a clock begins when Options.Start is zero.
var DefaultStart = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// Env is one emulator under test: an engine on a virtual clock writing to
// its journal, and a router the face registers its routes on.
type Env struct {
	Start   time.Time // where Clock began
	Clock   *engine.VirtualClock
	Journal *engine.Journal
	Engine  *engine.Engine
	// Router is what ServeTLS and ServeHTTP serve. Register routes before
	// the first request: a mux.Router is not safe to change while serving.
	Router *mux.Router
}

// New builds an Env; nothing is listening until ServeTLS or ServeHTTP.
func New(t testing.TB, o Options) *Env {
	t.Helper()
	start := o.Start
	if start.IsZero() {
		start = DefaultStart
	}
	clock := engine.NewVirtualClock(start, o.Settle)
	journal := engine.NewJournal(0)
	// The router checks tokens per route as the emulator's does
	// (entra.OnPlane): a face's ARM and data-plane handlers serve only
	// behind that check.
	router := mux.NewRouter()
	router.Use(entra.New(entra.Config{Now: clock.Now}).Middleware(false))
	return &Env{Start: start, Clock: clock, Journal: journal, Engine: engine.New(clock, journal), Router: router}
}

// ServeTLS starts an httptest TLS server on Router, closed when the test
// ends. Every httptest TLS server shares one certificate, so its Client()
// also trusts fake webhooks started with fakes.TLS().
func (e *Env) ServeTLS(t testing.TB) *httptest.Server {
	srv := httptest.NewTLSServer(e.Router)
	t.Cleanup(srv.Close)
	return srv
}

// ServeHTTP starts a plain HTTP httptest server on Router, closed when the
// test ends.
func (e *Env) ServeHTTP(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(e.Router)
	t.Cleanup(srv.Close)
	return srv
}

// Settle waits until every delivery the clock started has finished.
func (e *Env) Settle() { e.Clock.Settle() }

// AdvanceTo moves the clock to Start+offset, firing everything due on the
// way; a time already passed leaves the clock where it is.
func (e *Env) AdvanceTo(offset time.Duration) {
	if d := e.Start.Add(offset).Sub(e.Clock.Now()); d > 0 {
		e.Clock.Advance(d)
	}
}

// Entries returns the journal entries matching f.
func (e *Env) Entries(f engine.Filter) []engine.Entry { return e.Journal.Query(f) }
