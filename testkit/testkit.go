// Package testkit runs GridBridge from Go tests, drives its clock, and
// asserts on what it delivered, dead-lettered and dropped, for Azure Event
// Grid and Amazon EventBridge (with SQS, Scheduler and Pipes) alike.
//
//	emu := testkit.Start(t)
//	emu.CreateTopic("orders", nil)
//	emu.CreateEventSubscription("orders", "audit", props)
//	// … publish with emu.EventGridPublisher("orders") …
//	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 1)
//	emu.Advance(24 * time.Hour) // a day of retries, in milliseconds
//	dead := emu.DeadLetters(testkit.Filter{Subscription: "audit"})
//
// # Three ways to get an emulator
//
// Start runs one in-process for a test, on free loopback ports, and stops
// it when the test ends. It runs as the binary does with
//
//	--clock virtual --no-jitter --no-probation
//
// that is: a virtual clock that moves only when the test calls Advance
// (starting at DefaultStart), retries exactly on the cloud's schedule (a
// 503 from an Event Grid webhook is retried 30 s later, not 30.145 s), and
// no Event Grid delayed delivery or probation. WithRealClock, WithJitter
// and WithProbation turn each back.
//
// Connect attaches to an emulator already running, the binary or a
// container, by its HTTP URL. At connect time it reads GET
// /_emulator/info and fails the test unless the emulator runs as the
// test's options say (by default, as Start runs one), naming the flags to
// start it with:
//
//	gridbridge --clock virtual --no-jitter --no-probation
//
// so a test body passes or fails the same way against Start, the binary
// and a container. AsConfigured accepts whatever the emulator runs with;
// Advance on a real clock then fails naming --clock virtual. Options that
// only configure an emulator Start runs (WithStart, WithAzureStorage, …)
// are refused by Connect: pass them to the binary as flags.
//
// New and Dial are Start and Connect without a testing.TB, for one
// emulator shared by a package's tests from TestMain (see ExampleNew).
// Each test then takes its own handle with For(t); the emulator's state is
// shared, so tests use distinct resource names or call Reset between them.
// Reset forgets every resource, event, fault and journal entry; the clock
// keeps its time.
//
// # What a test sees
//
// Deliveries, DeadLetters, Drops and Journal read the journal; Metrics,
// RouteMetrics and PipeMetrics read the counters; the Wait helpers long
// poll the inspection API, so no test sleeps. FailDeliveries makes
// delivery attempts fail; InjectAPIError makes API calls (PutEvents,
// SendMessage, an ARM PUT) answer an error in the cloud's own shape.
package testkit

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// DefaultStart is where Start's virtual clock starts: a fixed time, so
// dead-letter blob paths and timestamps are the same on every run.
func DefaultStart() time.Time { return time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC) }

// DefaultWait bounds, in real time, how long the wait helpers wait.
const DefaultWait = 10 * time.Second

// Option configures the emulator Start or New runs, or says how the one
// Connect or Dial reaches must run.
type Option func(*settings)

// settings is what the options say.
type settings struct {
	server emulator.Options
	// want is how a connected emulator must run; anything drops the check.
	want     runMode
	anything bool
	// startOnly names, as the binary's flags, the options set that only
	// an emulator Start runs can take.
	startOnly []string
}

// runMode is what Connect checks of an emulator it reaches.
type runMode struct {
	clock             string
	jitter, probation bool
}

func (m runMode) flags() string {
	f := []string{"--clock " + m.clock}
	if !m.jitter {
		f = append(f, "--no-jitter")
	}
	if !m.probation {
		f = append(f, "--no-probation")
	}
	return strings.Join(f, " ")
}

func defaultSettings() settings {
	return settings{
		server: emulator.Options{
			Clock:            engine.ModeVirtual,
			Start:            DefaultStart(),
			DisableJitter:    true,
			DisableProbation: true,
			// Generous, so a delivery slowed by a loaded test machine is
			// still waited for; tests of endpoints that never answer set it
			// lower.
			SettleTimeout: 3 * time.Second,
			// No WebhookClient: deliveries go out through the binary's own
			// transport, which reaches self-signed test endpoints too.
		},
		want: runMode{clock: engine.ModeVirtual},
	}
}

func startOnly(flag string, f func(*emulator.Options)) Option {
	return func(s *settings) {
		f(&s.server)
		s.startOnly = append(s.startOnly, flag)
	}
}

// WithAzureStorage adds an Azure Storage connection string for dead-letter
// blobs (--azure-storage).
func WithAzureStorage(conn string) Option {
	return startOnly("--azure-storage", func(o *emulator.Options) { o.AzureStorage = append(o.AzureStorage, conn) })
}

