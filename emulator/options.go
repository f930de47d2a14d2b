// Package emulator is GridBridge's embeddable server: one process that plays
// Azure Event Grid and Amazon EventBridge on one HTTP and one HTTPS listener,
// with the inspection API under /_emulator/. Start one in a Go test with
// testkit, or from the command line with cmd/emulator.
package emulator

import (
	"log/slog"
	"net/http"
	"time"
)

// Options configure a Server. The zero value serves on free loopback ports
// with a real clock and the in-memory dead-letter default.
type Options struct {
	// Addr is the HTTP listen address; "" means "127.0.0.1:0" (a free port).
	Addr string
	// TLSAddr is the HTTPS listen address; "" means "127.0.0.1:0".
	TLSAddr string
	// Clock is "real" (the default) or "virtual".
	Clock string
	// TimeScale is cloud seconds per real second on the real clock (1 when 0).
	TimeScale float64
	// Start is where a virtual clock starts; the zero value means now.
	Start time.Time
	// SettleTimeout bounds how long a virtual-clock advance waits, in real
	// time, for work blocked outside the emulator (0 means one second).
	SettleTimeout time.Duration

	// AzureStorage holds Azure Storage connection strings for dead-letter
	// blobs (Azurite's "UseDevelopmentStorage=true" included).
	AzureStorage []string
	// StoragePoll is how often, in real time, the storage accounts of Event
	// Grid system topics are listed for blob events; 0 means every second,
	// negative only on POST /_emulator/eventgrid/storage/sync.
	StoragePoll time.Duration
	// SQSEndpoint is an SQS-compatible endpoint for SQS targets and
	// dead-letter queues; "" keeps them in memory.
	SQSEndpoint string

	// JournalCap bounds the journal's entries; 0 means engine.DefaultJournalCap.
	JournalCap int
	// JournalMaxBytes bounds the journal's estimated memory; 0 means
	// engine.DefaultJournalMaxBytes. Past either bound the oldest entries are
	// discarded and counted.
	JournalMaxBytes int64
	// TLSHosts are extra host names or IPs for the server certificate (the
	// loopback names are always included).
	TLSHosts []string
	// AdvertiseTLSURL overrides the https base URL written into resources
	// (topic endpoints), e.g. when a container's port is mapped.
	AdvertiseTLSURL string
	// CAFile, when set, is where the CA certificate is written at start.
	CAFile string
	// AllowedHosts are more host names the emulator answers (guard.go):
	// besides them only IP literals, localhost, *.localhost, TLSHosts and the
	// host of AdvertiseTLSURL are served; others get 403, so a web page that
	// rebinds its DNS name to the emulator cannot read or drive it. A name
	// starting with "." or "*." allows its subdomains; "*" allows any host.
	AllowedHosts []string

	// ReadTimeout bounds reading a request's body (0: DefaultReadTimeout);
	// IdleTimeout closes idle keep-alive connections (0: DefaultIdleTimeout).
	ReadTimeout, IdleTimeout time.Duration

	// RecordSecrets keeps secret values (connection auth parameters, values
	// marked secret, webhook URL queries) readable in what the emulator shows
	// and writes, for debugging. Off, they show as a marker.
	RecordSecrets bool

	// DisableJitter turns off retry jitter (EG-9) so schedules are exact.
	DisableJitter bool
	// Seed seeds retry jitter; 0 picks one at random.
	Seed int64
	// DisableProbation turns off Event Grid's delayed delivery and probation
	// (EG-17, EG-18) for tests that want plain schedules.
	DisableProbation bool

	// StrictAuth refuses bearer tokens the emulator's Entra ID authority
	// did not issue, and ARM requests without one; by default any other
	// token is accepted unchecked.
	StrictAuth bool

	// WebhookClient makes outgoing deliveries (webhooks, API destinations);
	// nil means a client that accepts any server certificate, as local
	// endpoints rarely have trusted ones.
	WebhookClient *http.Client
	// Logger receives the emulator's logs; nil discards them.
	Logger *slog.Logger
	// AfterAdvance, when set, is called after each advance of the virtual
	// clock through the inspection API, before it is answered, with the real
	// time the advance took. The binary gives freed memory back to the
	// system then (cmd/emulator).
	AfterAdvance func(took time.Duration)

	// Config is the path of a topology file (JSON or YAML, see
	// emulator/topology) whose topics, subscriptions, buses, rules and
	// targets are created at start; "" creates nothing. A bad file, or a
	// resource the emulator refuses, fails Start naming the file's line.
	Config string
}
