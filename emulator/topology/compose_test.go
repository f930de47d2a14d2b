package topology_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gridbridge/gridbridge/emulator/topology"
)

// These tests check the compose files' structure and that they agree with
// the image, the binary's flags and the example topology, on any machine;
// testkit/container's TestComposeDefault_Container brings the default file
// up on a Docker engine.

const (
	repoRoot        = "../.."
	exampleTopology = repoRoot + "/examples/compose/topology.yaml"
)

// overrides are the opt-in override files for compose.yaml, by the sidecar
// they add.
var overrides = map[string]string{
	"azurite":    "examples/compose/azurite.yaml",
	"localstack": "examples/compose/localstack.yaml",
	"elasticmq":  "examples/compose/elasticmq.yaml",
}

type composeFile struct {
	Services map[string]composeService `yaml:"services"`
}

type composeService struct {
	Image       string                       `yaml:"image"`
	Build       string                       `yaml:"build"`
	Command     []string                     `yaml:"command"`
	Environment map[string]string            `yaml:"environment"`
	Ports       []string                     `yaml:"ports"`
	Volumes     []string                     `yaml:"volumes"`
	Healthcheck *composeHealthcheck          `yaml:"healthcheck"`
	DependsOn   map[string]composeDependency `yaml:"depends_on"`
}

type composeHealthcheck struct {
	Test        []string `yaml:"test"`
	Interval    string   `yaml:"interval"`
	Timeout     string   `yaml:"timeout"`
	Retries     int      `yaml:"retries"`
	StartPeriod string   `yaml:"start_period"`
}

type composeDependency struct {
	Condition string `yaml:"condition"`
}

// readCompose decodes a compose file of the repository, refusing any key
// this test does not know, so a misspelt key (healtcheck) fails here
// instead of being ignored.
func readCompose(t *testing.T, path string) composeFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	var c composeFile
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

// interpolated is s with each ${NAME:-default} as its default.
func interpolated(s string) string {
	return regexp.MustCompile(`\$\{[A-Z_]+:-([^}]*)\}`).ReplaceAllString(s, "$1")
}

// The default file runs GridBridge alone, on its embedded SQS and
// dead-letter store, published on loopback.
func TestComposeDefaultIsGridBridgeAlone(t *testing.T) {
	t.Parallel()
	c := readCompose(t, "compose.yaml")
	if len(c.Services) != 1 {
		t.Fatalf("compose.yaml has services %v, want gridbridge alone (sidecars are opt-in overrides)", keys(c.Services))
	}
	gb, ok := c.Services["gridbridge"]
	if !ok {
		t.Fatal("compose.yaml has no gridbridge service")
	}
	if gb.Build != "." {
		t.Errorf("gridbridge is built from %q, want the repository's Dockerfile (.)", gb.Build)
	}
	if image := interpolated(gb.Image); image != "gridbridge:local" {
		t.Errorf("gridbridge image %q (by default %q), want gridbridge:local", gb.Image, image)
	}
	for k, want := range map[string]string{
		"GRIDBRIDGE_CONFIG":            "/config/topology.yaml",
		"GRIDBRIDGE_ADVERTISE_TLS_URL": "https://localhost:4443",
	} {
		if got := interpolated(gb.Environment[k]); got != want {
			t.Errorf("gridbridge %s = %q, want %q", k, got, want)
		}
	}
	for _, k := range []string{"GRIDBRIDGE_SQS_ENDPOINT", "GRIDBRIDGE_AZURE_STORAGE"} {
		if v, ok := gb.Environment[k]; ok {
			t.Errorf("gridbridge sets %s=%q: the default runs on the embedded services", k, v)
		}
	}
	if len(gb.DependsOn) != 0 {
		t.Errorf("gridbridge depends on %v: the default needs no sidecar", gb.DependsOn)
	}
	if !slices.Contains(gb.Volumes, "./examples/compose/topology.yaml:/config/topology.yaml:ro") {
		t.Errorf("gridbridge volumes %v: the example topology is not mounted at /config/topology.yaml", gb.Volumes)
	}
	if gb.Healthcheck == nil || !slices.Equal(gb.Healthcheck.Test, []string{"CMD", "/emulator", "--healthcheck"}) {
		t.Errorf("gridbridge healthcheck %+v, want the binary's own probe", gb.Healthcheck)
	}
	var ports []string
	for _, p := range gb.Ports {
		ports = append(ports, interpolated(p))
	}
	if !slices.Equal(ports, []string{"127.0.0.1:4080:4080", "127.0.0.1:4443:4443"}) {
		t.Errorf("gridbridge ports %v, want 4080 and 4443 on 127.0.0.1", gb.Ports)
	}
	// The advertised port follows the published one.
	if !strings.Contains(gb.Ports[1], "${GRIDBRIDGE_HTTPS_PORT:-4443}") ||
		!strings.Contains(gb.Environment["GRIDBRIDGE_ADVERTISE_TLS_URL"], "${GRIDBRIDGE_HTTPS_PORT:-4443}") {
		t.Errorf("the advertised URL %q does not follow the published port %q", gb.Environment["GRIDBRIDGE_ADVERTISE_TLS_URL"], gb.Ports[1])
	}
}

