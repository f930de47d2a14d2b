package emulator

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/notserved"
	"github.com/gridbridge/gridbridge/compat/entra"
	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/compat/pipes"
	"github.com/gridbridge/gridbridge/compat/resourcemanager"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/emulator/topology"
	"github.com/gridbridge/gridbridge/emulator/ui"
	"github.com/gridbridge/gridbridge/internal/httpserve"
)

// Server is a running emulator. All state hangs off it: two servers in one
// process are independent.
type Server struct {
	opts    Options
	log     *slog.Logger
	clock   engine.Clock
	virtual *engine.VirtualClock // nil unless Clock is "virtual"
	journal *engine.Journal
	engine  *engine.Engine
	memory  *engine.MemorySink
	ca      *authority
	entra   *entra.Authority
	router  *mux.Router
	hosts   hostAllowList
	faces   []face
	// storageAccounts name the accounts Event Grid's dead letters go to
	// (GET /_emulator/info); empty means the in-memory default.
	storageAccounts []string
	// eventGrid lists namespace queue subscriptions' metrics beside the
	// engine's routes, pipes its pipes', sqs its own queues'.
	eventGrid *eventgrid.Face
	pipes     *pipes.Service
	sqs       *sqs.Service
	// jsonTargets takes the AWS JSON-protocol requests before the router.
	jsonTargets *jsonTargets

	httpLn, tlsLn net.Listener
	// The plain listener runs on httpserve, cheaper per request; the TLS
	// one stays on net/http, which speaks HTTP/2 (the Azure SDKs ask).
	httpSrv   *httpserve.Server
	tlsSrv    *http.Server
	life      *lifecycle
	closeOnce sync.Once
}

// face is one cloud API mounted on the shared router.
type face interface {
	// Register mounts the API on the router.
	Register(r *mux.Router)
	Reset()
}

// inspected is a face with inspection routes of its own.
type inspected interface {
	// RegisterInspection mounts the face's inspection routes on the
	// /_emulator subrouter.
	RegisterInspection(r *mux.Router)
}

// Start creates a server, starts both listeners and creates what the
// topology file opts.Config declares.
func Start(opts Options) (*Server, error) {
	var topo *topology.File
	if opts.Config != "" {
		// Read before listening, so a bad file fails before a port is taken.
		f, err := topology.Load(opts.Config)
		if err != nil {
			return nil, err
		}
		topo = f
	}
	s, err := newServer(opts)
	if err != nil {
		return nil, err
	}
	if err := s.listen(); err != nil {
		return nil, err
	}
	if topo != nil {
		// After listen: topic endpoints are built from the TLS listener's address.
		operator, err := s.asOperator(s.routed())
		if err == nil {
			err = topo.Apply(context.Background(), recoverPanics(s.log, operator))
		}
		if err != nil {
			s.Close()
			return nil, err
		}
	}
	// Serving starts once the topology is in place, so that a health check
	// (a container's, testcontainers' wait) never answers before the
	// resources exist; a client that connects earlier waits in the
	// listener's backlog.
	s.serveAll()
	return s, nil
}

// asOperator sends requests to next with an ARM token of the emulator's own
// authority: the topology file is the operator's configuration, so
// --strict-auth admits its requests as it admits any client the authority
// issued a token to, through the same check on every route.
func (s *Server) asOperator(next http.Handler) (http.Handler, error) {
	const tenant = "gridbridge-operator"
	token, _, err := s.entra.Issue("https://localhost/"+tenant+"/v2.0", tenant, "gridbridge-topology", entra.AudienceARM)
	if err != nil {
		return nil, fmt.Errorf("signing the topology's requests: %w", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Set("Authorization", "Bearer "+token)
		next.ServeHTTP(w, r)
	}), nil
}

