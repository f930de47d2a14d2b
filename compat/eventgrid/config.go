package eventgrid

import (
	"net/http"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Config wires a Service into the emulator.
type Config struct {
	// Engine delivers events; its clock is the cloud's clock and its
	// journal records every publish and attempt.
	Engine *engine.Engine
	// PublicTLSBaseURL is the https base URL of the emulator's TLS
	// listener, e.g. "https://127.0.0.1:8443". A topic's endpoint is
	// PublicTLSBaseURL + "/topics/<topic>/api/events" (the Go data-plane
	// SDK sends keys only over https), and validation URLs live under it.
	PublicTLSBaseURL func() string
	// HTTPClient makes webhook deliveries and validation handshakes; it
	// should trust the test CAs of https webhooks. Redirects are never
	// followed. nil means http.DefaultClient.
	HTTPClient *http.Client
	// DeadLetterSink is where dead letters go (Azurite blobs, or the
	// emulator's in-memory default); it is handed to DeadLetterPolicy.
	DeadLetterSink engine.Sink
	// RetryPolicy builds the retry policy of an event subscription's
	// delivery route each time the subscription is stored. nil means
	// GridBridge's standard policy: the EG-8 schedule, success per EG-4,
	// maxDeliveryAttempts and TTL from the subscription (EG-11..14), give
	// up when either runs out. The full Event Grid rules (per-status
	// floors, never-retried codes, probation: compat/eventgrid/retry) plug
	// in here. A policy with an Observe(engine.Destination)
	// engine.Destination method gets to wrap the route's destination.
	RetryPolicy func(sub SubscriptionView) engine.RetryPolicy
	// DeadLetterPolicy builds the dead-letter policy of an event
	// subscription that names a dead-letter destination (sub.DeadLetter is
	// set), writing to sink (DeadLetterSink). nil, or a nil result, means
	// give-ups are dropped and journalled with their reason (D-DROP).
	DeadLetterPolicy func(sub SubscriptionView, sink engine.Sink) *engine.DeadLetterPolicy
	// Jitter adds a small random delay to every retry step of the standard
	// policy (EG-9); the binary turns it on, tests leave it off. Seed
	// seeds it (0: a random seed).
	Jitter bool
	Seed   int64

	// SkipValidation turns the webhook validation handshakes off: every
	// subscription is Succeeded at once (for sinks that cannot answer them).
	SkipValidation bool
	// ValidationTimeout bounds a handshake in real time (it runs inside
	// the ARM request); 0 means 10 s.
	ValidationTimeout time.Duration
	// AzureStorage holds the emulator's --azure-storage connection strings.
	// A Storage Queue destination delivers into the queue service of the
	// account its resourceId names, or of Azurite's devstoreaccount1 (or
	// the only account given) when that account is not among them, as dead
	// letters do. With no queue service configured, Storage Queue
	// deliveries are captured like the other Azure-resource destinations.
	AzureStorage []string
	// StoragePollInterval is how often, in real time, the storage accounts
	// of system topics are listed for blob changes; 0 means every second,
	// a negative value only on demand (SyncStorageEvents, POST
	// /_emulator/eventgrid/storage/sync).
	StoragePollInterval time.Duration
	// MaxPublishBytes bounds a publish request and each event in it
	// (413 above); 0 means 1 MB, the service's limit.
	MaxPublishBytes int
}

// defaultValidationTimeout is short because the handshake holds the ARM
// request open, and a test's fake answers at once.
const defaultValidationTimeout = 10 * time.Second

// manualValidationWindow is how long, in cloud time, an endpoint's owner
// has to open the validationUrl before the subscription fails (W-EG-3.3).
const manualValidationWindow = 5 * time.Minute

// responseTimeout is the per-attempt delivery timeout (EG-5).
const responseTimeout = 30 * time.Second

// lateSuccessWindow is how long a timed-out delivery request stays open: a
// success within it takes the event off the retry queue, best effort (EG-5).
const lateSuccessWindow = 3 * time.Minute
