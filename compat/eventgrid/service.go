package eventgrid

import (
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/azure/armspec"
	"github.com/gridbridge/gridbridge/compat/entra"
	"github.com/gridbridge/gridbridge/compat/eventgrid/basicarm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/publish"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/compat/eventgrid/webhook"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// basicTopics is the basic-topic half of the Event Grid face: topics,
// domains, system topics and their event subscriptions, their handlers and
// delivery routes. It holds nothing outside the value, so two faces in one
// process are independent.
type basicTopics struct {
	cfg     FaceConfig
	sink    engine.Sink // dead letters: the storage accounts, or memory
	clock   engine.Clock
	journal *engine.Journal
	store   *resource.Store
	arm     *arm.Table
	publish *publish.Handler
	client  *http.Client   // deliveries and handshakes; never follows redirects
	queues  *storageQueues // Storage Queue destinations' services
	storage *storageEvents // blob events of system topics' accounts

	mu sync.Mutex
	// timers are the pending expiry and manual-validation timers, by key.
	timers map[string]engine.Timer
}

// newBasicTopics is NewFace's basic-topic half; dead letters go to sink.
func newBasicTopics(cfg FaceConfig, sink engine.Sink) *basicTopics {
	s := &basicTopics{
		cfg:     cfg,
		sink:    sink,
		clock:   cfg.Engine.Clock(),
		journal: cfg.Engine.Journal(),
		store:   resource.NewStore(),
		client:  webhook.NoRedirects(cfg.HTTPClient),
		queues:  newStorageQueues(cfg.AzureStorage),
		storage: newStorageEvents(cfg.AzureStorage),
		timers:  make(map[string]engine.Timer),
	}
	s.arm = arm.NewTable(arm.Options{CheckBody: armspec.NewChecker().CheckPut}, (&basicarm.Handler{Store: s.store, Hooks: (*armHooks)(s)}).Endpoints()...)
	s.publish = &publish.Handler{
		Store: s.store, Now: s.clock.Now, Endpoint: s.topicEndpoint, Accept: s.accept, NewID: uuid.NewString,
	}
	return s
}

// Register mounts the ARM API, the publish endpoint and the manual
// validation URL on r. The emulator mounts the same router on its HTTP and
// TLS listeners.
func (s *basicTopics) Register(r *mux.Router) {
	r.Path("/topics/{topic}/api/events").Handler(entra.OnPlane(entra.EventGridPlane(), http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s.publish.Serve(w, req, mux.Vars(req)["topic"])
	})))
	r.Path("/domains/{domain}/api/events").Handler(entra.OnPlane(entra.EventGridPlane(), http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s.publish.ServeDomain(w, req, mux.Vars(req)["domain"])
	})))
	r.Path("/eventsubscriptions/{name}/validate").Methods(http.MethodGet, http.MethodPost).
		HandlerFunc(s.serveManualValidation)
	s.arm.Mount(r)
}

// Reset forgets every topic and event subscription (POST /_emulator/reset):
// their routes are removed (what they still held is journalled as dropped)
// and pending timers stopped.
func (s *basicTopics) Reset() {
	s.mu.Lock()
	for key, t := range s.timers {
		t.Stop()
		delete(s.timers, key)
	}
	s.mu.Unlock()
	s.stopStorage()
	for _, t := range s.store.Topics() {
		for _, sub := range s.store.Subscriptions(t.ID) {
			s.cfg.Engine.RemoveRoute(routeID(t, sub), "Reset")
		}
	}
	s.store.Reset()
}

// topicEndpoint is a topic's publish URL, advertised in properties.endpoint.
func (s *basicTopics) topicEndpoint(t *resource.Topic) string {
	switch t.Type {
	case resource.TypeDomain:
		return s.publicBase() + "/domains/" + url.PathEscape(t.Name) + "/api/events"
	case resource.TypeTopic:
		return s.publicBase() + "/topics/" + url.PathEscape(t.Name) + "/api/events"
	}
	return "" // domain topics and system topics take no events of their own
}

func (s *basicTopics) publicBase() string {
	return strings.TrimRight(s.cfg.PublicTLSBaseURL(), "/")
}
