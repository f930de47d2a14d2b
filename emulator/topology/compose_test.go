package topology_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gridbridge/gridbridge/emulator/topology"
)

// There is no Docker engine where these tests run, so `docker compose up`
// is not run: they check compose.yaml's structure and that it agrees with
// the image, the binary's flags and the example topology.

const (
	repoRoot        = "../.."
	exampleTopology = repoRoot + "/examples/compose/topology.yaml"
)

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

// readCompose decodes compose.yaml, refusing any key this test does not
// know, so a misspelt key (healtcheck) fails here instead of being ignored.
func readCompose(t *testing.T) (composeFile, string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	var c composeFile
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return c, string(raw)
}

func TestComposeServices(t *testing.T) {
	t.Parallel()
	c, raw := readCompose(t)
	for _, name := range []string{"gridbridge", "azurite", "azurite-setup", "localstack"} {
		if _, ok := c.Services[name]; !ok {
			t.Errorf("compose.yaml has no %s service", name)
		}
	}
	for name, s := range c.Services {
		if s.Image == "" {
			t.Errorf("%s has no image", name)
			continue
		}
		if _, tag, ok := strings.Cut(s.Image, ":"); !ok || tag == "" || tag == "latest" {
			t.Errorf("%s: image %q is not pinned to a tag", name, s.Image)
		}
	}

	gb := c.Services["gridbridge"]
	if gb.Build != "." {
		t.Errorf("gridbridge is built from %q, want the repository's Dockerfile (.)", gb.Build)
	}
	for k, want := range map[string]string{
		"GRIDBRIDGE_CONFIG":            "/config/topology.yaml",
		"GRIDBRIDGE_SQS_ENDPOINT":      "http://localstack:4566",
		"GRIDBRIDGE_ADVERTISE_TLS_URL": "https://localhost:4443",
	} {
		if got := gb.Environment[k]; got != want {
			t.Errorf("gridbridge %s = %q, want %q", k, got, want)
		}
	}
	if storage := gb.Environment["GRIDBRIDGE_AZURE_STORAGE"]; !strings.Contains(storage, "//azurite") || strings.ContainsAny(storage, " \n") {
		// The binary splits the variable on spaces into several strings.
		t.Errorf("GRIDBRIDGE_AZURE_STORAGE %q must reach the azurite service in one connection string", storage)
	}
	if !slices.Contains(gb.Volumes, "./examples/compose/topology.yaml:/config/topology.yaml:ro") {
		t.Errorf("gridbridge volumes %v: the example topology is not mounted at /config/topology.yaml", gb.Volumes)
	}
	if gb.Healthcheck == nil || !slices.Equal(gb.Healthcheck.Test, []string{"CMD", "/emulator", "--healthcheck"}) {
		t.Errorf("gridbridge healthcheck %+v, want the binary's own probe", gb.Healthcheck)
	}
	for dep, cond := range map[string]string{"localstack": "service_healthy", "azurite-setup": "service_completed_successfully"} {
		if gb.DependsOn[dep].Condition != cond {
			t.Errorf("gridbridge depends on %s with %q, want %q", dep, gb.DependsOn[dep].Condition, cond)
		}
	}
	if !slices.Contains(gb.Ports, "4080:4080") || !slices.Contains(gb.Ports, "4443:4443") {
		t.Errorf("gridbridge ports %v", gb.Ports)
	}

	az := c.Services["azurite"]
	if !strings.HasPrefix(az.Image, "mcr.microsoft.com/azure-storage/azurite:") ||
		len(az.Command) == 0 || az.Command[0] != "azurite-blob" || !slices.Contains(az.Command, "--skipApiVersionCheck") || !slices.Contains(az.Command, "0.0.0.0") {
		t.Errorf("azurite: %q %q", az.Image, az.Command)
	}
	if ls := c.Services["localstack"]; !strings.HasPrefix(ls.Image, "localstack/localstack:") || ls.Healthcheck == nil {
		t.Errorf("localstack: %q, healthcheck %+v", ls.Image, ls.Healthcheck)
	}
	if !regexp.MustCompile(`(?m)^\s*#\s*image: softwaremill/elasticmq-native:\d+\.\d+\.\d+$`).MatchString(raw) {
		t.Error("compose.yaml does not offer a pinned ElasticMQ as the alternative SQS server")
	}
	for _, s := range c.Services {
		for _, v := range s.Volumes {
			host, _, _ := strings.Cut(v, ":")
			if _, err := os.Stat(filepath.Join(repoRoot, host)); err != nil {
				t.Errorf("volume %q: %v", v, err)
			}
		}
	}
}

// TestComposeSettingsAreFlags checks that every GRIDBRIDGE_* variable the
// compose file sets is a flag of cmd/emulator or an ENV of the image.
func TestComposeSettingsAreFlags(t *testing.T) {
	t.Parallel()
	c, _ := readCompose(t)
	main, err := os.ReadFile(filepath.Join(repoRoot, "cmd/emulator/main.go"))
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`fs\.\w+\([^,]+, "([a-z-]+)"`).FindAllStringSubmatch(string(main), -1) {
		flags[m[1]] = true
	}
	for name := range c.Services["gridbridge"].Environment {
		flag := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, "GRIDBRIDGE_")), "_", "-")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			switch {
			case flags[flag]:
			case flag == "config":
				t.Skip("cmd/emulator has no --config flag yet: the topology is not wired into the binary")
			default:
				t.Errorf("%s sets --%s, which cmd/emulator does not have", name, flag)
			}
		})
	}
}

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
	c, _ := readCompose(t)
	setup := c.Services["azurite-setup"].Command
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
