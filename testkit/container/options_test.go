package container

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	dockercontainer "github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
)

// request applies customizers the way testcontainers.Run does, without Docker.
func request(t *testing.T, customizers []testcontainers.ContainerCustomizer) testcontainers.GenericContainerRequest {
	t.Helper()
	var req testcontainers.GenericContainerRequest
	for _, c := range customizers {
		if err := c.Customize(&req); err != nil {
			t.Fatal(err)
		}
	}
	return req
}

// options applies Options the way Run does.
func optionsOf(t *testing.T, opts ...Option) options {
	t.Helper()
	o := defaultOptions()
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

func TestEmulatorRequestAdvertisesTheFixedTLSPort(t *testing.T) {
	t.Parallel()
	req := request(t, emulatorCustomizers(optionsOf(t), nil, "localhost", 41234, nil))

	if got := req.Env["GRIDBRIDGE_ADVERTISE_TLS_URL"]; got != "https://localhost:41234" {
		t.Errorf("advertised %q, want the host port 4443 is bound to", got)
	}
	if got := req.Env["GRIDBRIDGE_TLS_HOST"]; got != EmulatorAlias+" host.docker.internal" {
		t.Errorf("TLS hosts %q, want the network alias and the image's host.docker.internal (localhost is always in the certificate)", got)
	}
	if got := req.Env["GRIDBRIDGE_ALLOWED_HOST"]; got != EmulatorAlias+" host.docker.internal" {
		t.Errorf("allowed hosts %q, want the network alias, so sidecars reach the emulator by name", got)
	}
	if req.Labels[Label] != "true" {
		t.Errorf("labels %v, want %s, which a cleanup finds leftovers by", req.Labels, Label)
	}
	if strings.Join(req.ExposedPorts, " ") != HTTPPort+" "+TLSPort {
		t.Errorf("exposed ports %v", req.ExposedPorts)
	}
	hc := &dockercontainer.HostConfig{}
	req.HostConfigModifier(hc)
	bindings := hc.PortBindings[network.MustParsePort(TLSPort)]
	if len(bindings) != 1 || bindings[0].HostPort != "41234" || bindings[0].HostIP.String() != "127.0.0.1" {
		t.Errorf("4443 bound to %+v, want 127.0.0.1:41234", bindings)
	}
	if b := hc.PortBindings[network.MustParsePort(HTTPPort)]; len(b) != 1 || b[0].HostPort != "" || b[0].HostIP.String() != "127.0.0.1" {
		t.Errorf("4080 bound to %+v, want a random port of 127.0.0.1", b)
	}
	if req.WaitingFor == nil || !strings.Contains(fmt.Sprint(req.WaitingFor), "/_emulator/health") {
		t.Errorf("wait strategy %v, want the health endpoint", req.WaitingFor)
	}
	if len(req.Networks) != 0 || len(req.Files) != 0 || req.FromDockerfile.Context != "" {
		t.Errorf("networks %v, files %v, build %q: none asked for", req.Networks, req.Files, req.FromDockerfile.Context)
	}
}

func TestEmulatorRequestCarriesOptionsAndCallerWins(t *testing.T) {
	t.Parallel()
	topology := filepath.Join(t.TempDir(), "shop.json")
	if err := os.WriteFile(topology, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	o := optionsOf(t, WithTestkitDefaults(), WithTopology(topology), WithBuild("../.."),
		WithEnv("GRIDBRIDGE_LOG_LEVEL", "debug"))
	env := map[string]string{"GRIDBRIDGE_SQS_ENDPOINT": "http://sqs:4566", "GRIDBRIDGE_TLS_HOST": "mine"}
	for k, v := range o.env {
		env[k] = v
	}
	nw := &testcontainers.DockerNetwork{Name: "shared"}
	req := request(t, emulatorCustomizers(o, nw, "10.1.2.3", 4443, env))

	want := map[string]string{
		"GRIDBRIDGE_ADVERTISE_TLS_URL": "https://10.1.2.3:4443",
		"GRIDBRIDGE_TLS_HOST":          "mine",
		"GRIDBRIDGE_ALLOWED_HOST":      EmulatorAlias + " host.docker.internal 10.1.2.3",
		"GRIDBRIDGE_CONFIG":            "/config/topology.json",
		"GRIDBRIDGE_CLOCK":             "virtual",
		"GRIDBRIDGE_NO_JITTER":         "true",
		"GRIDBRIDGE_NO_PROBATION":      "true",
		"GRIDBRIDGE_LOG_LEVEL":         "debug",
		"GRIDBRIDGE_SQS_ENDPOINT":      "http://sqs:4566",
	}
	for k, v := range want {
		if req.Env[k] != v {
			t.Errorf("%s = %q, want %q", k, req.Env[k], v)
		}
	}
	if len(req.Files) != 1 || req.Files[0].HostFilePath != topology || req.Files[0].ContainerFilePath != "/config/topology.json" {
		t.Errorf("files %+v, want the topology file", req.Files)
	}
	if len(req.Networks) != 1 || req.Networks[0] != "shared" || req.NetworkAliases["shared"][0] != EmulatorAlias {
		t.Errorf("networks %v aliases %v", req.Networks, req.NetworkAliases)
	}
	if req.FromDockerfile.Context != "../.." || !req.FromDockerfile.KeepImage {
		t.Errorf("build %+v, want the checkout's Dockerfile, image kept", req.FromDockerfile)
	}
	hc := &dockercontainer.HostConfig{}
	req.HostConfigModifier(hc)
	if b := hc.PortBindings[network.MustParsePort(HTTPPort)]; len(b) != 1 || b[0].HostIP.IsValid() {
		t.Errorf("on a remote Docker host 4080 is bound to %+v, want every interface (its loopback is out of reach)", b)
	}
}

// Ports are published on 127.0.0.1 where the Docker host is this machine,
// on every interface when asked or when it is remote.
func TestPortsArePublishedOnLoopbackUnlessAskedOtherwise(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		host     string
		opts     []Option
		loopback bool
	}{
		{"localhost", nil, true},
		{"127.0.0.1", nil, true},
		{"::1", nil, true},
		{"localhost", []Option{WithPortsOnAllInterfaces()}, false},
		{"10.1.2.3", nil, false},
	} {
		o := optionsOf(t, tc.opts...)
		if got := publishesOnLoopback(o, tc.host); got != tc.loopback {
			t.Errorf("host %s, %d options: loopback %v, want %v", tc.host, len(tc.opts), got, tc.loopback)
		}
		nw := &testcontainers.DockerNetwork{Name: "shared"}
		for name, customizers := range map[string][]testcontainers.ContainerCustomizer{
			"emulator": emulatorCustomizers(o, nil, tc.host, 41234, nil),
			"azurite":  azuriteCustomizers(nw, tc.loopback),
			"sqs":      sqsServerFor("", nw, tc.loopback).customizer,
		} {
			req := request(t, customizers)
			hc := &dockercontainer.HostConfig{}
			req.HostConfigModifier(hc)
			for port, b := range hc.PortBindings {
				if len(b) != 1 || b[0].HostIP.IsValid() != tc.loopback || (tc.loopback && !b[0].HostIP.IsLoopback()) {
					t.Errorf("host %s: %s's %s bound to %+v, want loopback %v", tc.host, name, port, b, tc.loopback)
				}
			}
			if len(hc.PortBindings) != len(req.ExposedPorts) || req.Labels[Label] != "true" {
				t.Errorf("%s: bindings %v for exposed %v, labels %v", name, hc.PortBindings, req.ExposedPorts, req.Labels)
			}
		}
	}
}

func TestTLSHostsNameTheDockerHost(t *testing.T) {
	t.Parallel()
	if got := tlsHosts("192.168.5.2"); got != "gridbridge host.docker.internal 192.168.5.2" {
		t.Errorf("tlsHosts = %q", got)
	}
	if got := advertisedTLSURL("::1", 4443); got != "https://[::1]:4443" {
		t.Errorf("advertisedTLSURL = %q", got)
	}
}

func TestPortTakenRecognisesDockersRefusals(t *testing.T) {
	t.Parallel()
	taken := []string{
		"Bind for 0.0.0.0:41234 failed: port is already allocated",
		"Ports are not available: exposing port TCP 0.0.0.0:41234 -> 0.0.0.0:0: listen tcp 0.0.0.0:41234: bind: address already in use",
	}
	for _, msg := range taken {
		if !portTaken(errors.New(msg)) {
			t.Errorf("%q not recognised", msg)
		}
	}
	if portTaken(errors.New("pull access denied for gridbridge")) {
		t.Error("a pull error taken for a port clash")
	}
}

func TestSidecarWiring(t *testing.T) {
	t.Parallel()
	acct, err := azblobsink.ParseConnectionString(azuriteConnectionString(azuriteInNetwork))
	if err != nil || acct.Name != "devstoreaccount1" || acct.BlobEndpoint != "http://azurite:10000/devstoreaccount1" {
		t.Errorf("Azurite account %+v, %v", acct, err)
	}
	nw := &testcontainers.DockerNetwork{Name: "shared"}
	for image, port := range map[string]string{
		DefaultLocalStackImage: localStackPort, DefaultElasticMQImage: elasticMQPort, "softwaremill/ElasticMQ:1.6": elasticMQPort,
	} {
		server := sqsServerFor(image, nw, true)
		req := request(t, server.customizer)
		if server.port != port || !strings.HasSuffix(server.inNetwork, ":"+strings.TrimSuffix(port, "/tcp")) ||
			len(req.ExposedPorts) != 1 || req.ExposedPorts[0] != port || req.NetworkAliases["shared"][0] != SQSAlias {
			t.Errorf("%s: port %s, request ports %v aliases %v", image, server.port, req.ExposedPorts, req.NetworkAliases)
		}
	}
	if req := request(t, azuriteCustomizers(nw, true)); !strings.Contains(strings.Join(req.Cmd, " "), "--skipApiVersionCheck") {
		t.Errorf("Azurite command %v", req.Cmd)
	}
}

// Options are checked before anything is asked of Docker, so a bad one
// fails at once on a machine without it.
func TestRunRefusesBadOptionsWithoutDocker(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]Option{
		"missing topology": WithTopology(filepath.Join(t.TempDir(), "nope.yaml")),
		"topology dir":     WithTopology(t.TempDir()),
		"no Dockerfile":    WithBuild(t.TempDir()),
	} {
		c, err := Run(context.Background(), "gridbridge:local", opt)
		if err == nil || c != nil {
			t.Errorf("%s: Run = %v, %v; want an error and no container", name, c, err)
		}
	}
}