func newServer(opts Options) (*Server, error) {
	if opts.Seed == 0 {
		// One seed per server, so two emulators in a process jitter apart
		// yet each run can be repeated with --seed.
		opts.Seed = rand.Int64N(math.MaxInt64) + 1
	}
	s := &Server{opts: opts, log: opts.Logger, life: newLifecycle()}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	switch strings.ToLower(opts.Clock) {
	case "", engine.ModeReal:
		scale := opts.TimeScale
		if scale == 0 {
			scale = 1
		}
		c, err := engine.NewScaledClock(scale)
		if err != nil {
			return nil, err
		}
		s.clock = c
	case engine.ModeVirtual:
		start := opts.Start
		if start.IsZero() {
			start = time.Now().UTC().Truncate(time.Second)
		}
		s.virtual = engine.NewVirtualClock(start, opts.SettleTimeout)
		s.clock = s.virtual
	default:
		return nil, fmt.Errorf("unknown clock %q: want real or virtual", opts.Clock)
	}
	ca, err := newAuthority(opts.TLSHosts, time.Now())
	if err != nil {
		return nil, err
	}
	s.ca = ca
	s.journal = engine.NewJournalBytes(opts.JournalCap, opts.JournalMaxBytes)
	s.engine = engine.New(s.clock, s.journal)
	s.engine.SetRecordSecrets(opts.RecordSecrets)
	s.memory = engine.NewMemorySink()

	s.router = mux.NewRouter()
	s.router.SkipClean(true) // ARM scopes and ids must reach handlers untouched
	inspection := s.router.PathPrefix("/_emulator").Subrouter()
	s.registerInspection(inspection)
	s.entra = entra.New(entra.Config{Now: s.clock.Now})
	s.entra.Register(s.router)
	// Tokens are checked per route, by the plane its handler serves
	// (entra.OnPlane), after the router has chosen it.
	s.router.Use(s.entra.Middleware(opts.StrictAuth))
	ui.Register(inspection, ui.Source{Journal: s.journal, Virtual: s.virtual})
	faces, err := s.newFaces()
	if err != nil {
		return nil, err
	}
	s.faces = faces
	s.jsonTargets = newJSONTargets(faces)
	// A request signed for an AWS service GridBridge does not emulate gets
	// that service's error shape before a face sees it (SQS's query
	// protocol would take any Action).
	s.router.MatcherFunc(notserved.ForAnotherAWSService).HandlerFunc(notserved.NotEmulated)
	for _, f := range s.faces {
		if i, ok := f.(inspected); ok {
			i.RegisterInspection(inspection)
		}
		f.Register(s.router)
	}
	s.router.NotFoundHandler = http.HandlerFunc(notFound)
	s.router.MethodNotAllowedHandler = http.HandlerFunc(methodNotAllowed)
	s.hosts = newHostAllowList(opts)
	return s, nil
}

func (s *Server) listen() error {
	addr, tlsAddr := s.opts.Addr, s.opts.TLSAddr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if tlsAddr == "" {
		tlsAddr = "127.0.0.1:0"
	}
	var err error
	if s.httpLn, err = net.Listen("tcp", addr); err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	if s.tlsLn, err = net.Listen("tcp", tlsAddr); err != nil {
		s.httpLn.Close()
		return fmt.Errorf("listening on %s: %w", tlsAddr, err)
	}
	if s.opts.CAFile != "" {
		if err := s.WriteCA(s.opts.CAFile); err != nil {
			s.httpLn.Close()
			s.tlsLn.Close()
			return err
		}
	}
	s.httpSrv = s.newPlainServer()
	s.tlsSrv = s.newHTTPServer()
	s.tlsSrv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{s.ca.leaf}, MinVersion: tls.VersionTLS12}
	return nil
}

// serveAll serves both listeners.
func (s *Server) serveAll() {
	go s.serve(s.httpSrv, s.httpLn)
	go s.serve(s.tlsSrv, tls.NewListener(s.tlsLn, s.tlsSrv.TLSConfig))
}

func (s *Server) idleTimeout() time.Duration {
	if s.opts.IdleTimeout == 0 {
		return DefaultIdleTimeout
	}
	return s.opts.IdleTimeout
}

// baseContext is every request's context on ln: the lifecycle's, with the
// API faults on it, so no request pays for putting them there.
func (s *Server) baseContext(ln net.Listener) context.Context {
	return engine.WithAPIFaults(s.life.baseContext(ln), s.engine.APIFaults())
}

// newPlainServer is newHTTPServer's twin on httpserve, with the same limits.
func (s *Server) newPlainServer() *httpserve.Server {
	return &httpserve.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		IdleTimeout:       s.idleTimeout(),
		MaxHeaderBytes:    MaxHeaderBytes,
		Log:               s.log,
		BaseContext:       s.baseContext,
		ConnState:         s.life.connState,
	}
}

// newHTTPServer applies the listener limits (timeouts.go) to one listener.
// The body's read timeout is applied per request by Handler.
func (s *Server) newHTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		IdleTimeout:       s.idleTimeout(),
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
		BaseContext:       s.baseContext,
		ConnState:         s.life.connState,
	}
}

func (s *Server) serve(srv interface{ Serve(net.Listener) error }, ln net.Listener) {
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		s.log.Error("listener stopped", "addr", ln.Addr().String(), "err", err)
	}
}

// Handler returns the emulator's HTTP handler: every cloud API and the
// inspection API on one router, behind the Host allow-list, the content-type
// rule of mutating inspection calls (guard.go) and the body read timeout, and the check of tokens the
// emulator's Entra ID authority issued.
func (s *Server) Handler() http.Handler {
	readTimeout := s.opts.ReadTimeout
	if readTimeout == 0 {
		readTimeout = DefaultReadTimeout
	}
	return s.life.track(recoverPanics(s.log, guard(s.hosts, bodyDeadline(readTimeout, s.withAPIFaults(s.routed())))))
}

// routed hands AWS JSON-protocol requests to their face by their
// X-Amz-Target (jsontargets.go) and every other request to the router.
func (s *Server) routed() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := s.jsonTargets.handler(r); h != nil {
			h.ServeHTTP(w, r)
			return
		}
		s.router.ServeHTTP(w, r)
	})
}

