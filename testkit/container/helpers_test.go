package container_test

import (
	"context"
	"os"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/testcontainers/testcontainers-go"

	"github.com/gridbridge/gridbridge/testkit"
	"github.com/gridbridge/gridbridge/testkit/container"
)

// imageVar names the image the container tests run, e.g. gridbridge:local
// after `docker build -t gridbridge:local .`; unset, they build this
// checkout's Dockerfile (cached by Docker after the first time).
const imageVar = "GRIDBRIDGE_TEST_IMAGE"

// runContainer starts GridBridge in Docker for t with the testkit's
// schedules, or skips t when no Docker engine is reachable. The container,
// its sidecars and network go when t ends.
func runContainer(t *testing.T, opts ...testcontainers.ContainerCustomizer) *container.Container {
	t.Helper()
	container.SkipIfNoDocker(t)
	image := os.Getenv(imageVar)
	if image == "" {
		opts = append(opts, container.WithBuild("../.."))
	}
	opts = append([]testcontainers.ContainerCustomizer{container.WithTestkitDefaults()}, opts...)
	c, err := container.Run(context.Background(), image, opts...)
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatalf("starting GridBridge in Docker: %v", err)
	}
	return c
}

// serviceBusQueue is a Service Bus queue destination: GridBridge captures
// what it delivers there, so no endpoint outside the emulator is involved
// (one in the test process could not be reached from inside a container).
func serviceBusQueue(name string) *armeventgrid.ServiceBusQueueEventSubscriptionDestination {
	return &armeventgrid.ServiceBusQueueEventSubscriptionDestination{
		EndpointType: to.Ptr(armeventgrid.EndpointTypeServiceBusQueue),
		Properties: &armeventgrid.ServiceBusQueueEventSubscriptionDestinationProperties{
			ResourceID: to.Ptr("/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/" + testkit.ResourceGroup +
				"/providers/Microsoft.ServiceBus/namespaces/shop/queues/" + name),
		},
	}
}

// deadLetterBlobs dead-letters into blobContainer of devstoreaccount1:
// Azurite when the emulator has it, else GridBridge's memory.
func deadLetterBlobs(blobContainer string) *armeventgrid.StorageBlobDeadLetterDestination {
	return &armeventgrid.StorageBlobDeadLetterDestination{
		EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
		Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
			ResourceID: to.Ptr(testkit.StorageAccountID("devstoreaccount1")), BlobContainerName: to.Ptr(blobContainer),
		},
	}
}
