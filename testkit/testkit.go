// Package testkit starts GridBridge from a Go test, drives its clock, and
// asserts on what it delivered, dead-lettered and dropped.
//
//	emu := testkit.Start(t)
//	// … create a topic and a subscription with emu.ARMClientOptions(), publish …
//	emu.WaitForDeliveries(testkit.Filter{Subscription: "orders"}, 1)
//	emu.Advance(24 * time.Hour) // a day of retries, in milliseconds
//	dead := emu.DeadLetters(testkit.Filter{Subscription: "orders"})
package testkit

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// DefaultStart is where the testkit's virtual clock starts: a fixed time, so
// dead-letter blob paths and timestamps are the same on every run.
func DefaultStart() time.Time { return time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC) }

// DefaultWait bounds, in real time, how long the wait helpers wait.
const DefaultWait = 10 * time.Second

// Option changes how Start configures the emulator.
type Option func(*emulator.Options)

// WithOptions edits the emulator options directly.
func WithOptions(f func(*emulator.Options)) Option { return Option(f) }

// WithAzureStorage adds an Azure Storage connection string for dead-letter blobs.
func WithAzureStorage(conn string) Option {
	return func(o *emulator.Options) { o.AzureStorage = append(o.AzureStorage, conn) }
}

// WithSQSEndpoint sends SQS targets and dead-letter queues to endpoint.
func WithSQSEndpoint(endpoint string) Option {
	return func(o *emulator.Options) { o.SQSEndpoint = endpoint }
}

// WithStart sets where the virtual clock starts.
func WithStart(t time.Time) Option { return func(o *emulator.Options) { o.Start = t } }

// WithJitter turns retry jitter back on (the testkit turns it off so
// schedules are exact), seeded for repeatable runs.
func WithJitter(seed int64) Option {
	return func(o *emulator.Options) { o.DisableJitter, o.Seed = false, seed }
}

// WithProbation turns on Event Grid's delayed delivery and probation
// (EG-17, EG-18), off by default in the testkit.
func WithProbation() Option { return func(o *emulator.Options) { o.DisableProbation = false } }

// Emulator is a running emulator under a test's control: in-process
// (Start) or any emulator reachable over HTTP (Connect: the binary, a
// container). Every method works the same in both.
type Emulator struct {
	t testing.TB
	// Server is the in-process server; nil for a connected emulator.
	Server   *emulator.Server
	inspect  *Inspector
	client   *http.Client
	pool     *x509.CertPool
	httpURL  string
	httpsURL string
	wait     time.Duration
}