// Each override adds its sidecar, pinned and on loopback, and points
// GridBridge at it.
func TestComposeOverridesAddPinnedSidecars(t *testing.T) {
	t.Parallel()
	want := map[string]struct{ env, value, dependsOn, condition string }{
		"azurite":    {"GRIDBRIDGE_AZURE_STORAGE", "UseDevelopmentStorage=true;DevelopmentStorageProxyUri=http://azurite", "azurite-setup", "service_completed_successfully"},
		"localstack": {"GRIDBRIDGE_SQS_ENDPOINT", "http://localstack:4566", "localstack", "service_healthy"},
		"elasticmq":  {"GRIDBRIDGE_SQS_ENDPOINT", "http://elasticmq:9324", "elasticmq", "service_started"},
	}
	for sidecar, file := range overrides {
		c := readCompose(t, file)
		w := want[sidecar]
		gb := c.Services["gridbridge"]
		if gb.Environment[w.env] != w.value || strings.ContainsAny(gb.Environment[w.env], " \n") {
			// The binary splits a repeatable variable on spaces.
			t.Errorf("%s: gridbridge %s = %q, want %q", file, w.env, gb.Environment[w.env], w.value)
		}
		if gb.DependsOn[w.dependsOn].Condition != w.condition {
			t.Errorf("%s: gridbridge depends on %s with %q, want %q", file, w.dependsOn, gb.DependsOn[w.dependsOn].Condition, w.condition)
		}
		if gb.Image != "" || gb.Build != "" || len(gb.Ports) != 0 {
			t.Errorf("%s overrides gridbridge's image, build or ports", file)
		}
		if _, ok := c.Services[sidecar]; !ok {
			t.Errorf("%s has no %s service", file, sidecar)
		}
		for name, s := range c.Services {
			if name == "gridbridge" {
				continue
			}
			if _, tag, ok := strings.Cut(s.Image, ":"); !ok || tag == "" || tag == "latest" {
				t.Errorf("%s: %s image %q is not pinned to a tag", file, name, s.Image)
			}
			for _, p := range s.Ports {
				if !strings.HasPrefix(p, "127.0.0.1:") {
					t.Errorf("%s: %s publishes %q beyond loopback", file, name, p)
				}
			}
		}
	}
	az := readCompose(t, overrides["azurite"]).Services["azurite"]
	if !strings.HasPrefix(az.Image, "mcr.microsoft.com/azure-storage/azurite:") ||
		len(az.Command) == 0 || az.Command[0] != "azurite-blob" || !slices.Contains(az.Command, "--skipApiVersionCheck") || !slices.Contains(az.Command, "0.0.0.0") {
		t.Errorf("azurite: %q %q", az.Image, az.Command)
	}
	if ls := readCompose(t, overrides["localstack"]).Services["localstack"]; !strings.HasPrefix(ls.Image, "localstack/localstack:") || ls.Healthcheck == nil {
		t.Errorf("localstack: %q, healthcheck %+v", ls.Image, ls.Healthcheck)
	}
}

// Every file's volumes name files of the repository, relative to the
// project directory (compose.yaml's, for the overrides too).
func TestComposeVolumesExist(t *testing.T) {
	t.Parallel()
	for _, file := range append([]string{"compose.yaml"}, slices.Sorted(maps.Values(overrides))...) {
		for name, s := range readCompose(t, file).Services {
			for _, v := range s.Volumes {
				host, _, _ := strings.Cut(v, ":")
				if _, err := os.Stat(filepath.Join(repoRoot, host)); err != nil {
					t.Errorf("%s: %s volume %q: %v", file, name, v, err)
				}
			}
		}
	}
}

