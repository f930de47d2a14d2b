package orderservice_test

import (
	"context"
	"os"
	"testing"

	"github.com/testcontainers/testcontainers-go"

	"github.com/gridbridge/gridbridge/testkit/container"
)

// The in-memory queue test again, against GridBridge in Docker: the same
// scenario function, another emulator. It skips, saying why, where no
// Docker engine is reachable; TestPlaceOrder_SendsBigOrdersToInMemoryQueue
// checks the same assertions there.
func TestPlaceOrder_SendsBigOrdersToInMemoryQueue_Container(t *testing.T) {
	t.Parallel()
	container.SkipIfNoDocker(t)

	opts := []testcontainers.ContainerCustomizer{
		container.WithTestkitDefaults(), // virtual clock, exact schedules, as testkit.Start
	}
	// Your own tests name the image: "gridbridge:local" after
	// `docker build -t gridbridge:local .`. Here: GRIDBRIDGE_TEST_IMAGE, or
	// a build of this checkout.
	image := os.Getenv("GRIDBRIDGE_TEST_IMAGE")
	if image == "" {
		opts = append(opts, container.WithBuild("../.."))
	}
	c, err := container.Run(context.Background(), image, opts...)
	testcontainers.CleanupContainer(t, c) // before the error check, as testcontainers asks
	if err != nil {
		t.Fatal(err)
	}

	bigOrdersReachTheReviewQueue(t, c.Emulator(t))
}
