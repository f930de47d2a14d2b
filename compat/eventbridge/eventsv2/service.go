package eventsv2

import (
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/eventbridge/v2model"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Config wires a Service to the rest of GridBridge.
type Config struct {
	// Engine delivers, retries and journals; its clock is the service's
	// clock.
	Engine *engine.Engine
	// SQS is where SQS targets and dead-letter records write: GridBridge's
	// own SQS, or the server at --sqs-endpoint (compat/sqs's Queues).
	SQS sqssend.Queues
	// HTTPClient calls targets that are http(s) URLs. Nil means a client
	// without a timeout of its own: InvocationTimeoutSeconds bounds each call
	// on the emulator clock.
	HTTPClient *http.Client
	// Jitter spreads retry waits by up to ±20 %, as the cloud does; off, the
	// schedule is exact (1 s, 2 s, 4 s, …) for tests that assert times.
	Jitter bool
	// Seed makes the jitter reproducible.
	Seed int64
	// NewID returns the id of a new resource of kind (one of the IDKind
	// constants). Nil means random ids. Tests set it to get known ARNs, e.g.
	// the seed's arn:aws:events:…:event-busv2/orders/EXAMPLE1234567890abcdef.
	NewID func(kind string) string
	// Log receives the panics the request frame catches; nil: discarded.
	Log *slog.Logger
}

// Kinds of generated ids, for Config.NewID.
const (
	IDKindEventBus   = "event-busv2" // the last part of a bus ARN
	IDKindSubscriber = "subscriber"  // the last part of a subscriber ARN
	IDKindEvent      = "event"       // an EventId
	IDKindRequest    = "request"     // a request id: API responses, target requests
	IDKindRecord     = "record"      // a dead-letter record's id (its FIFO deduplication id)
)

// Service is GridBridge's face of EventBridge event buses v2: the API of
// EB-D1 and the delivery, retry and dead-letter behaviour of EB-1 … EB-13.
// All of its state hangs off the value; two services are independent.
type Service struct {
	engine     *engine.Engine
	clock      engine.Clock
	sqs        sqssend.Queues
	httpClient *http.Client
	jitter     bool
	seed       int64
	newIDFunc  func(kind string) string
	// handler is the API behind the AWS request frame.
	handler http.Handler

	mu     sync.Mutex
	scopes map[scope]*scopeState
}

// scopeState holds one account and region's buses and subscribers by name.
type scopeState struct {
	buses       map[string]*eventBus
	subscribers map[string]*subscriber
}

// New returns a service with no buses.
func New(cfg Config) *Service {
	s := &Service{
		engine:     cfg.Engine,
		sqs:        cfg.SQS,
		httpClient: cfg.HTTPClient,
		jitter:     cfg.Jitter,
		seed:       cfg.Seed,
		newIDFunc:  cfg.NewID,
		scopes:     make(map[scope]*scopeState),
	}
	if s.httpClient == nil {
		s.httpClient = &http.Client{}
	}
	s.clock = s.engine.Clock()
	api := awsjson.Frame("EventBridge buses v2", maxRequestBody, cfg.Log)
	api.NewID = func() string { return s.newID(IDKindRequest) }
	s.handler = api.Handler(s.serve)
	return s
}

// Register mounts the API on r: POST / with an X-Amz-Target of
// "AWSEventsV2.<Operation>". The header matcher leaves every other request
// to "/" (the classic EventBridge face's "AWSEvents.…", other services) to
// the routes that claim it.
func (s *Service) Register(r *mux.Router) {
	r.Methods(http.MethodPost).Path("/").
		HeadersRegexp("X-Amz-Target", `^`+regexp.QuoteMeta(v2model.TargetPrefix+".")).
		Handler(s.handler)
}

// JSONTarget is the X-Amz-Target prefix Register's route takes and its
// handler.
func (s *Service) JSONTarget() (string, http.Handler) { return v2model.TargetPrefix + ".", s.handler }

// Reset deletes every bus and subscriber. What subscribers still held is
// abandoned: the caller asked for a clean slate.
func (s *Service) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.scopes {
		for _, sub := range st.subscribers {
			sub.close()
			s.engine.RemoveRoute(sub.routeID, engine.ReasonRouteDeleted)
		}
	}
	s.scopes = make(map[scope]*scopeState)
}

// newID returns an id of kind from Config.NewID, or a random one.
func (s *Service) newID(kind string) string {
	if s.newIDFunc != nil {
		if id := s.newIDFunc(kind); id != "" {
			return id
		}
	}
	switch kind {
	case IDKindEventBus, IDKindSubscriber:
		return strings.ReplaceAll(uuid.NewString(), "-", "")
	default:
		return uuid.NewString()
	}
}

// scopeLocked returns sc's state, creating it; for writes. Reads use
// s.scopes[sc] and the nil-safe lookups below, so unknown callers leave no
// state behind.
func (s *Service) scopeLocked(sc scope) *scopeState {
	st, ok := s.scopes[sc]
	if !ok {
		st = &scopeState{buses: make(map[string]*eventBus), subscribers: make(map[string]*subscriber)}
		s.scopes[sc] = st
	}
	return st
}

// busNamed returns the bus called name, or nil; st may be nil.
func (st *scopeState) busNamed(name string) *eventBus {
	if st == nil {
		return nil
	}
	return st.buses[name]
}

// subscriberNamed returns the subscriber called name, or nil; st may be nil.
func (st *scopeState) subscriberNamed(name string) *subscriber {
	if st == nil {
		return nil
	}
	return st.subscribers[name]
}
