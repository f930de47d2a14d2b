package pipes

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
	"github.com/gridbridge/gridbridge/compat/aws/eventbus"
	"github.com/gridbridge/gridbridge/compat/aws/frame"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/aws/sqssource"
	"github.com/gridbridge/gridbridge/compat/eventbridge/targets"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

// Config wires the Pipes face to the rest of GridBridge.
type Config struct {
	Engine *engine.Engine
	// Sources are the queues SQS sources are read from: GridBridge's own
	// SQS. Nil when SQS is a server at SQSEndpoint: pipes then fail to
	// start, saying so in their StateReason.
	Sources     sqssource.Queues
	SQSEndpoint string
	// SQS is where SQS targets write: GridBridge's own SQS or the server
	// at --sqs-endpoint.
	SQS sqssend.Queues
	// EventBridge is where event bus targets put their events, meeting the
	// bus's rules as a PutEvents entry does.
	EventBridge eventbus.Bus
	// APIDestinations resolves an API destination of the EventBridge face
	// (an enrichment or a target) with its connection's auth.
	APIDestinations func(arn string) (targets.Endpoint, error)
	// HTTPClient calls API destinations; nil: http.DefaultClient.
	HTTPClient *http.Client
	// Log receives the panics the request frame catches; nil: discarded.
	Log *slog.Logger
}

// Service serves the Pipes API and runs the pipes.
type Service struct {
	cfg    Config
	engine *engine.Engine
	clock  engine.Clock
	api    *frame.API
	// model checks each request against the Pipes model's constraints
	// before its operation sees it.
	model *awsmodel.Checker

	mu      sync.Mutex
	tenants map[tenantKey]map[string]*pipe
	// routeSeq numbers pipes, so a pipe created again under its name never
	// shares its journal entries or fault rules with the one before.
	routeSeq uint64
}

// maxRequestBody bounds a request: the largest, a pipe, holds two 8 KiB
// templates and five 4 KiB patterns, which JSON escaping may grow sixfold.
const maxRequestBody = 1 << 20

// New returns the Pipes face over cfg.Engine.
func New(cfg Config) *Service {
	return &Service{
		cfg: cfg, engine: cfg.Engine, clock: cfg.Engine.Clock(), tenants: map[tenantKey]map[string]*pipe{},
		api:   awsjson.RESTFrame("EventBridge Pipes", maxRequestBody, cfg.Log, codeValidation, codeInternal),
		model: awsmodel.NewChecker(awsmodel.Pipes(), awsmodel.Wording{LengthBetween: true, CollectionsAsNull: true}),
	}
}

// Register mounts the REST paths of the Pipes API: /v1/pipes/… of its
// own, and /tags/{arn} for a pipe's ARN, a path EventBridge Scheduler
// shares, told apart by the service the request is signed for or the ARN.
func (s *Service) Register(r *mux.Router) {
	// Each route is named for its operation, as the model names it: the
	// operation API faults match (awsjson.RESTFrame).
	handle := func(method, path string, op operation, name string) {
		r.Methods(method).Path(path).Name(name).Handler(s.handler(name, op))
	}
	handle(http.MethodPost, "/v1/pipes/{Name}", (*Service).createPipe, "CreatePipe")
	handle(http.MethodGet, "/v1/pipes/{Name}", (*Service).describePipe, "DescribePipe")
	handle(http.MethodPut, "/v1/pipes/{Name}", (*Service).updatePipe, "UpdatePipe")
	handle(http.MethodDelete, "/v1/pipes/{Name}", (*Service).deletePipe, "DeletePipe")
	handle(http.MethodGet, "/v1/pipes", (*Service).listPipes, "ListPipes")
	handle(http.MethodPost, "/v1/pipes/{Name}/start", (*Service).startPipe, "StartPipe")
	handle(http.MethodPost, "/v1/pipes/{Name}/stop", (*Service).stopPipe, "StopPipe")
	tags := r.PathPrefix("/tags/").MatcherFunc(forPipes).Subrouter()
	tags.Methods(http.MethodGet).Path("/{resourceArn:.+}").Name("ListTagsForResource").Handler(s.handler("ListTagsForResource", (*Service).listTags))
	tags.Methods(http.MethodPost).Path("/{resourceArn:.+}").Name("TagResource").Handler(s.handler("TagResource", (*Service).tagResource))
	tags.Methods(http.MethodDelete).Path("/{resourceArn:.+}").Name("UntagResource").Handler(s.handler("UntagResource", (*Service).untagResource))
}

// forPipes matches a tagging request for a pipe: signed for the pipes
// service, or naming a pipe's ARN.
func forPipes(r *http.Request, _ *mux.RouteMatch) bool {
	return frame.SigningService(r) == "pipes" || strings.Contains(r.URL.Path, ":pipes:")
}

// Reset deletes every pipe and stops its work.
func (s *Service) Reset() {
	s.mu.Lock()
	old := s.tenants
	s.tenants = map[tenantKey]map[string]*pipe{}
	s.mu.Unlock()
	for _, t := range old {
		for _, p := range t {
			if p.run != nil {
				p.run.stop()
			}
		}
	}
}

// Close stops every pipe's work, leaving the pipes.
func (s *Service) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tenants {
		for _, p := range t {
			if p.run != nil {
				p.run.stop()
				p.run = nil
			}
		}
	}
}

// call is one API request on its way through an operation.
type call struct {
	caller awsjson.Caller
	vars   map[string]string
	query  map[string][]string
	body   []byte
}

type operation func(s *Service, c *call) (any, *awsjson.Error)

// handler serves op inside the AWS request frame.
func (s *Service) handler(name string, op operation) http.Handler {
	return s.api.Handler(func(w http.ResponseWriter, req frame.Request) error {
		r := req.HTTP
		if apiErr := awsjson.CheckREST(s.model, name, r, mux.Vars(r), req.Body, codeValidation, true); apiErr != nil {
			return apiErr
		}
		result, apiErr := op(s, &call{caller: awsjson.CallerOf(r), vars: mux.Vars(r), query: r.URL.Query(), body: req.Body})
		if apiErr != nil {
			return apiErr
		}
		awsjson.WriteRESTResult(w, req.ID, result)
		return nil
	})
}

func (c *call) tenantKey() tenantKey {
	return tenantKey{account: c.caller.Account, region: c.caller.Region}
}

// decode reads the JSON body into v; an empty body is an empty object.
func (c *call) decode(v any) *awsjson.Error {
	if len(c.body) == 0 {
		return nil
	}
	if err := json.Unmarshal(c.body, v); err != nil {
		return validation("The request body is not valid JSON for this operation: %s", jsonerr.Describe(err, v, memberKind))
	}
	return nil
}

// memberKind names what a member of Go type t takes, as the API reference
// does: timestamps are numbers of epoch seconds.
func memberKind(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && awsjson.IsTimestamp(t) {
		return "a timestamp (a number of epoch seconds)"
	}
	return jsonerr.Kind(t)
}

func (c *call) param(name string) string {
	if v := c.query[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}