// TestComposeSettingsAreFlags checks that every GRIDBRIDGE_* variable the
// compose files set is a flag of cmd/emulator.
func TestComposeSettingsAreFlags(t *testing.T) {
	t.Parallel()
	main, err := os.ReadFile(filepath.Join(repoRoot, "cmd/emulator/main.go"))
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`fs\.\w+\([^,]+, "([a-z-]+)"`).FindAllStringSubmatch(string(main), -1) {
		flags[m[1]] = true
	}
	for _, file := range append([]string{"compose.yaml"}, slices.Sorted(maps.Values(overrides))...) {
		for name := range readCompose(t, file).Services["gridbridge"].Environment {
			flag := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, "GRIDBRIDGE_")), "_", "-")
			if !flags[flag] {
				t.Errorf("%s: %s sets --%s, which cmd/emulator does not have", file, name, flag)
			}
		}
	}
}

func keys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// sqsQueues lists the queue names of the SQS ARNs a topology's targets and
// dead-letter queues name.
func sqsQueues(f *topology.File) []string {
	var queues []string
	add := func(raw json.RawMessage) {
		var arn string
		if json.Unmarshal(raw, &arn) == nil && strings.HasPrefix(arn, "arn:aws:sqs:") {
			queues = append(queues, arn[strings.LastIndex(arn, ":")+1:])
		}
	}
	for _, b := range f.EventBridge.Buses {
		for _, r := range b.Rules {
			for _, tg := range r.Targets {
				add(tg.Members["Arn"])
				var dlq struct{ Arn json.RawMessage }
				if json.Unmarshal(tg.Members["DeadLetterConfig"], &dlq) == nil {
					add(dlq.Arn)
				}
			}
		}
	}
	return queues
}

func TestComposeSidecarsHaveWhatTheTopologyNames(t *testing.T) {
	t.Parallel()
	f, err := topology.Load(exampleTopology)
	if err != nil {
		t.Fatal(err)
	}
	queues := sqsQueues(f)
	if len(queues) == 0 {
		t.Fatal("the example topology names no SQS queue")
	}
	for _, file := range []string{"examples/compose/localstack-queues.sh", "examples/compose/elasticmq.conf"} {
		raw, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range queues {
			if !regexp.MustCompile(`(^|[^\w.-])` + regexp.QuoteMeta(q) + `([^\w.-]|$)`).Match(raw) {
				t.Errorf("%s does not create queue %s, which the topology names", file, q)
			}
		}
	}
	if info, err := os.Stat(filepath.Join(repoRoot, "examples/compose/localstack-queues.sh")); err != nil || info.Mode()&0o111 == 0 {
		t.Errorf("LocalStack runs only executable ready hooks: %v %v", info.Mode(), err)
	}
	setup := readCompose(t, overrides["azurite"]).Services["azurite-setup"].Command
	for _, tp := range f.EventGrid.Topics {
		for _, s := range tp.Subscriptions {
			if dl := s.DeadLetter; dl != nil {
				if i := slices.Index(setup, "--name"); i < 0 || i+1 >= len(setup) || setup[i+1] != dl.Container {
					t.Errorf("azurite-setup %q does not create the dead-letter container %q", setup, dl.Container)
				}
			}
		}
	}
}

func TestComposeExampleTopologyApplies(t *testing.T) {
	t.Parallel()
	f, err := topology.Load(exampleTopology)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Apply(context.Background(), newFakeEmulator()); err != nil {
		t.Fatalf("against a fake emulator: %v", err)
	}
	h := startEmulator(t)
	skipUnlessServed(t, h, "POST", "/", "AWSEvents.ListEventBuses", "EventBridge (AWSEvents.*), which the example topology uses")
	err = f.Apply(context.Background(), h)
	var missing *topology.HookMissingError
	if errors.As(err, &missing) {
		t.Skipf("the example relies on a GridBridge-only header the emulator does not honour yet: %v", err)
	}
	if err != nil {
		t.Fatalf("against the emulator: %v", err)
	}
}