// withAPIFaults puts the engine's API faults on every request that does
// not carry them yet (the listeners' requests do: their BaseContext), for
// the request frames of the faces (the AWS frame, the ARM table) to take.
func (s *Server) withAPIFaults(next http.Handler) http.Handler {
	faults := s.engine.APIFaults()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if engine.APIFaultsFrom(r.Context()) != faults {
			r = r.WithContext(engine.WithAPIFaults(r.Context(), faults))
		}
		next.ServeHTTP(w, r)
	})
}

// URL is the base URL of the HTTP listener, e.g. "http://127.0.0.1:4000";
// on a wildcard address (0.0.0.0, ::) it names localhost (see reachable).
func (s *Server) URL() string { return "http://" + reachable(s.httpLn.Addr()) }

// TLSURL is the base URL of the HTTPS listener as clients should use it:
// Options.AdvertiseTLSURL when set, else the listener's address, where
// localhost stands for a wildcard address (see reachable).
func (s *Server) TLSURL() string {
	if s.opts.AdvertiseTLSURL != "" {
		return strings.TrimRight(s.opts.AdvertiseTLSURL, "/")
	}
	return "https://" + reachable(s.tlsLn.Addr())
}

// reachable is host:port of a listener as a client dials it. A listener on
// every interface (as in the container image) has no address a client can
// use, and its certificate names no such address; localhost is both
// dialable and in the certificate, and is where a container's published
// port answers (docker run -p 127.0.0.1:4443:4443). A client that reaches
// the emulator through another name or port needs AdvertiseTLSURL.
func reachable(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return addr.String()
	}
	return net.JoinHostPort("localhost", strconv.Itoa(tcp.Port))
}

// Clock returns the emulator clock.
func (s *Server) Clock() engine.Clock { return s.clock }

// VirtualClock returns the virtual clock, or nil on a real clock.
func (s *Server) VirtualClock() *engine.VirtualClock { return s.virtual }

// Engine returns the delivery engine.
func (s *Server) Engine() *engine.Engine { return s.engine }

// Journal returns the journal of everything the emulator did.
func (s *Server) Journal() *engine.Journal { return s.journal }

// MemoryDeadLetters returns the in-memory dead-letter default.
func (s *Server) MemoryDeadLetters() *engine.MemorySink { return s.memory }

// Reset forgets every resource, queued event, fault and journal entry.
func (s *Server) Reset() {
	for _, f := range s.faces {
		f.Reset()
	}
	s.engine.Reset()
	s.memory.Reset()
	// A suite that resets between tests expects the memory of the last one
	// back, not merely collectable some time later.
	debug.FreeOSMemory()
}

// Close stops both listeners and the background work of the faces. Long
// polls answer at once, connections with no request are closed, and
// requests in flight get ShutdownGrace to finish before their connections
// are closed (shutdown.go). Deliveries in flight are abandoned.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		if s.httpSrv != nil {
			if forced, n := s.life.shutdown(ShutdownGrace, s.httpSrv, s.tlsSrv); forced {
				s.log.Warn("connections still busy at shutdown were closed", "requests", n, "grace", ShutdownGrace)
			}
			// Shutdown closes the listeners it serves; these were not served
			// yet if Start failed, or if Close came before Serve began.
			_ = s.httpLn.Close()
			_ = s.tlsLn.Close()
		} else {
			s.life.stop()
		}
		for _, f := range s.faces {
			if c, ok := f.(interface{ Close() }); ok {
				c.Close() // background work of a face (storage watchers)
			}
		}
		s.engine.Reset()
	})
	return nil
}

// recoverPanics keeps one bad request from taking the process down; a panic
// is a bug, answered with 500 and logged with its request.
func recoverPanics(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.Error("panic serving request", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v))
				http.Error(w, "internal error in the emulator (a bug): "+fmt.Sprint(v), http.StatusInternalServerError)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func notFound(w http.ResponseWriter, r *http.Request) {
	unserved(w, r, http.StatusNotFound, "NotFound", fmt.Sprintf("No resource matches %s %s on this emulator.", r.Method, r.URL.Path))
}

// methodNotAllowed answers a path served only for other methods; an AWS JSON
// request gets AWS's shape there too.
func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	unserved(w, r, http.StatusMethodNotAllowed, "MethodNotAllowed", fmt.Sprintf("%s is not supported on %s on this emulator.", r.Method, r.URL.Path))
}

// unserved answers a request no face serves: an AWS JSON request gets
// AWS's unknown-operation error, anything else ARM's error shape (code in
// x-ms-error-code too), naming the resource provider when the path is
// under one GridBridge does not emulate.
func unserved(w http.ResponseWriter, r *http.Request, status int, code, message string) {
	if notserved.IsAWSJSON(r) {
		notserved.UnknownOperation(w, r)
		return
	}
	resourcemanager.WriteUnserved(w, r, status, code, message)
}
