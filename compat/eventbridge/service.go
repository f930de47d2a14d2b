package eventbridge

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
	"github.com/gridbridge/gridbridge/compat/aws/frame"
	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Config wires the EventBridge face to the rest of GridBridge.
type Config struct {
	Engine *engine.Engine
	// SQS is where SQS targets and dead-letter queues write: GridBridge's
	// own SQS, or the server at --sqs-endpoint (compat/sqs's Queues).
	SQS sqssend.Queues
	// HTTPClient calls API destinations and OAuth endpoints; nil →
	// http.DefaultClient.
	HTTPClient *http.Client
	// Jitter spreads retry waits as EventBridge does; off, the back-off
	// schedule is exact. Seed seeds the jitter.
	Jitter bool
	Seed   int64
	// Log receives the panics the request frame catches; nil: discarded.
	Log *slog.Logger
}

// Service serves the EventBridge API and owns its buses, rules and targets.
type Service struct {
	engine *engine.Engine
	clock  engine.Clock
	sqs    sqssend.Queues
	http   *http.Client
	jitter *engine.Jitter // nil: off
	ops    map[string]operation
	// model checks each request against the EventBridge model's
	// constraints before its operation sees it.
	model *awsmodel.Checker
	// handler is the API behind the AWS request frame.
	handler http.Handler

	mu      sync.Mutex
	tenants map[tenantKey]*tenant
	// generation changes on Reset, so timers armed before it do nothing.
	generation uint64
	// pacers hold API destinations' invocation rate limits.
	pacers *pacers
	// putScratch holds *putEventsScratch for PutEvents calls to reuse.
	putScratch sync.Pool
}

// maxRequestBody bounds a request body. PutEvents, the largest request,
// carries up to 1 MiB of entries as AWS counts them (the event size AWS
// allows since 2026), and in the body those are JSON strings whose escaping
// can double them; 4 MiB leaves room for that and the framing.
const maxRequestBody = 4 << 20

// New returns the EventBridge face over cfg.Engine.
func New(cfg Config) *Service {
	s := &Service{
		engine:  cfg.Engine,
		clock:   cfg.Engine.Clock(),
		sqs:     cfg.SQS,
		http:    cfg.HTTPClient,
		tenants: make(map[tenantKey]*tenant),
		ops:     operations(),
		model:   awsmodel.NewChecker(awsmodel.EventBridge(), awsmodel.Wording{}),
		pacers:  newPacers(),
	}
	if s.http == nil {
		s.http = http.DefaultClient
	}
	if cfg.Jitter {
		s.jitter = retry.NewJitter(uint64(cfg.Seed))
	}
	s.handler = awsjson.Frame("EventBridge", maxRequestBody, cfg.Log).Handler(s.serve)
	return s
}

// Register mounts the API on r: POST / with an X-Amz-Target of AWSEvents.*.
// Other services sharing "/" are told apart by their own targets.
func (s *Service) Register(r *mux.Router) {
	r.Methods(http.MethodPost).Path("/").HeadersRegexp("X-Amz-Target", `^AWSEvents\.`).Handler(s)
}

// JSONTarget is the X-Amz-Target prefix Register's route takes and its
// handler.
func (s *Service) JSONTarget() (string, http.Handler) { return "AWSEvents.", s }

// Reset forgets every bus, rule, target, archive, replay, connection and API
// destination, stops scheduled rules and removes the delivery routes.
func (s *Service) Reset() {
	s.mu.Lock()
	var routes []string
	for _, t := range s.tenants {
		routes = append(routes, t.shutdownLocked()...)
	}
	s.tenants = make(map[tenantKey]*tenant)
	s.generation++
	s.pacers.clear()
	s.mu.Unlock()
	for _, id := range routes {
		s.engine.RemoveRoute(id, "Reset")
	}
}

// call is one API request on its way through an operation.
type call struct {
	ctx    context.Context
	caller awsjson.Caller
	body   []byte
}

// ServeHTTP implements http.Handler: every request goes through the AWS
// request frame.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// serve runs the operation the request's X-Amz-Target names.
func (s *Service) serve(w http.ResponseWriter, req frame.Request) error {
	name := strings.TrimPrefix(req.HTTP.Header.Get("X-Amz-Target"), "AWSEvents.")
	if vs := s.model.Check(name, awsmodel.Input{Body: req.Body}); len(vs) > 0 {
		return awsjson.ModelError(vs, awsjson.CodeValidation, false)
	}
	op, ok := s.ops[name]
	if !ok {
		return awsjson.NewError(awsjson.CodeUnknownOperation, "GridBridge does not implement the EventBridge operation "+name+".")
	}
	result, err := op(s, &call{ctx: req.HTTP.Context(), caller: awsjson.CallerOf(req.HTTP), body: req.Body})
	if err != nil {
		return err
	}
	awsjson.WriteResult(w, req.ID, result)
	return nil
}
