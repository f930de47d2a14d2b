package container

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
)

// RequireDockerVar, set to "1" or "true", turns SkipIfNoDocker's skip into
// a failure: for a CI that has Docker and must not pass by skipping.
const RequireDockerVar = "GRIDBRIDGE_TEST_REQUIRE_DOCKER"

// dockerProbeTimeout bounds the probe: an engine that does not answer
// within it counts as absent, so a test never hangs on it.
const dockerProbeTimeout = 5 * time.Second

// SkipIfNoDocker skips t, with a message that says why and what to do,
// unless a Docker engine answers within a few seconds. Call it first in
// every test that starts containers; keep the scenario in a function that
// an in-process test (testkit.Start) runs too, so machines without Docker
// still check the same assertions:
//
//	func TestOrders_InProcess(t *testing.T) { ordersScenario(t, testkit.Start(t)) }
//	func TestOrders_Container(t *testing.T) {
//		container.SkipIfNoDocker(t)
//		c, err := container.Run(ctx, "gridbridge:local", container.WithTestkitDefaults())
//		testcontainers.CleanupContainer(t, c)
//		…
//		ordersScenario(t, c.Emulator(t))
//	}
func SkipIfNoDocker(t testing.TB) {
	t.Helper()
	skipUnlessReachable(t, pingDocker, dockerProbeTimeout)
}

// skipUnlessReachable runs probe for at most timeout; the probe runs on its
// own goroutine so that a client stuck below its context cannot hang t.
func skipUnlessReachable(t testing.TB, probe func(context.Context) error, timeout time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("the Docker client panicked: %v", r)
			}
		}()
		done <- probe(ctx)
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = fmt.Errorf("no answer within %v", timeout)
	}
	if err == nil {
		return
	}
	msg := fmt.Sprintf("no Docker engine reachable (testcontainers: %v). This test runs GridBridge in a container; "+
		"its in-process twin runs the same scenario. Start Docker (or set DOCKER_HOST) to run it", err)
	if required() {
		t.Fatalf("%s; %s is set, so this fails instead of skipping", msg, RequireDockerVar)
		return
	}
	t.Skipf("%s, and set %s=1 to fail instead of skipping", msg, RequireDockerVar)
}

// pingDocker connects to the engine testcontainers would use; making the
// client asks the engine for its info.
func pingDocker(ctx context.Context) error {
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return err
	}
	return cli.Close()
}

func required() bool {
	v, err := strconv.ParseBool(os.Getenv(RequireDockerVar))
	return err == nil && v
}
