package emulator

import (
	"crypto/tls"
	"net/http"

	"github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/compat/resourcemanager"
)

// newFaces builds the cloud APIs mounted on the router, each from the
// engine and the server's options; each face decides its cloud's rules.
func (s *Server) newFaces() ([]face, error) {
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
	eb := eventbridge.NewFace(eventbridge.FaceConfig{
		Engine:      s.engine,
		SQSEndpoint: s.opts.SQSEndpoint,
		HTTPClient:  client,
		Jitter:      !s.opts.DisableJitter,
		Seed:        s.opts.Seed,
	})
	// Resource groups, subscriptions, tenants and providers: its matcher
	// takes only those paths, so it goes last.
	return []face{eg, eb, resourcemanager.New()}, nil
}

// SQSMessageView is one message of the in-memory SQS default, as
// GET /_emulator/sqs/messages shows it; the EventBridge face serves it.
type SQSMessageView = eventbridge.SQSMessageView
