package namespaces

import (
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/dlwriter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/queue"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Config is what the Event Grid face (compat/eventgrid.NewFace, the one
// caller) hands the namespaces; every field is required.
type Config struct {
	// Engine supplies the clock, the journal and push delivery.
	Engine *engine.Engine
	// PublicTLSHost returns host:port of the TLS listener as clients reach
	// it, e.g. "127.0.0.1:8443"; it is asked on every response, so the
	// listener may start after New.
	PublicTLSHost func() string
	// DeadLetterSink stores dead letters (azblob sink or the in-memory
	// default).
	DeadLetterSink engine.Sink
	// HTTPClient makes push deliveries.
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

// QueueMetrics are a queue (pull) subscription's counters, listed by
// GET /_emulator/metrics beside the engine's routes, so a pull subscription
// can be accounted without the bounded journal. At every instant
// queued = acknowledged + deadLettered + dropped + awaitingDeadLetter +
// available + locked + delayed.
type QueueMetrics struct {
	Route  string            `json:"route"`
	Labels map[string]string `json:"labels,omitempty"`
	queue.Counts
	DeadLettered uint64 `json:"deadLettered"`
	// Dropped counts ended events given up with no dead letter written,
	// DeadLetterFailed the part whose write failed for good.
	Dropped            uint64 `json:"dropped"`
	DeadLetterFailed   uint64 `json:"deadLetterFailed"`
	AwaitingDeadLetter int64  `json:"awaitingDeadLetter"`
}

// QueueMetrics reports every queue subscription's counters, by route.
func (s *Service) QueueMetrics() []QueueMetrics {
	s.mu.Lock()
	var subs []*subscriptionState
	for _, ns := range s.byARM {
		for _, t := range ns.topics {
			for _, sub := range t.subs {
				if sub.queue != nil {
					subs = append(subs, sub)
				}
			}
		}
	}
	s.mu.Unlock()
	out := make([]QueueMetrics, 0, len(subs))
	for _, es := range subs {
		// Outcomes are read before the queue: an event ending meanwhile is
		// then counted ended and awaiting its dead letter, never twice.
		m := QueueMetrics{Route: es.route, Labels: es.labels}
		m.DeadLettered, m.Dropped, m.DeadLetterFailed = es.pull.deadLettered.Load(), es.pull.dropped.Load(), es.pull.deadLetterFailed.Load()
		m.Counts = es.queue.Counts()
		m.AwaitingDeadLetter = int64(m.Ended) - int64(m.DeadLettered) - int64(m.Dropped)
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Route < out[j].Route })
	return out
}
