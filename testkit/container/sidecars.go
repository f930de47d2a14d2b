package container

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/network"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
)

// Network aliases on the shared network: another container on it (the
// application under test) reaches GridBridge at http://gridbridge:4080 and
// https://gridbridge:4443, whose certificate names "gridbridge".
const (
	EmulatorAlias = "gridbridge"
	AzuriteAlias  = "azurite"
	SQSAlias      = "sqs"
)

// azuriteInNetwork is Azurite's blob service on the shared network.
const azuriteInNetwork = "http://" + AzuriteAlias + ":10000"

const (
	azuriteBlobPort = "10000/tcp"
	localStackPort  = "4566/tcp"
	elasticMQPort   = "9324/tcp"
)

// azuriteConnectionString is devstoreaccount1 with the blob service at
// blobBase ("http://host:port").
func azuriteConnectionString(blobBase string) string {
	return fmt.Sprintf("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;BlobEndpoint=%s/%s;",
		azblobsink.DevAccountName, azblobsink.DevAccountKey, blobBase, azblobsink.DevAccountName)
}

// azuriteCustomizers run Azurite's blob service only: the emulator writes
// dead letters as blobs. --skipApiVersionCheck because GridBridge's Azure
// SDK speaks a newer storage API version than Azurite announces.
func azuriteCustomizers(nw *testcontainers.DockerNetwork, loopback bool) []testcontainers.ContainerCustomizer {
	return []testcontainers.ContainerCustomizer{
		testcontainers.WithCmd("azurite-blob", "--blobHost", "0.0.0.0", "--blobPort", "10000",
			"--skipApiVersionCheck", "--inMemoryPersistence"),
		testcontainers.WithExposedPorts(azuriteBlobPort),
		testcontainers.WithHostConfigModifier(portBindings(loopback, nil, azuriteBlobPort)),
		testcontainers.WithLabels(runLabels()),
		testcontainers.WithWaitStrategy(wait.ForListeningPort(azuriteBlobPort)),
		network.WithNetwork([]string{AzuriteAlias}, nw),
	}
}

// sqsServer is what differs between the SQS servers WithSQS runs.
type sqsServer struct {
	port string
	// inNetwork is the server's base URL on the shared network.
	inNetwork  string
	customizer []testcontainers.ContainerCustomizer
}

// sqsServerFor tells LocalStack from ElasticMQ by the image name.
func sqsServerFor(image string, nw *testcontainers.DockerNetwork, loopback bool) sqsServer {
	onNetwork := network.WithNetwork([]string{SQSAlias}, nw)
	published := func(port string) []testcontainers.ContainerCustomizer {
		return []testcontainers.ContainerCustomizer{
			testcontainers.WithExposedPorts(port),
			testcontainers.WithHostConfigModifier(portBindings(loopback, nil, port)),
			testcontainers.WithLabels(runLabels()),
		}
	}
	if strings.Contains(strings.ToLower(image), "elasticmq") {
		// ElasticMQ answers any path once it listens; the image may have no
		// shell, so the port is checked from the host only.
		return sqsServer{port: elasticMQPort, inNetwork: "http://" + SQSAlias + ":9324", customizer: append(published(elasticMQPort),
			testcontainers.WithWaitStrategy(
				wait.ForListeningPort(elasticMQPort).SkipInternalCheck(),
				wait.ForHTTP("/").WithPort(elasticMQPort).WithStatusCodeMatcher(func(int) bool { return true }),
			),
			onNetwork,
		)}
	}
	return sqsServer{port: localStackPort, inNetwork: "http://" + SQSAlias + ":4566", customizer: append(published(localStackPort),
		testcontainers.WithEnv(map[string]string{
			"SERVICES": "sqs",
			// Queue URLs of the form http://<host>/<account>/<name>, the same
			// whichever address a client used.
			"SQS_ENDPOINT_STRATEGY": "path",
			"EAGER_SERVICE_LOADING": "1",
		}),
		testcontainers.WithWaitStrategy(wait.ForHTTP("/_localstack/health").WithPort(localStackPort).
			WithStatusCodeMatcher(func(status int) bool { return status == http.StatusOK })),
		onNetwork,
	)}
}

// runSidecar starts one sidecar: the module's customizers first, then the
// caller's, so a caller can override any of them.
func runSidecar(ctx context.Context, what string, spec sidecarSpec, module []testcontainers.ContainerCustomizer) (testcontainers.Container, error) {
	ctr, err := testcontainers.Run(ctx, spec.image, append(module, spec.opts...)...)
	if ctr == nil {
		// A nil *DockerContainer in the interface would look like a container.
		return nil, wrap(what, err)
	}
	return ctr, wrap(what, err)
}

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("starting %s: %w", what, err)
}