// WithSQSEndpoint sends SQS targets and dead-letter queues to endpoint
// (--sqs-endpoint).
func WithSQSEndpoint(endpoint string) Option {
	return startOnly("--sqs-endpoint", func(o *emulator.Options) { o.SQSEndpoint = endpoint })
}

// WithStart sets where the virtual clock starts.
func WithStart(t time.Time) Option {
	return startOnly("(a clock start)", func(o *emulator.Options) { o.Start = t })
}

// WithConfig creates the resources of a topology file at start (--config).
func WithConfig(path string) Option {
	return startOnly("--config", func(o *emulator.Options) { o.Config = path })
}

// WithStrictAuth refuses bearer tokens the emulator's Entra ID authority
// did not issue (--strict-auth).
func WithStrictAuth() Option {
	return startOnly("--strict-auth", func(o *emulator.Options) { o.StrictAuth = true })
}

// WithSettleTimeout bounds how long an Advance waits, in real time, for
// work it started (--settle); Start's is 3 s.
func WithSettleTimeout(d time.Duration) Option {
	return startOnly("--settle", func(o *emulator.Options) { o.SettleTimeout = d })
}

// WithJournalLimits bounds the journal's entries and estimated bytes
// (--journal-cap, --journal-max-bytes); 0 keeps a default.
func WithJournalLimits(entries int, bytes int64) Option {
	return startOnly("--journal-cap", func(o *emulator.Options) { o.JournalCap, o.JournalMaxBytes = entries, bytes })
}

// WithRealClock runs the emulator on the real clock (--clock real): time
// passes by itself and Advance fails. For Connect: the emulator must run
// on a real clock.
func WithRealClock() Option {
	return func(s *settings) { s.server.Clock, s.want.clock = engine.ModeReal, engine.ModeReal }
}

// WithJitter turns retry jitter back on, seeded for repeatable runs
// (Start turns it off so schedules are exact). For Connect: the emulator
// must run with jitter (no --no-jitter).
func WithJitter(seed int64) Option {
	return func(s *settings) { s.server.DisableJitter, s.server.Seed, s.want.jitter = false, seed, true }
}

// WithProbation turns on Event Grid's delayed delivery and probation
// (EG-17, EG-18). For Connect: the emulator must run with them (no
// --no-probation).
func WithProbation() Option {
	return func(s *settings) { s.server.DisableProbation, s.want.probation = false, true }
}

// AsConfigured lets Connect and Dial take the emulator as it runs, with
// no check of its clock, jitter or probation.
func AsConfigured() Option { return func(s *settings) { s.anything = true } }

// Emulator is a running emulator under a test's control: in-process
// (Start, New) or reached over HTTP (Connect, Dial: the binary, a
// container). Every method works the same in both. A method that fails
// fails its test (t.Fatal); on an Emulator from New or Dial not yet bound
// to a test with For, it panics with the same message.
type Emulator struct {
	t testing.TB
	// srv is the in-process server; nil for a connected emulator.
	srv      *emulator.Server
	info     Info
	inspect  *Inspector
	client   *http.Client
	pool     *x509.CertPool
	httpURL  string
	httpsURL string
	wait     time.Duration
}