// Start runs an emulator in-process on free loopback ports with a virtual
// clock (starting at DefaultStart), no jitter, no probation and a 3 s settle
// bound (emulator.Options.SettleTimeout), and stops it
// when the test ends.
func Start(t testing.TB, opts ...Option) *Emulator {
	t.Helper()
	o := emulator.Options{
		Clock:            engine.ModeVirtual,
		Start:            DefaultStart(),
		DisableJitter:    true,
		DisableProbation: true,
		// Generous, so a delivery slowed by a loaded test machine is still
		// waited for; tests of endpoints that never answer set it lower.
		SettleTimeout: 3 * time.Second,
		WebhookClient: &http.Client{Transport: insecureTransport()},
	}
	for _, opt := range opts {
		opt(&o)
	}
	srv, err := emulator.Start(o)
	if err != nil {
		t.Fatalf("testkit: starting the emulator: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	e := newEmulator(t, srv.URL(), srv.TLSURL(), srv.CertPool())
	e.Server = srv
	return e
}

// Connect attaches to an emulator that is already running (the binary, a
// container) through its HTTP base URL, e.g. "http://127.0.0.1:4080". It
// trusts the emulator's CA, read from GET /_emulator/ca.pem.
func Connect(t testing.TB, httpURL string) *Emulator {
	t.Helper()
	ctx := context.Background()
	probe := NewInspector(httpURL, nil)
	pem, err := probe.CACertPEM(ctx)
	if err != nil {
		t.Fatalf("testkit: reading the emulator's CA from %s: %v", httpURL, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("testkit: %s/_emulator/ca.pem holds no certificate", httpURL)
	}
	info, err := probe.Info(ctx)
	if err != nil {
		t.Fatalf("testkit: reading %s/_emulator/info: %v", httpURL, err)
	}
	return newEmulator(t, httpURL, info.HTTPS, pool)
}

func newEmulator(t testing.TB, httpURL, httpsURL string, pool *x509.CertPool) *Emulator {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	client := &http.Client{Transport: tr}
	return &Emulator{
		t: t, client: client, pool: pool, httpURL: httpURL, httpsURL: httpsURL,
		inspect: NewInspector(httpURL, client), wait: DefaultWait,
	}
}

// insecureTransport lets deliveries reach test webhooks that serve
// self-signed certificates (httptest.NewTLSServer).
func insecureTransport() http.RoundTripper {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // test endpoints only
	// A route keeps up to 16 deliveries in flight; with Go's default of 2
	// idle connections per host the rest would dial a new connection for
	// every event.
	tr.MaxIdleConnsPerHost = 64
	return tr
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

// Now is the emulator's current time.
func (e *Emulator) Now() time.Time {
	e.t.Helper()
	v, err := e.inspect.Clock(context.Background())
	if err != nil {
		e.t.Fatalf("testkit: reading the clock: %v", err)
	}
	return v.Now
}

// Advance moves the virtual clock by d, firing every retry, TTL check and
// dead-letter write due on the way, and returns the new time.
func (e *Emulator) Advance(d time.Duration) time.Time {
	e.t.Helper()
	v, err := e.inspect.Advance(context.Background(), d)
	if err != nil {
		e.t.Fatalf("testkit: advancing the clock by %v: %v", d, err)
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
		e.t.Fatalf("testkit: reading %s entries: %v", kind, err)
	}
	return page.Entries
}

// Deliveries lists every delivery attempt passing f, oldest first.
func (e *Emulator) Deliveries(f Filter) []Entry {
	e.t.Helper()
	return e.entries(engine.KindAttempt, f)
}

// DeadLetters lists every dead letter written, to any sink.
func (e *Emulator) DeadLetters(f Filter) []Entry {
	e.t.Helper()
	return e.entries(engine.KindDeadLetter, f)
}

// Drops lists every event given up without a dead letter, with the reason.
func (e *Emulator) Drops(f Filter) []Entry { e.t.Helper(); return e.entries(engine.KindDrop, f) }

// Journal lists every journal entry passing f.
func (e *Emulator) Journal(f Filter) []Entry { e.t.Helper(); return e.entries("", f) }

// WaitForDeliveries waits until at least n delivery attempts pass f and
// returns them; on timeout it fails the test showing what was delivered.
func (e *Emulator) WaitForDeliveries(f Filter, n int) []Entry {
	e.t.Helper()
	return e.waitFor(engine.KindAttempt, f, n)
}

// WaitForDeadLetters waits until at least n dead letters pass f.
func (e *Emulator) WaitForDeadLetters(f Filter, n int) []Entry {
	e.t.Helper()
	return e.waitFor(engine.KindDeadLetter, f, n)
}

func (e *Emulator) waitFor(kind string, f Filter, n int) []Entry {
	e.t.Helper()
	page, err := e.inspect.WaitEntries(context.Background(), kind, f, n, e.wait)
	if err != nil {
		e.t.Fatalf("testkit: waiting for %d %s entries: %v", n, kind, err)
	}
	if len(page.Entries) < n {
		all := e.entries(kind, Filter{})
		e.t.Fatalf("testkit: waited %v for %d %s entries matching %s; %d matched.\nAll %s entries:\n%s",
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

// AddFault makes matching attempts fail without reaching their destination.
func (e *Emulator) AddFault(f engine.Fault) engine.Fault {
	e.t.Helper()
	out, err := e.inspect.AddFault(context.Background(), f)
	if err != nil {
		e.t.Fatalf("testkit: adding fault: %v", err)
	}
	return out
}

// Reset forgets every resource, event, fault and journal entry.
func (e *Emulator) Reset() {
	e.t.Helper()
	if err := e.inspect.Reset(context.Background()); err != nil {
		e.t.Fatalf("testkit: reset: %v", err)
	}
}
