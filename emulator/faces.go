package emulator

import (
	"crypto/tls"
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventbridge"
	eventsv2 "github.com/gridbridge/gridbridge/compat/eventbridge/v2"
	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// newFaces builds the cloud APIs mounted on the router, each wired to the
// engine, the dead-letter sinks and the retry options.
func (s *Server) newFaces() ([]face, error) {
	sinks, err := s.newDeadLetterSinks()
	if err != nil {
		return nil, err
	}
	s.sinks = sinks
	client := s.opts.WebhookClient
	if client == nil {
		client = &http.Client{Transport: &http.Transport{
			Proxy: http.ProxyFromEnvironment,
			// Local webhooks rarely have certificates a machine trusts.
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // an emulator's outgoing deliveries
			// A route has up to 16 attempts in flight, often all to one
			// host: keep their connections rather than redial for each
			// attempt once a hold releases a backlog.
			MaxIdleConnsPerHost: 64,
		}}
	}
	eg := eventgrid.New(eventgrid.Config{
		Engine:           s.engine,
		PublicTLSBaseURL: s.TLSURL,
		HTTPClient:       client,
		DeadLetterSink:   sinks.blob,
		AzureStorage:     s.opts.AzureStorage,
		RetryPolicy:      s.eventGridRetry,
		DeadLetterPolicy: eventGridDeadLetters,
		Jitter:           !s.opts.DisableJitter,
		Seed:             s.opts.Seed,
	})
	// Namespaces register first: their ARM paths are more specific than
	// the basic-topic routes' catch-alls.
	ns := namespaces.New(namespaces.Config{
		Engine:         s.engine,
		PublicTLSHost:  s.tlsHost,
		DeadLetterSink: sinks.blob,
		HTTPClient:     client,
	})
	s.namespaces = ns
	eb := eventbridge.New(eventbridge.Config{
		Engine:     s.engine,
		SQS:        sinks.sqs, // nil keeps SQS targets and DLQs in memory
		HTTPClient: client,
		Jitter:     !s.opts.DisableJitter,
		Seed:       s.opts.Seed,
	})
	s.memorySQS = eb.MemorySQS()
	v2SQS := sinks.sqs
	if v2SQS == nil {
		// Bus-v2 subscribers share the classic face's in-memory SQS, so
		// /_emulator/sqs shows every queue.
		v2SQS = s.memorySQS
	}
	s.eventsV2 = eventsv2.New(eventsv2.Config{
		Engine:     s.engine,
		SQS:        v2SQS,
		HTTPClient: client,
		Jitter:     !s.opts.DisableJitter,
		Seed:       s.opts.Seed,
	})
	return []face{ns, eg, eb, s.eventsV2}, nil
}

// tlsHost is the host:port clients reach the TLS listener on, without a
// scheme (namespace topicsConfiguration.hostname).
func (s *Server) tlsHost() string {
	return strings.TrimPrefix(s.TLSURL(), "https://")
}

// eventGridRetry applies Azure's full retry rules (EG-4 … EG-18) to an event
// subscription, with jitter and probation as the options say.
func (s *Server) eventGridRetry(v eventgrid.SubscriptionView) engine.RetryPolicy {
	kind := retry.AzureResource
	if v.EndpointType == "WebHook" {
		kind = retry.Webhook
	}
	return retry.NewPolicy(retry.Config{
		MaxDeliveryAttempts: v.MaxDeliveryAttempts,
		EventTimeToLive:     v.EventTimeToLive,
		Destination:         kind,
		Jitter:              !s.opts.DisableJitter,
		Seed:                uint64(s.opts.Seed),
		Probation:           !s.opts.DisableProbation,
	})
}

// eventGridDeadLetters writes an event subscription's give-ups as EG-23
// records into its blob container (EG-19 … EG-22).
func eventGridDeadLetters(v eventgrid.SubscriptionView, sink engine.Sink) *engine.DeadLetterPolicy {
	dest, err := deadletter.ParseDestination(v.DeadLetter.ResourceID, v.DeadLetter.BlobContainerName)
	if err != nil {
		// ARM validated the destination at create; an unusable one drops
		// give-ups with their reason rather than losing them silently.
		return nil
	}
	b := deadletter.NewBuilder(v.Name, dest)
	b.DeliverySchema = v.DeliverySchema
	return b.Policy(sink)
}
