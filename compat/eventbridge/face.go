package eventbridge

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/sqssink"
	"github.com/gridbridge/gridbridge/compat/eventbridge/eventsv2"
	"github.com/gridbridge/gridbridge/compat/scheduler"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// FaceConfig is what the emulator hands the EventBridge face: its engine,
// and the server options that touch EventBridge's behaviour.
type FaceConfig struct {
	Engine *engine.Engine
	// SQSEndpoint is the --sqs-endpoint: SQS targets and dead-letter queues
	// of classic buses and bus-v2 subscribers go to it through the SQS SDK.
	// "" keeps them in one in-memory MemorySQS (D-SINKS).
	SQSEndpoint string
	// HTTPClient calls API destinations, OAuth endpoints and http(s) targets.
	HTTPClient *http.Client
	// Jitter spreads retry waits; Seed seeds it.
	Jitter bool
	Seed   int64
}

// Face is all of EventBridge that the emulator mounts: classic buses
// (Service) and event buses v2, sharing one SQS, with their inspection
// routes.
type Face struct {
	classic   *Service
	v2        *eventsv2.Service
	scheduler *scheduler.Service
	// sqsAPI is GridBridge's own SQS server, serving the queues targets
	// and dead-letter queues write to; nil with an SQS endpoint.
	sqsAPI *sqs.Service
	// memorySQS holds SQS messages when no SQS endpoint is configured;
	// nil otherwise.
	memorySQS   MemoryQueues
	sqsEndpoint string
}

// NewFace builds the EventBridge face.
func NewFace(cfg FaceConfig) *Face {
	var sink engine.Sink // nil keeps SQS targets and DLQs in memory
	var sqsAPI *sqs.Service
	var memory MemoryQueues
	if cfg.SQSEndpoint != "" {
		sink = sqssink.New(cfg.SQSEndpoint).Batching()
	} else {
		// Without --sqs-endpoint, GridBridge is the SQS server: targets and
		// DLQs write to the queues its SQS API serves.
		sqsAPI = sqs.New(sqs.NewStore(cfg.Engine.Clock()))
		memory = sqsAPI.Store()
	}
	classic := New(Config{Engine: cfg.Engine, SQS: sink, MemorySQS: memory, HTTPClient: cfg.HTTPClient, Jitter: cfg.Jitter, Seed: cfg.Seed})
	f := &Face{classic: classic, memorySQS: classic.MemorySQS(), sqsEndpoint: cfg.SQSEndpoint, sqsAPI: sqsAPI}
	if sink == nil {
		// Bus-v2 subscribers and schedules share the classic face's
		// in-memory SQS, so /_emulator/sqs and the SQS API show every queue.
		sink = f.memorySQS
	}
	f.v2 = eventsv2.New(eventsv2.Config{Engine: cfg.Engine, SQS: sink, HTTPClient: cfg.HTTPClient, Jitter: cfg.Jitter, Seed: cfg.Seed})
	f.scheduler = scheduler.New(scheduler.Config{Engine: cfg.Engine, SQS: sink, EventBridge: classic, Jitter: cfg.Jitter, Seed: cfg.Seed})
	return f
}

// Register mounts the classic API, the bus-v2 API and EventBridge
// Scheduler's REST API on r.
func (f *Face) Register(r *mux.Router) {
	f.classic.Register(r)
	f.v2.Register(r)
	f.scheduler.Register(r)
	if f.sqsAPI != nil {
		f.sqsAPI.Register(r)
	}
}

// Reset forgets every bus, rule, target and subscriber, and what the
// in-memory SQS holds.
func (f *Face) Reset() {
	f.classic.Reset()
	f.v2.Reset()
	f.scheduler.Reset()
	if f.sqsAPI != nil {
		f.sqsAPI.Reset()
	}
}