// Start runs an emulator in-process on free loopback ports, as the binary
// runs with --clock virtual --no-jitter --no-probation (and the clock at
// DefaultStart, a 3 s settle bound), and stops it when the test ends.
func Start(t testing.TB, opts ...Option) *Emulator {
	t.Helper()
	e, err := New(opts...)
	if err != nil {
		t.Fatalf("testkit: %v", err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e.For(t)
}

// New is Start without a test: it runs an emulator in-process until
// Close, for TestMain. Bind it to each test with For.
func New(opts ...Option) (*Emulator, error) {
	s := defaultSettings()
	for _, opt := range opts {
		opt(&s)
	}
	srv, err := emulator.Start(s.server)
	if err != nil {
		return nil, fmt.Errorf("starting the emulator: %w", err)
	}
	e := newEmulator(srv.URL(), srv.TLSURL(), srv.CertPool())
	e.srv = srv
	if e.info, err = e.inspect.Info(context.Background()); err != nil {
		_ = srv.Close()
		return nil, fmt.Errorf("reading the emulator's info: %w", err)
	}
	return e, nil
}

// Connect attaches to an emulator that is already running (the binary, a
// container) through its HTTP base URL, e.g. "http://127.0.0.1:4080",
// trusting the CA it serves at /_emulator/ca.pem. It fails the test when
// the emulator does not run as opts say (by default: as Start runs one,
// i.e. the binary's flags --clock virtual --no-jitter --no-probation),
// naming the flags to use.
func Connect(t testing.TB, httpURL string, opts ...Option) *Emulator {
	t.Helper()
	e, err := Dial(httpURL, opts...)
	if err != nil {
		t.Fatalf("testkit: %v", err)
	}
	return e.For(t)
}

// Dial is Connect without a test, for TestMain. Close releases its
// connections and leaves the emulator running.
func Dial(httpURL string, opts ...Option) (*Emulator, error) {
	s := defaultSettings()
	for _, opt := range opts {
		opt(&s)
	}
	if len(s.startOnly) > 0 {
		return nil, fmt.Errorf("connecting to %s: %s configure an emulator Start runs; start the binary with those flags instead",
			httpURL, strings.Join(s.startOnly, ", "))
	}
	ctx := context.Background()
	probe := NewInspector(httpURL, nil)
	pem, err := probe.CACertPEM(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the emulator's CA from %s: %w", httpURL, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s/_emulator/ca.pem holds no certificate", httpURL)
	}
	info, err := probe.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading %s/_emulator/info: %w", httpURL, err)
	}
	if !s.anything {
		if err := checkRunMode(info, s.want); err != nil {
			return nil, fmt.Errorf("the emulator at %s %w", httpURL, err)
		}
	}
	e := newEmulator(httpURL, info.HTTPS, pool)
	e.info = info
	return e, nil
}

// checkRunMode says what of want the emulator described by info does not
// do, and the flags that make it.
func checkRunMode(info Info, want runMode) error {
	var wrong []string
	if info.Clock != want.clock {
		wrong = append(wrong, "runs a "+info.Clock+" clock")
	}
	if info.Jitter != want.jitter {
		wrong = append(wrong, map[bool]string{true: "jitters retries", false: "does not jitter retries"}[info.Jitter])
	}
	if info.Probation != want.probation {
		wrong = append(wrong, map[bool]string{true: "holds failing subscriptions in probation", false: "runs without probation"}[info.Probation])
	}
	if len(wrong) == 0 {
		return nil
	}
	return errors.New(strings.Join(wrong, ", ") + "; start it with the flags " + want.flags() +
		" (the run Start makes, unless options say otherwise), or connect with testkit.AsConfigured()")
}

func newEmulator(httpURL, httpsURL string, pool *x509.CertPool) *Emulator {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	client := &http.Client{Transport: tr}
	return &Emulator{
		t: noTest{}, client: client, pool: pool, httpURL: httpURL, httpsURL: httpsURL,
		inspect: NewInspector(httpURL, client), wait: DefaultWait,
	}
}

// For returns a handle on the same emulator whose failures fail t: what
// each test of a package sharing one emulator from TestMain calls first.
func (e *Emulator) For(t testing.TB) *Emulator {
	c := *e
	c.t = t
	return &c
}

// Close stops an emulator New started (Start's stops when its test ends)
// or releases a Dial'd one's connections.
func (e *Emulator) Close() error {
	if tr, ok := e.client.Transport.(*http.Transport); ok {
		tr.CloseIdleConnections()
	}
	if e.srv != nil {
		return e.srv.Close()
	}
	return nil
}

// fatalf fails the test (the message names the testkit).
func (e *Emulator) fatalf(format string, args ...any) {
	e.t.Helper()
	e.t.Fatalf("testkit: "+format, args...)
}

// noTest stands in for the test of an emulator from New or Dial that For
// has not bound to one: it fails by panicking.
type noTest struct{ testing.TB }

func (noTest) Helper() {}

func (noTest) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...) + " (an emulator from New or Dial fails by panicking until For binds it to a test)")
}

// URL is the emulator's HTTP base URL.
func (e *Emulator) URL() string { return e.httpURL }

// TLSURL is the emulator's HTTPS base URL.
func (e *Emulator) TLSURL() string { return e.httpsURL }

// CertPool holds the emulator's CA.
func (e *Emulator) CertPool() *x509.CertPool { return e.pool }

// HTTPClient returns a client that trusts the emulator's CA.
func (e *Emulator) HTTPClient() *http.Client { return e.client }

// Inspector returns the inspection-API client.
func (e *Emulator) Inspector() *Inspector { return e.inspect }

// Info is GET /_emulator/info as read when the emulator was started or
// connected to.
func (e *Emulator) Info() Info { return e.info }

// Now is the emulator's current time.
func (e *Emulator) Now() time.Time {
	e.t.Helper()
	v, err := e.inspect.Clock(context.Background())
	if err != nil {
		e.fatalf("reading the clock: %v", err)
	}
	return v.Now
}

