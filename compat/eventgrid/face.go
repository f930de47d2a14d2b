package eventgrid

import (
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// FaceConfig is what the emulator hands the Event Grid face: its engine and
// listeners, and the server options that touch Event Grid's behaviour. A
// test builds the face with the same fields the binary sets; only the
// options (storage, jitter, seed, probation) differ between runs.
type FaceConfig struct {
	// Engine delivers events for basic topics and namespaces alike; its
	// clock is the cloud's clock and its journal records every publish and
	// attempt. Required.
	Engine *engine.Engine
	// PublicTLSBaseURL returns the https base URL of the TLS listener as
	// clients reach it, e.g. "https://127.0.0.1:8443"; it is asked on every
	// answer, so the listener may start after NewFace. A topic's endpoint
	// is PublicTLSBaseURL + "/topics/<topic>/api/events" (the Go data-plane
	// SDK sends keys only over https), validation URLs live under it, and
	// namespaces advertise its host:port as their
	// topicsConfiguration.hostname. Required.
	PublicTLSBaseURL func() string
	// HTTPClient makes webhook deliveries and validation handshakes; it
	// should trust the certificates of https webhooks. Basic topics never
	// follow redirects. Required.
	HTTPClient *http.Client
	// AzureStorage holds the --azure-storage connection strings. Dead-letter
	// blobs go into these accounts (D-SINKS); none keeps dead letters in
	// MemorySink. A Storage Queue destination delivers into the queue
	// service of the account its resourceId names, or of Azurite's
	// devstoreaccount1 (or the only account given) when that account is not
	// among them, as dead letters do; with no queue service, Storage Queue
	// deliveries are captured like the other Azure-resource destinations.
	// System topics watch these accounts' blobs.
	AzureStorage []string
	// StoragePollInterval is how often the storage accounts of system
	// topics are listed for blob events, in real time (--storage-poll); 0
	// means every second, negative lists only on POST /_emulator/eventgrid/storage/sync.
	StoragePollInterval time.Duration
	// MemorySink keeps dead letters when no storage account is configured
	// (the emulator's in-memory default). Required.
	MemorySink engine.Sink
	// Jitter and Seed spread retry waits (EG-9: on unless --no-jitter);
	// Probation turns on delayed delivery and probation (EG-17, EG-18: on
	// unless --no-probation). Tests that assert exact retry times leave
	// both off, as the binary's flags do.
	Jitter    bool
	Seed      int64
	Probation bool
}

// Face is all of Event Grid that the emulator mounts: basic topics and
// namespaces, sharing one dead-letter store, with Azure's full retry rules.
type Face struct {
	basic      *basicTopics
	namespaces *namespaces.Service
	accounts   []string
}

// NewFace builds the Event Grid face; it is the face's one constructor, for
// the binary and tests alike. It fails when a connection string in
// cfg.AzureStorage cannot be read.
func NewFace(cfg FaceConfig) (*Face, error) {
	sink, accounts, err := newDeadLetterStore(cfg.AzureStorage, cfg.MemorySink)
	if err != nil {
		return nil, err
	}
	basic := newBasicTopics(cfg, sink)
	ns := namespaces.New(namespaces.Config{
		Engine: cfg.Engine,
		// host:port, without the scheme (topicsConfiguration.hostname).
		PublicTLSHost:  func() string { return strings.TrimPrefix(cfg.PublicTLSBaseURL(), "https://") },
		DeadLetterSink: sink,
		HTTPClient:     cfg.HTTPClient,
	})
	return &Face{basic: basic, namespaces: ns, accounts: accounts}, nil
}

// Register mounts namespaces, then basic topics, on r: namespace ARM paths
// are more specific than the basic-topic routes' catch-alls.
func (f *Face) Register(r *mux.Router) {
	f.namespaces.Register(r)
	f.basic.Register(r)
}

// RegisterInspection lists the basic topics and their subscriptions
// (inspect.go) and adds POST /eventgrid/storage/sync: the storage accounts
// of system topics are listed now, and the blob events of what changed are
// queued before the answer (testkit.SyncStorageEvents). The rest of what
// Event Grid does is in the emulator-wide journal, metrics and dead-letter
// views.
func (f *Face) RegisterInspection(r *mux.Router) {
	r.HandleFunc("/eventgrid/topics", f.handleTopics).Methods(http.MethodGet)
	r.HandleFunc("/eventgrid/storage/sync", f.basic.ServeStorageSync).Methods(http.MethodPost)
}

// Close stops watching storage accounts.
func (f *Face) Close() { f.basic.Close() }

// Reset forgets every namespace, topic and event subscription.
func (f *Face) Reset() {
	f.namespaces.Reset()
	f.basic.Reset()
}

// StorageAccounts names the storage accounts dead letters go to; empty
// means the in-memory default.
func (f *Face) StorageAccounts() []string { return f.accounts }

// QueueMetrics are one namespace queue (pull) subscription's counters.
type QueueMetrics = namespaces.QueueMetrics

// QueueMetrics lists every namespace queue subscription's counters, so a
// pull subscription can be accounted for without the bounded journal.
func (f *Face) QueueMetrics() []QueueMetrics { return f.namespaces.QueueMetrics() }
