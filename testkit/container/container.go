package container

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcnetwork "github.com/testcontainers/testcontainers-go/network"
	"github.com/testcontainers/testcontainers-go/wait"
)

// Label is set on every container and network Run starts (to "true"), so
// that a cleanup can find what a killed test process left behind:
//
//	docker rm -f $(docker ps -aq --filter label=gridbridge.testkit)
//	docker network rm $(docker network ls -q --filter label=gridbridge.testkit)
const Label = "gridbridge.testkit"

// runLabels are the labels Run sets.
func runLabels() map[string]string { return map[string]string{Label: "true"} }

// Ports the emulator's image listens on.
const (
	HTTPPort = "4080/tcp"
	TLSPort  = "4443/tcp"
)

// cleanupTimeout bounds how long Run waits for its cleanup after a failed
// start, whatever is left of the caller's context.
const cleanupTimeout = time.Minute

// Container is a running GridBridge container, with the sidecars and the
// network that Run started for it.
type Container struct {
	testcontainers.Container

	network *testcontainers.DockerNetwork
	azurite testcontainers.Container
	sqs     testcontainers.Container
	sqsPort string
}

// Run starts GridBridge from image (e.g. "gridbridge:local", built with
// `docker build -t gridbridge:local .`), after the sidecars its options ask
// for, and waits until GET /_emulator/health answers 200. opts are this
// package's Options and any testcontainers customizer, applied after Run's
// own so they can override them.
//
// When something fails to start, Run terminates every container and the
// network it started before it returns the error.
func Run(ctx context.Context, image string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	o := defaultOptions()
	var generic []testcontainers.ContainerCustomizer
	for _, opt := range opts {
		own, ok := opt.(Option)
		if !ok {
			generic = append(generic, opt)
			continue
		}
		if err := own(&o); err != nil {
			return nil, fmt.Errorf("gridbridge option: %w", err)
		}
	}
	c := &Container{}
	if err := c.start(ctx, image, o, generic); err != nil {
		cleanupCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if cleanupErr := c.Terminate(cleanupCtx); cleanupErr != nil {
			err = errors.Join(err, fmt.Errorf("cleaning up after the failed start: %w", cleanupErr))
		}
		return nil, err
	}
	return c, nil
}

func (c *Container) start(ctx context.Context, image string, o options, generic []testcontainers.ContainerCustomizer) error {
	host, err := dockerHost(ctx)
	if err != nil {
		return err
	}
	env, err := c.startSidecars(ctx, o, publishesOnLoopback(o, host))
	if err != nil {
		return err
	}
	maps.Copy(env, o.env) // the caller's values win
	return c.startEmulator(ctx, image, o, host, env, generic)
}

// startSidecars starts the network and the sidecars asked for, and returns
// the emulator's variables that point at them.
func (c *Container) startSidecars(ctx context.Context, o options, loopback bool) (map[string]string, error) {
	env := map[string]string{}
	if o.azurite == nil && o.sqs == nil {
		return env, nil
	}
	nw, err := tcnetwork.New(ctx, tcnetwork.WithLabels(runLabels()))
	if err != nil {
		return nil, fmt.Errorf("creating the network for the sidecars: %w", err)
	}
	c.network = nw
	if o.azurite != nil {
		ctr, err := runSidecar(ctx, "Azurite", *o.azurite, azuriteCustomizers(c.network, loopback))
		c.azurite = ctr
		if err != nil {
			return nil, err
		}
		env["GRIDBRIDGE_AZURE_STORAGE"] = azuriteConnectionString(azuriteInNetwork)
	}
	if o.sqs != nil {
		server := sqsServerFor(o.sqs.image, c.network, loopback)
		ctr, err := runSidecar(ctx, "the SQS server", *o.sqs, server.customizer)
		c.sqs, c.sqsPort = ctr, server.port
		if err != nil {
			return nil, err
		}
		env["GRIDBRIDGE_SQS_ENDPOINT"] = server.inNetwork
	}
	return env, nil
}

