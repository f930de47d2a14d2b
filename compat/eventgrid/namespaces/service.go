package namespaces

import (
	"net/http"
	"sync"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/dlwriter"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Config is what the emulator hands the face.
type Config struct {
	// Engine supplies the clock, the journal and push delivery.
	Engine *engine.Engine
	// PublicTLSHost returns host:port of the TLS listener as clients reach
	// it, e.g. "127.0.0.1:8443"; it is asked on every response, so the
	// listener may start after New.
	PublicTLSHost func() string
	// DeadLetterSink stores dead letters (azblob sink or the in-memory
	// default); never nil.
	DeadLetterSink engine.Sink
	// HTTPClient makes push deliveries; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// Service serves one emulator's namespaces. All its state hangs off the
// value: two services in one process are independent.
type Service struct {
	cfg     Config
	clock   engine.Clock
	journal *engine.Journal
	writer  *dlwriter.Writer

	mu     sync.RWMutex
	byARM  map[string]*namespaceState // armKey(sub, rg, name)
	byName map[string]*namespaceState // lower-case name: data-plane host names are global
	subSeq uint64                     // creation order of subscriptions
}

// New returns a service with no namespaces.
func New(cfg Config) *Service {
	clock := cfg.Engine.Clock()
	journal := cfg.Engine.Journal()
	return &Service{
		cfg:     cfg,
		clock:   clock,
		journal: journal,
		writer:  dlwriter.New(clock, journal, cfg.DeadLetterSink),
		byARM:   make(map[string]*namespaceState),
		byName:  make(map[string]*namespaceState),
	}
}

// Reset forgets every namespace, queued event, lock and pending dead-letter
// write, without journalling: the caller asked for a clean slate.
func (s *Service) Reset() {
	s.mu.Lock()
	namespaces := s.byARM
	s.byARM = make(map[string]*namespaceState)
	s.byName = make(map[string]*namespaceState)
	s.mu.Unlock()
	for _, ns := range namespaces {
		for _, t := range ns.topics {
			for _, sub := range t.subs {
				s.stopDelivery(sub, "")
			}
		}
	}
	s.writer.Reset()
}

// pushResponseTimeout is how long a push attempt may wait for the endpoint,
// on the emulator clock (Event Grid's 30 s, EG-5; UNCONFIRMED for namespaces).
const pushResponseTimeout = 30 * time.Second
