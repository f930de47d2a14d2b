package eventbridge

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/gridbridge/gridbridge/compat/aws/retry"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
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
}

// Service serves the EventBridge API and owns its buses, rules and targets.
type Service struct {
	engine *engine.Engine
	clock  engine.Clock
	sqs    sqssend.Queues
	http   *http.Client
	jitter *engine.Jitter // nil: off
	ops    map[string]operation

	mu      sync.Mutex
	tenants map[tenantKey]*tenant
	// generation changes on Reset, so timers armed before it do nothing.
	generation uint64
	// pacers hold API destinations' invocation rate limits.
	pacers *pacers
	// putScratch holds *putEventsScratch for PutEvents calls to reuse.
	putScratch sync.Pool
}

// maxRequestBody bounds a request body. PutEvents carries at most 256 KB of
// entries; the rest is JSON framing.
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
		pacers:  newPacers(),
	}
	if s.http == nil {
		s.http = http.DefaultClient
	}
	if cfg.Jitter {
		s.jitter = retry.NewJitter(uint64(cfg.Seed))
	}
	return s
}

// Register mounts the API on r: POST / with an X-Amz-Target of AWSEvents.*.
// Other services sharing "/" are told apart by their own targets.
func (s *Service) Register(r *mux.Router) {
	r.Methods(http.MethodPost).Path("/").HeadersRegexp("X-Amz-Target", `^AWSEvents\.`).Handler(s)
}

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

// ServeHTTP implements http.Handler.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	requestID := uuid.NewString()
	defer func() {
		if p := recover(); p != nil {
			awsjson.WriteError(w, requestID, awsjson.NewError(awsjson.CodeInternal, "GridBridge failed to handle the request."))
		}
	}()
	name := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "AWSEvents.")
	op, ok := s.ops[name]
	if !ok {
		awsjson.WriteError(w, requestID, awsjson.NewError(awsjson.CodeUnknownOperation,
			"GridBridge does not implement the EventBridge operation "+name+"."))
		return
	}
	body, err := readBody(r, maxRequestBody)
	if err != nil {
		awsjson.WriteError(w, requestID, awsjson.NewError(awsjson.CodeSerialization, "The request body could not be read."))
		return
	}
	if len(body) > maxRequestBody {
		awsjson.WriteError(w, requestID, awsjson.Validation("The request body is larger than GridBridge accepts (%d bytes).", maxRequestBody))
		return
	}
	result, err := op(s, &call{ctx: r.Context(), caller: awsjson.CallerOf(r), body: body})
	if err != nil {
		awsjson.WriteError(w, requestID, err)
		return
	}
	awsjson.WriteResult(w, requestID, result)
}

// readBody reads at most limit+1 bytes of r's body (one more than allowed,
// so an oversize body shows). The buffer starts at the declared length, so a
// PutEvents body is read without the regrowing io.ReadAll does.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	size := int64(512)
	if r.ContentLength > 0 {
		// One byte more than declared: the read that finds the end of the
		// body needs room.
		size = min(r.ContentLength, limit) + 1
	}
	body := make([]byte, 0, size)
	rd := io.LimitReader(r.Body, limit+1)
	for {
		n, err := rd.Read(body[len(body):cap(body)])
		body = body[:len(body)+n]
		if err == io.EOF {
			return body, nil
		}
		if err != nil {
			return body, err
		}
		if len(body) == cap(body) {
			body = append(body, 0)[:len(body)]
		}
	}
}
