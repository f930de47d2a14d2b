package container

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/testcontainers/testcontainers-go"

	"github.com/gridbridge/gridbridge/testkit"
)

// HTTPURL is the emulator's HTTP base URL on the Docker host, e.g.
// "http://localhost:32768": EventBridge, SQS-protocol clients and the
// inspection API.
func (c *Container) HTTPURL(ctx context.Context) (string, error) {
	return c.PortEndpoint(ctx, HTTPPort, "http")
}

// TLSURL is the emulator's HTTPS base URL on the Docker host: ARM and
// Event Grid publishing. It is the URL the emulator advertises in topic
// endpoints. Clients must trust the emulator's CA (GET
// /_emulator/ca.pem; testkit's clients do).
func (c *Container) TLSURL(ctx context.Context) (string, error) {
	return c.PortEndpoint(ctx, TLSPort, "https")
}

// Emulator attaches testkit to the container (testkit.Connect on the
// mapped HTTP port), so every testkit helper and assertion works as it does
// in-process: ARM and publishing clients, the clock, faults, deliveries,
// dead letters. It fails t when the container cannot be reached, or does
// not run as opts say (by default: WithTestkitDefaults; see testkit.Connect).
func (c *Container) Emulator(t testing.TB, opts ...testkit.Option) *testkit.Emulator {
	t.Helper()
	url, err := c.HTTPURL(context.Background())
	if err != nil {
		t.Fatalf("gridbridge container: mapped HTTP port: %v", err)
	}
	return testkit.Connect(t, url, opts...)
}

// Network is the network shared with the sidecars, nil when Run started
// none. Attach the application under test to it to reach GridBridge as
// EmulatorAlias.
func (c *Container) Network() *testcontainers.DockerNetwork { return c.network }

// Azurite is the Azurite sidecar, nil without WithAzurite.
func (c *Container) Azurite() testcontainers.Container { return c.azurite }

// SQS is the SQS server sidecar, nil without WithSQS.
func (c *Container) SQS() testcontainers.Container { return c.sqs }

// AzuriteConnectionString is the connection string for devstoreaccount1 of
// the Azurite sidecar as the test process reaches it (mapped port), for
// azblob or testkit.ReadDeadLetterBlobs.
func (c *Container) AzuriteConnectionString(ctx context.Context) (string, error) {
	if c.azurite == nil {
		return "", errors.New("gridbridge container: no Azurite sidecar; start it with WithAzurite")
	}
	base, err := c.azurite.PortEndpoint(ctx, azuriteBlobPort, "http")
	if err != nil {
		return "", fmt.Errorf("azurite: %w", err)
	}
	return azuriteConnectionString(base), nil
}

// SQSEndpoint is the SQS sidecar's base URL as the test process reaches it,
// for the SQS SDK's BaseEndpoint.
func (c *Container) SQSEndpoint(ctx context.Context) (string, error) {
	if c.sqs == nil {
		return "", errors.New("gridbridge container: no SQS sidecar; start it with WithSQS")
	}
	return c.sqs.PortEndpoint(ctx, c.sqsPort, "http")
}
