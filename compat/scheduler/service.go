package scheduler

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"reflect"
	"sync"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
	"github.com/gridbridge/gridbridge/compat/aws/eventbus"
	"github.com/gridbridge/gridbridge/compat/aws/frame"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

// Config wires the Scheduler face to the rest of GridBridge.
type Config struct {
	Engine *engine.Engine
	// SQS is where SQS targets and dead-letter queues write: GridBridge's
	// own SQS, or the server at --sqs-endpoint (compat/sqs's Queues).
	SQS sqssend.Queues
	// EventBridge is where EventBridge targets put their events: the
	// EventBridge face's buses, whose rules meet them.
	EventBridge eventbus.Bus
	// Jitter spreads retry waits; Seed seeds it and places flexible-window
	// invocations, so a run can be repeated.
	Jitter bool
	Seed   int64
	// Log receives the panics the request frame catches; nil: discarded.
	Log *slog.Logger
}

// Service serves the Scheduler API and runs the schedules.
type Service struct {
	engine *engine.Engine
	clock  engine.Clock
	sqs    sqssend.Queues
	buses  eventbus.Bus
	jitter bool
	seed   int64
	// api is the AWS request frame every operation is served in.
	api *frame.API
	// model checks each request against the Scheduler model's constraints
	// before its operation sees it.
	model *awsmodel.Checker

	mu      sync.Mutex
	tenants map[tenantKey]*tenant
	// generation changes on Reset, so timers armed before it do nothing.
	generation uint64
	// routeSeq numbers routes, so a schedule created again under the same
	// name never inherits the retries of its predecessor.
	routeSeq uint64
}

// maxRequestBody bounds a request body. The largest request, a schedule,
// is a few KiB: its Input is at most 8,192 characters, which JSON escaping
// can make six bytes each; 1 MiB bounds memory and refuses nothing AWS
// takes.
const maxRequestBody = 1 << 20

// New returns the Scheduler face over cfg.Engine.
func New(cfg Config) *Service {
	return &Service{
		engine: cfg.Engine, clock: cfg.Engine.Clock(), sqs: cfg.SQS, buses: cfg.EventBridge,
		jitter: cfg.Jitter, seed: cfg.Seed, tenants: make(map[tenantKey]*tenant),
		api:   awsjson.RESTFrame("EventBridge Scheduler", maxRequestBody, cfg.Log, codeValidation, codeInternal),
		model: awsmodel.NewChecker(awsmodel.Scheduler(), awsmodel.Wording{LengthBetween: true, ValueBetween: true}),
	}
}

// Register mounts the REST paths of the Scheduler API. They share the
// endpoint with the other faces, whose paths are /subscriptions/… (ARM) and
// POST / (EventBridge's JSON 1.1), so the prefixes do not collide.
func (s *Service) Register(r *mux.Router) {
	// Each route is named for its operation, as the model names it: the
	// operation API faults match (awsjson.RESTFrame).
	handle := func(method, path string, op operation, name string) {
		r.Methods(method).Path(path).Name(name).Handler(s.handler(name, op))
	}
	handle(http.MethodPost, "/schedules/{Name}", (*Service).createSchedule, "CreateSchedule")
	handle(http.MethodGet, "/schedules/{Name}", (*Service).getSchedule, "GetSchedule")
	handle(http.MethodPut, "/schedules/{Name}", (*Service).updateSchedule, "UpdateSchedule")
	handle(http.MethodDelete, "/schedules/{Name}", (*Service).deleteSchedule, "DeleteSchedule")
	handle(http.MethodGet, "/schedules", (*Service).listSchedules, "ListSchedules")
	handle(http.MethodPost, "/schedule-groups/{Name}", (*Service).createGroup, "CreateScheduleGroup")
	handle(http.MethodGet, "/schedule-groups/{Name}", (*Service).getGroup, "GetScheduleGroup")
	handle(http.MethodDelete, "/schedule-groups/{Name}", (*Service).deleteGroup, "DeleteScheduleGroup")
	handle(http.MethodGet, "/schedule-groups", (*Service).listGroups, "ListScheduleGroups")
	// A resource ARN holds slashes (schedule-group/name), escaped by the SDK.
	handle(http.MethodGet, "/tags/{ResourceArn:.+}", (*Service).listTags, "ListTagsForResource")
	handle(http.MethodPost, "/tags/{ResourceArn:.+}", (*Service).tagResource, "TagResource")
	handle(http.MethodDelete, "/tags/{ResourceArn:.+}", (*Service).untagResource, "UntagResource")
}

// Reset forgets every group and schedule and removes their routes.
func (s *Service) Reset() {
	s.mu.Lock()
	var routes []string
	for _, t := range s.tenants {
		for _, g := range t.groups {
			for _, sc := range g.schedules {
				routes = append(routes, s.stopLocked(sc))
			}
		}
	}
	s.tenants = make(map[tenantKey]*tenant)
	s.generation++
	s.mu.Unlock()
	for _, id := range routes {
		s.engine.RemoveRoute(id, "Reset")
	}
}

// call is one API request on its way through an operation.
type call struct {
	ctx    context.Context
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
		if apiErr := awsjson.CheckREST(s.model, name, r, mux.Vars(r), req.Body, codeValidation, false); apiErr != nil {
			return apiErr
		}
		result, apiErr := op(s, &call{ctx: r.Context(), caller: awsjson.CallerOf(r), vars: mux.Vars(r), query: r.URL.Query(), body: req.Body})
		if apiErr != nil {
			return apiErr
		}
		awsjson.WriteRESTResult(w, req.ID, result)
		return nil
	})
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
