package container

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
)

// RequireDockerVar, set to "1" or "true", turns SkipIfNoDocker's skip into
// a failure: for a CI that has Docker and must not pass by skipping.
const RequireDockerVar = "GRIDBRIDGE_TEST_REQUIRE_DOCKER"

// RyukDisabledVar is testcontainers' own switch for its reaper, Ryuk: a
// container it starts first, from ReaperImage, that removes a test
// process's containers should the process die before its cleanups. Where
// the engine cannot pull that image (no registry in reach), set it to
// "true" and the tests remove their own containers (Run's Terminate,
// testcontainers.CleanupContainer), or load the image into the engine
// (docker save on a machine that has it, docker load here).
const RyukDisabledVar = "TESTCONTAINERS_RYUK_DISABLED"

// ReaperImage is the image of testcontainers' reaper (see RyukDisabledVar).
var ReaperImage = testcontainers.ReaperDefaultImage //nolint:staticcheck // the name of the image is what a user must pre-load

// dockerProbeTimeout bounds the wait for the engine's first answer: an
// engine that does not answer within it counts as absent, so a test never
// hangs on it.
const dockerProbeTimeout = 5 * time.Second

// pullTimeout bounds the pull of the reaper's image when the engine lacks
// it (a few MB where a registry answers).
const pullTimeout = 2 * time.Minute

// SkipIfNoDocker skips t, with a message that says why and what to do,
// unless a Docker engine answers within a few seconds and can run the
// containers testcontainers starts (its reaper's image, when the reaper is
// on, is there or can be pulled). The message tells "no engine" from "an
// engine that cannot run the containers". Call it first in every test that
// starts containers; keep the scenario in a function that an in-process
// test (testkit.Start) runs too, so machines without Docker still check the
// same assertions:
//
//	func TestOrders_InProcess(t *testing.T) { ordersScenario(t, testkit.Start(t)) }
//	func TestOrders_Container(t *testing.T) {
//		container.SkipIfNoDocker(t)
//		c, err := container.Run(ctx, "gridbridge:local", container.WithTestkitDefaults())
//		testcontainers.CleanupContainer(t, c)
//		…
//		ordersScenario(t, c.Emulator(t))
//	}
//
// With RequireDockerVar set, it fails t instead of skipping it.
func SkipIfNoDocker(t testing.TB) {
	t.Helper()
	skipUnlessUsable(t, probeDocker, dockerProbeTimeout+pullTimeout, required())
}

// noEngineError: no Docker engine answered.
type noEngineError struct{ err error }

func (e *noEngineError) Error() string { return e.err.Error() }
func (e *noEngineError) Unwrap() error { return e.err }

// cannotRunError: an engine answered but cannot run the containers.
type cannotRunError struct {
	engine string // e.g. "Docker 20.10.24 at unix:///var/run/docker.sock"
	reason string
}

func (e *cannotRunError) Error() string { return e.engine + " cannot run the containers: " + e.reason }

// skipUnlessUsable runs probe for at most timeout; the probe runs on its
// own goroutine so that a client stuck below its context cannot hang t.
func skipUnlessUsable(t testing.TB, probe func(context.Context) error, timeout time.Duration, required bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- &noEngineError{fmt.Errorf("the Docker client panicked: %v", r)}
			}
		}()
		done <- probe(ctx)
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = &noEngineError{fmt.Errorf("no answer within %v", timeout)}
	}
	if err == nil {
		return
	}
	var msg string
	var cannot *cannotRunError
	if errors.As(err, &cannot) {
		msg = fmt.Sprintf("a Docker engine answers (%s) but cannot run this test's containers: %s. "+
			"This test runs GridBridge in a container; its in-process twin runs the same scenario", cannot.engine, cannot.reason)
	} else {
		msg = fmt.Sprintf("no Docker engine reachable (testcontainers: %v). This test runs GridBridge in a container; "+
			"its in-process twin runs the same scenario. Start Docker (or set DOCKER_HOST) to run it", err)
	}
	if required {
		t.Fatalf("%s; %s is set, so this fails instead of skipping", msg, RequireDockerVar)
		return
	}
	t.Skipf("%s. Set %s=1 to fail instead of skipping", msg, RequireDockerVar)
}

// probeDocker connects to the engine testcontainers would use (making the
// client asks the engine for its info), then checks that the reaper's
// image is there, or pulls it, unless the reaper is off.
func probeDocker(ctx context.Context) error {
	answer, cancel := context.WithTimeout(ctx, dockerProbeTimeout)
	defer cancel()
	cli, err := testcontainers.NewDockerClientWithOpts(answer)
	if err != nil {
		return &noEngineError{err}
	}
	defer cli.Close()
	version, err := cli.ServerVersion(answer, client.ServerVersionOptions{})
	if err != nil {
		return &noEngineError{err}
	}
	engine := fmt.Sprintf("Docker %s at %s", version.Version, cli.DaemonHost())
	if testcontainers.ReadConfig().RyukDisabled {
		return nil
	}
	if err := ensureImage(ctx, cli, ReaperImage); err != nil {
		return &cannotRunError{engine: engine, reason: fmt.Sprintf(
			"testcontainers' reaper (Ryuk) needs the image %s, which the engine does not have and cannot pull (%v); "+
				"set %s=true (each test then removes its own containers) or load the image into the engine",
			ReaperImage, err, RyukDisabledVar)}
	}
	return nil
}

// ensureImage pulls image unless the engine has it.
func ensureImage(ctx context.Context, cli *testcontainers.DockerClient, image string) error {
	if _, err := cli.ImageInspect(ctx, image); err == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, pullTimeout)
	defer cancel()
	pull, err := cli.ImagePull(ctx, image, client.ImagePullOptions{})
	if err != nil {
		return err
	}
	defer pull.Close()
	return pull.Wait(ctx)
}

func required() bool {
	v, err := strconv.ParseBool(os.Getenv(RequireDockerVar))
	return err == nil && v
}

// SkipUnlessImages skips t, naming the image and the engine's answer,
// unless the Docker engine has every one of images or can pull it: for a
// test whose sidecars (WithAzurite, WithSQS) need images a machine without
// a registry cannot get. Call it after SkipIfNoDocker. It skips even with
// RequireDockerVar set: that variable asks for an engine, and the engine
// is there.
func SkipUnlessImages(t testing.TB, images ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), dockerProbeTimeout+time.Duration(len(images))*pullTimeout)
	defer cancel()
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		t.Skipf("no Docker engine reachable (testcontainers: %v)", err)
		return
	}
	defer cli.Close()
	for _, image := range images {
		if err := ensureImage(ctx, cli, image); err != nil {
			t.Skipf("the Docker engine at %s does not have the image %s and cannot pull it (%v); load it into the engine to run this test",
				cli.DaemonHost(), image, err)
			return
		}
	}
}
