// Package container runs GridBridge in Docker with testcontainers-go, in the
// shape of a testcontainers module, and hands the test a testkit.Emulator
// for it, so every testkit helper and assertion works as it does against
// an in-process emulator:
//
//	func TestOrders_Container(t *testing.T) {
//		container.SkipIfNoDocker(t) // no Docker engine: skip, with a message saying why
//		c, err := container.Run(ctx, "gridbridge:local",
//			container.WithTestkitDefaults(), // virtual clock, no jitter, no probation
//			container.WithAzurite(""),       // Event Grid dead letters become blobs
//			container.WithSQS(""),           // EventBridge SQS targets and DLQs become queues
//		)
//		testcontainers.CleanupContainer(t, c) // before the error check, as testcontainers asks
//		if err != nil {
//			t.Fatal(err)
//		}
//		ordersScenario(t, c.Emulator(t)) // the same function TestOrders_InProcess runs with testkit.Start(t)
//	}
//
// Build the image with `docker build -t gridbridge:local .` in a checkout,
// or let WithBuild do it.
//
// # Sidecars
//
// WithAzurite and WithSQS start Azurite (blob service) and an SQS server
// (LocalStack community or ElasticMQ) on a network shared with the
// emulator, and set its GRIDBRIDGE_AZURE_STORAGE and GRIDBRIDGE_SQS_ENDPOINT
// to their addresses on that network. The test reaches them through
// Container.AzuriteConnectionString and Container.SQSEndpoint (mapped
// ports). Dead-letter blob containers and SQS queues are created by the
// test, as in the cloud.
//
// # The advertised HTTPS URL
//
// The emulator writes its HTTPS base URL into ARM answers (a topic's
// properties.endpoint, which publishers use) and into GET /_emulator/info
// (from which testkit.Connect takes the ARM endpoint). It reads that URL
// from GRIDBRIDGE_ADVERTISE_TLS_URL once, at start, when a random host port
// is not known yet. Run therefore binds the container's 4443 to a host
// port it picks itself (free at that moment) and advertises
// https://<docker host>:<that port>; if the port is taken before Docker
// binds it, Run retries with another. The certificate names localhost, the
// loopback IPs, the Docker host, "gridbridge" (the network alias) and
// host.docker.internal.
//
// Limitation: the advertised URL is the test process's view. Another
// container on the network (the application under test) reaches GridBridge
// as https://gridbridge:4443, and the topic endpoints it reads from ARM name
// the host's address instead; give it the endpoint explicitly.
//
// The clean fix would live outside this package. In testkit, a
// Connect variant taking the HTTPS URL (or an http.RoundTripper that dials
// the mapped port for the advertised host:port) would let containers use a
// random port for 4443 too; in the emulator, deriving the advertised host
// from each request's Host header would make every client, in the
// container network or on the host, see its own address.
//
// # Ports and leftovers
//
// Run publishes the emulator's and the sidecars' ports on 127.0.0.1 of the
// Docker host, as the emulator has no authentication;
// WithPortsOnAllInterfaces publishes them on every interface (the default
// for a remote Docker host, whose loopback the test cannot reach). Every
// container and network Run starts carries the label Label, so a cleanup
// finds what a killed test process left behind.
//
// # Without Docker, and engines that cannot pull
//
// SkipIfNoDocker skips a test, with a clear message, when no Docker engine
// answers within a few seconds, or when one answers but cannot run the
// containers: testcontainers starts its reaper, Ryuk, first, from
// ReaperImage, and an engine with no registry in reach cannot pull it.
// There set TESTCONTAINERS_RYUK_DISABLED=true (RyukDisabledVar; each test
// then removes its own containers through testcontainers.CleanupContainer
// or Terminate) or load the image into the engine. Set
// GRIDBRIDGE_TEST_REQUIRE_DOCKER=1 to fail instead of skipping.
// SkipUnlessImages skips a test whose sidecar images the engine cannot
// get. Keep each scenario in a function that takes a *testkit.Emulator, and
// run it from an in-process test as well, so machines without Docker still
// check the same assertions.
//
// On a machine with a stray /.dockerenv, testcontainers may guess the
// Docker host from the default route and time out waiting for the
// container; TESTCONTAINERS_HOST_OVERRIDE=localhost fixes that for a local
// engine.
//
// # Clock
//
// WithVirtualClock and WithTestkitDefaults put the emulator on a virtual
// clock; it starts at the container's start time rather than
// testkit.DefaultStart, so scenarios should measure time from emu.Now().
package container
