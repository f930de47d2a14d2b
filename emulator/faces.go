package emulator

import (
	"crypto/tls"
	"net/http"

	"github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/compat/eventbridge/eventsv2"
	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/compat/pipes"
	"github.com/gridbridge/gridbridge/compat/resourcemanager"
	"github.com/gridbridge/gridbridge/compat/scheduler"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/internal/outbound"
)

// newFaces builds the cloud APIs mounted on the router, each from the
// engine and the server's options; each face decides its cloud's rules.
func (s *Server) newFaces() ([]face, error) {
	client := s.opts.WebhookClient
	if client == nil {
		// Local webhooks rarely have certificates a machine trusts.
		insecure := &tls.Config{InsecureSkipVerify: true} //nolint:gosec // an emulator's outgoing deliveries
		// A route has up to 16 attempts in flight, often all to one host:
		// keep their connections rather than redial for each attempt once
		// a hold releases a backlog.
		const idlePerHost = 64
		fallback := &http.Transport{Proxy: http.ProxyFromEnvironment, TLSClientConfig: insecure, MaxIdleConnsPerHost: idlePerHost}
		client = &http.Client{Transport: outbound.New(fallback, http.ProxyFromEnvironment, insecure, idlePerHost)}
	}
	eg, err := eventgrid.NewFace(eventgrid.FaceConfig{
		Engine:              s.engine,
		PublicTLSBaseURL:    s.TLSURL,
		HTTPClient:          client,
		AzureStorage:        s.opts.AzureStorage,
		StoragePollInterval: s.opts.StoragePoll,
		MemorySink:          s.memory,
		Jitter:              !s.opts.DisableJitter,
		Seed:                s.opts.Seed,
		Probation:           !s.opts.DisableProbation,
	})
	if err != nil {
		return nil, err
	}
	s.storageAccounts = eg.StorageAccounts()
	s.eventGrid = eg
	// The AWS faces: SQS targets and dead-letter queues of all three write
	// to one SQS, GridBridge's own or the one at --sqs-endpoint, and
	// Scheduler's EventBridge targets put events on the EventBridge buses.
	// Each logs the panics its request frame catches.
	queues := sqs.New(sqs.Config{Clock: s.engine.Clock(), Endpoint: s.opts.SQSEndpoint, Log: s.log})
	buses := eventbridge.New(eventbridge.Config{
		Engine: s.engine, SQS: queues.Queues(), HTTPClient: client, Jitter: !s.opts.DisableJitter, Seed: s.opts.Seed, Log: s.log,
	})
	busesV2 := eventsv2.New(eventsv2.Config{
		Engine: s.engine, SQS: queues.Queues(), HTTPClient: client, Jitter: !s.opts.DisableJitter, Seed: s.opts.Seed, Log: s.log,
	})
	schedules := scheduler.New(scheduler.Config{
		Engine: s.engine, SQS: queues.Queues(), EventBridge: buses, Jitter: !s.opts.DisableJitter, Seed: s.opts.Seed, Log: s.log,
	})
	// Pipes read their SQS sources from GridBridge's own queues (none with
	// --sqs-endpoint), and reach buses and API destinations through the
	// EventBridge face.
	pipeline := pipes.New(pipes.Config{
		Engine: s.engine, Sources: queues.Sources(), SQSEndpoint: s.opts.SQSEndpoint, SQS: queues.Queues(),
		EventBridge: buses, APIDestinations: buses.ResolveAPIDestination, HTTPClient: client, Log: s.log,
	})
	s.pipes, s.sqs = pipeline, queues
	// Resource groups, subscriptions, tenants and providers: its matcher
	// takes only those paths, so it goes last. Pipes goes before
	// Scheduler, whose /tags/ paths would take a pipe's.
	return []face{eg, buses, busesV2, pipeline, schedules, queues, resourcemanager.New()}, nil
}

// SQSMessageView is one message of GridBridge's own SQS, as
// GET /_emulator/sqs/messages shows it.
type SQSMessageView = sqs.MessageView

// PipeMetrics are one EventBridge pipe's counters, as GET
// /_emulator/metrics lists them under "pipes".
type PipeMetrics = pipes.Metrics
