package eventgrid

import (
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// FaceConfig is what the emulator hands the Event Grid face: its engine and
// listeners, and the server options that touch Event Grid's behaviour.
type FaceConfig struct {
	// Engine delivers events for basic topics and namespaces alike.
	Engine *engine.Engine
	// PublicTLSBaseURL is the https base URL of the TLS listener as
	// clients reach it (Config.PublicTLSBaseURL); namespaces advertise its
	// host:port as their topicsConfiguration.hostname.
	PublicTLSBaseURL func() string
	// HTTPClient makes webhook deliveries and validation handshakes.
	HTTPClient *http.Client
	// AzureStorage holds the --azure-storage connection strings. Dead-letter
	// blobs go into these accounts (D-SINKS), Storage Queue destinations
	// into their queue services; none keeps dead letters in MemorySink.
	AzureStorage []string
	// StoragePollInterval is how often the storage accounts of system
	// topics are listed for blob events, in real time (--storage-poll); 0
	// means every second, negative lists only on POST /_emulator/eventgrid/storage/sync.
	StoragePollInterval time.Duration
	// MemorySink keeps dead letters when no storage account is configured
	// (the emulator's in-memory default).
	MemorySink engine.Sink
	// Jitter and Seed spread retry waits (EG-9); Probation turns on delayed
	// delivery and probation (EG-17, EG-18).
	Jitter    bool
	Seed      int64
	Probation bool
}

// Face is all of Event Grid that the emulator mounts: basic topics
// (Service) and namespaces, sharing one dead-letter store, with Azure's full
// retry rules.
type Face struct {
	basic      *Service
	namespaces *namespaces.Service
	accounts   []string
}

// NewFace builds the Event Grid face. It fails when a connection string
// in cfg.AzureStorage cannot be read.
func NewFace(cfg FaceConfig) (*Face, error) {
	sink, accounts, err := newDeadLetterStore(cfg.AzureStorage, cfg.MemorySink)
	if err != nil {
		return nil, err
	}
	basic := New(Config{
		Engine:              cfg.Engine,
		PublicTLSBaseURL:    cfg.PublicTLSBaseURL,
		HTTPClient:          cfg.HTTPClient,
		DeadLetterSink:      sink,
		AzureStorage:        cfg.AzureStorage,
		StoragePollInterval: cfg.StoragePollInterval,
		RetryPolicy:         azureRetry(cfg),
		DeadLetterPolicy:    blobDeadLetters,
		Jitter:              cfg.Jitter,
		Seed:                cfg.Seed,
	})
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

// azureRetry applies Azure's full retry rules (EG-4 … EG-18) to an event
// subscription, with jitter and probation as the options say.
func azureRetry(cfg FaceConfig) func(SubscriptionView) engine.RetryPolicy {
	return func(v SubscriptionView) engine.RetryPolicy {
		kind := retry.AzureResource
		if v.EndpointType == "WebHook" {
			kind = retry.Webhook
		}
		return retry.NewPolicy(retry.Config{
			MaxDeliveryAttempts: v.MaxDeliveryAttempts,
			EventTimeToLive:     v.EventTimeToLive,
			Destination:         kind,
			Jitter:              cfg.Jitter,
			Seed:                uint64(cfg.Seed),
			Probation:           cfg.Probation,
		})
	}
}

// blobDeadLetters writes an event subscription's give-ups as EG-23 records
// into its blob container (EG-19 … EG-22).
func blobDeadLetters(v SubscriptionView, sink engine.Sink) *engine.DeadLetterPolicy {
	dest, err := deadletter.ParseDestination(v.DeadLetter.ResourceID, v.DeadLetter.BlobContainerName)
	if err != nil {
		// ARM validated the destination at create; an unusable one drops
		// give-ups with a reason naming it rather than losing them silently.
		return deadletter.UnusablePolicy(sink, err)
	}
	b := deadletter.NewBuilder(v.Name, dest)
	b.DeliverySchema = v.DeliverySchema
	return b.Policy(sink)
}

// QueueMetrics are one namespace queue (pull) subscription's counters.
type QueueMetrics = namespaces.QueueMetrics

// QueueMetrics lists every namespace queue subscription's counters, so a
// pull subscription can be accounted for without the bounded journal.
func (f *Face) QueueMetrics() []QueueMetrics { return f.namespaces.QueueMetrics() }