// Advance moves the virtual clock by d, firing every retry, TTL check and
// dead-letter write due on the way, and returns the new time. On a real
// clock it fails naming the flag that makes the clock virtual.
func (e *Emulator) Advance(d time.Duration) time.Time {
	e.t.Helper()
	if e.info.Clock != "" && e.info.Clock != engine.ModeVirtual {
		e.fatalf("Advance needs a virtual clock; this emulator runs a %s clock (start it with --clock virtual)", e.info.Clock)
	}
	v, err := e.inspect.Advance(context.Background(), d)
	if err != nil {
		e.fatalf("advancing the clock by %v: %v", d, err)
	}
	return v.Now
}

// Settle waits until work the emulator has started (first delivery
// attempts) is done, without moving the clock.
func (e *Emulator) Settle() { e.t.Helper(); e.Advance(0) }

func (e *Emulator) entries(kind string, f Filter) []Entry {
	e.t.Helper()
	page, err := e.inspect.Entries(context.Background(), kind, f)
	if err != nil {
		e.fatalf("reading %s entries: %v", kind, err)
	}
	return page.Entries
}

// Deliveries lists every delivery attempt passing f, oldest first.
func (e *Emulator) Deliveries(f Filter) []Entry { e.t.Helper(); return e.entries(KindAttempt, f) }

// DeadLetters lists every dead letter written, to any sink.
func (e *Emulator) DeadLetters(f Filter) []Entry { e.t.Helper(); return e.entries(KindDeadLetter, f) }

// Drops lists every event given up without a dead letter, with the reason.
func (e *Emulator) Drops(f Filter) []Entry { e.t.Helper(); return e.entries(KindDrop, f) }

// Journal lists every journal entry passing f.
func (e *Emulator) Journal(f Filter) []Entry { e.t.Helper(); return e.entries("", f) }

// WaitForDeliveries waits until at least n delivery attempts pass f and
// returns them; on timeout it fails the test showing what was delivered.
func (e *Emulator) WaitForDeliveries(f Filter, n int) []Entry {
	e.t.Helper()
	return e.waitFor(KindAttempt, f, n)
}

// WaitForDeadLetters waits until at least n dead letters pass f.
func (e *Emulator) WaitForDeadLetters(f Filter, n int) []Entry {
	e.t.Helper()
	return e.waitFor(KindDeadLetter, f, n)
}

func (e *Emulator) waitFor(kind string, f Filter, n int) []Entry {
	e.t.Helper()
	page, err := e.inspect.WaitEntries(context.Background(), kind, f, n, e.wait)
	if err != nil {
		e.fatalf("waiting for %d %s entries: %v", n, kind, err)
	}
	if len(page.Entries) < n {
		all := e.entries(kind, Filter{})
		e.fatalf("waited %v for %d %s entries matching %s; %d matched.\nAll %s entries:\n%s",
			e.wait, n, kind, f, len(page.Entries), kind, describe(all))
	}
	return page.Entries
}

func describe(entries []Entry) string {
	if len(entries) == 0 {
		return "  (none)"
	}
	var b strings.Builder
	for _, en := range entries {
		b.WriteString("  ")
		b.WriteString(en.Time.UTC().Format(time.RFC3339Nano))
		b.WriteString(" ")
		b.WriteString(en.Route)
		for k, v := range en.Labels {
			b.WriteString(" " + k + "=" + v)
		}
		if en.Attempt > 0 {
			b.WriteString(" attempt=" + strconv.Itoa(en.Attempt))
		}
		if en.Outcome != "" {
			b.WriteString(" outcome=" + en.Outcome)
		}
		if en.Status != 0 {
			b.WriteString(" status=" + strconv.Itoa(en.Status))
		}
		if len(en.EventIDs) > 0 {
			b.WriteString(" events=" + strings.Join(en.EventIDs, ","))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// AddFault installs a delivery fault and returns it with its id.
func (e *Emulator) AddFault(f Fault) Fault {
	e.t.Helper()
	out, err := e.inspect.AddFault(context.Background(), f)
	if err != nil {
		e.fatalf("adding fault: %v", err)
	}
	return out
}

// Metrics reads every counter GET /_emulator/metrics reports.
func (e *Emulator) Metrics() Metrics {
	e.t.Helper()
	m, err := e.inspect.Metrics(context.Background())
	if err != nil {
		e.fatalf("reading metrics: %v", err)
	}
	return m
}

// Reset forgets every resource, event, fault and journal entry, on the
// emulator every handle shares; the clock keeps its time.
func (e *Emulator) Reset() {
	e.t.Helper()
	if err := e.inspect.Reset(context.Background()); err != nil {
		e.fatalf("reset: %v", err)
	}
}