// startEmulator starts GridBridge with 4443 bound to a host port chosen
// beforehand (see advertise.go), choosing again if that port was taken.
func (c *Container) startEmulator(ctx context.Context, image string, o options, host string, env map[string]string, generic []testcontainers.ContainerCustomizer) error {
	for attempt := 1; ; attempt++ {
		port, err := freeHostPort(publishesOnLoopback(o, host))
		if err != nil {
			return err
		}
		module := emulatorCustomizers(o, c.network, host, port, env)
		ctr, err := testcontainers.Run(ctx, image, append(module, generic...)...)
		if ctr != nil {
			c.Container = ctr
		}
		if err == nil {
			return nil
		}
		if attempt == tlsPortAttempts || !portTaken(err) {
			return fmt.Errorf("starting GridBridge: %w", err)
		}
		// Another process took the port: drop this container, try another.
		if err := testcontainers.TerminateContainer(c.Container); err != nil {
			return fmt.Errorf("starting GridBridge: removing the container whose port was taken: %w", err)
		}
		c.Container = nil
	}
}

// emulatorCustomizers are Run's own settings of the emulator's container:
// the ports (4443 bound to tlsHostPort, see advertise.go), the environment,
// the topology file, the network alias and the wait strategy.
func emulatorCustomizers(o options, nw *testcontainers.DockerNetwork, host string, tlsHostPort int, env map[string]string) []testcontainers.ContainerCustomizer {
	all := map[string]string{
		"GRIDBRIDGE_ADVERTISE_TLS_URL": advertisedTLSURL(host, tlsHostPort),
		"GRIDBRIDGE_TLS_HOST":          tlsHosts(host),
		// The emulator answers only hosts it knows (DNS-rebinding guard):
		// its network alias and the Docker host (tlsHosts) are the names
		// tests and sidecars use.
		"GRIDBRIDGE_ALLOWED_HOST": tlsHosts(host),
	}
	if o.topology != "" {
		all["GRIDBRIDGE_CONFIG"] = topologyTarget(o.topology)
	}
	maps.Copy(all, env)
	out := []testcontainers.ContainerCustomizer{
		testcontainers.WithExposedPorts(HTTPPort, TLSPort),
		testcontainers.WithHostConfigModifier(portBindings(publishesOnLoopback(o, host), map[string]int{TLSPort: tlsHostPort}, HTTPPort, TLSPort)),
		testcontainers.WithLabels(runLabels()),
		testcontainers.WithEnv(all),
		// The image has no shell, so ports are checked from the host only.
		testcontainers.WithWaitStrategy(
			wait.ForListeningPort(HTTPPort).SkipInternalCheck(),
			wait.ForListeningPort(TLSPort).SkipInternalCheck(),
			wait.ForHTTP("/_emulator/health").WithPort(HTTPPort),
		),
	}
	if o.topology != "" {
		out = append(out, testcontainers.WithFiles(testcontainers.ContainerFile{
			HostFilePath: o.topology, ContainerFilePath: topologyTarget(o.topology), FileMode: 0o644,
		}))
	}
	if o.build != "" {
		out = append(out, testcontainers.WithDockerfile(testcontainers.FromDockerfile{
			Context: o.build, Repo: "gridbridge", Tag: "testcontainers", KeepImage: true,
		}))
	}
	if nw != nil {
		out = append(out, tcnetwork.WithNetwork([]string{EmulatorAlias}, nw))
	}
	return out
}

// Terminate removes the emulator, then the sidecars, then the network. It
// tries them all, returns every error, and may be called more than once.
func (c *Container) Terminate(ctx context.Context, opts ...testcontainers.TerminateOption) error {
	opts = append([]testcontainers.TerminateOption{testcontainers.StopContext(ctx)}, opts...)
	var errs []error
	for _, part := range []struct {
		name string
		ctr  *testcontainers.Container
	}{{"GridBridge", &c.Container}, {"SQS server", &c.sqs}, {"Azurite", &c.azurite}} {
		if *part.ctr == nil {
			continue
		}
		if err := testcontainers.TerminateContainer(*part.ctr, opts...); err != nil {
			errs = append(errs, fmt.Errorf("terminating %s: %w", part.name, err))
			continue
		}
		*part.ctr = nil
	}
	if c.network != nil {
		if err := c.network.Remove(ctx); err != nil {
			errs = append(errs, fmt.Errorf("removing the network: %w", err))
		} else {
			c.network = nil
		}
	}
	return errors.Join(errs...)
}
