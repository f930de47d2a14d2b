package container

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/testcontainers/testcontainers-go"
)

// Images the sidecar options start when given "". They are pinned so that a
// test run is the same on every machine.
const (
	DefaultAzuriteImage = "mcr.microsoft.com/azure-storage/azurite:3.37.0"
	// DefaultLocalStackImage is the last LocalStack community release that
	// starts without an auth token (localstack:latest needs one since March
	// 2026).
	DefaultLocalStackImage = "localstack/localstack:4.14.0"
	DefaultElasticMQImage  = "softwaremill/elasticmq-native:1.6.14"
)

// TopologyDir is where WithTopology copies the topology file in the
// emulator's container.
const TopologyDir = "/config"

// options is what Run is asked for besides the generic testcontainers
// customizers.
type options struct {
	// env is set on the emulator's container after Run's own variables, so
	// a caller's value wins.
	env      map[string]string
	azurite  *sidecarSpec
	sqs      *sidecarSpec
	topology string // host path; "" for none
	build    string // build context; "" to use the image as given
	// allInterfaces publishes the ports on every interface of the Docker
	// host instead of 127.0.0.1.
	allInterfaces bool
}

// sidecarSpec is one sidecar container asked for.
type sidecarSpec struct {
	image string
	opts  []testcontainers.ContainerCustomizer
}

func defaultOptions() options { return options{env: map[string]string{}} }

// Option configures the GridBridge container or its sidecars. Options are
// testcontainers.ContainerCustomizers, so they mix with the generic ones in
// Run's arguments.
type Option func(*options) error

var _ testcontainers.ContainerCustomizer = Option(nil)

// Customize does nothing: Run reads Options itself before it builds the
// request. It is here so an Option is a testcontainers.ContainerCustomizer.
func (Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithEnv sets one of the emulator's environment variables: every flag of
// cmd/emulator has one, GRIDBRIDGE_<FLAG> (--log-level → GRIDBRIDGE_LOG_LEVEL).
// It overrides what Run sets, GRIDBRIDGE_ADVERTISE_TLS_URL included.
func WithEnv(name, value string) Option {
	return func(o *options) error {
		o.env[name] = value
		return nil
	}
}

// WithVirtualClock runs the emulator on a virtual clock: time moves only
// when the test advances it (testkit's Emulator.Advance), so a day of
// retries takes milliseconds. It starts at the container's start time, not
// at testkit.DefaultStart: there is no flag for the start.
func WithVirtualClock() Option { return WithEnv("GRIDBRIDGE_CLOCK", "virtual") }

// WithTestkitDefaults gives the container the schedules testkit.Start
// gives an in-process emulator: a virtual clock, no retry jitter and no
// Event Grid probation, so one scenario asserts the same times against both.
func WithTestkitDefaults() Option {
	return func(o *options) error {
		maps.Copy(o.env, map[string]string{
			"GRIDBRIDGE_CLOCK":        "virtual",
			"GRIDBRIDGE_NO_JITTER":    "true",
			"GRIDBRIDGE_NO_PROBATION": "true",
		})
		return nil
	}
}

// WithTopology copies the topology file at path (YAML or JSON: Event Grid
// topics and subscriptions, EventBridge buses, rules and targets) into the
// container under TopologyDir and points GRIDBRIDGE_CONFIG at it, so the
// resources exist when Run returns. The file's format is in the
// repository's README.md, "Topology file". (Images built before
// cmd/emulator had its --config flag ignore the variable.)
func WithTopology(path string) Option {
	return func(o *options) error {
		info, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("topology file: %w", err)
		}
		if info.IsDir() {
			return fmt.Errorf("topology file %s is a directory", path)
		}
		o.topology = path
		return nil
	}
}

// topologyTarget is where the topology file goes in the container; it keeps
// the file's extension, which tells YAML from JSON in error messages.
func topologyTarget(hostPath string) string {
	ext := strings.ToLower(filepath.Ext(hostPath))
	if ext == "" {
		ext = ".yaml"
	}
	return TopologyDir + "/topology" + ext
}

// WithAzurite starts Azurite's blob service (image, or DefaultAzuriteImage
// for "") beside the emulator on a shared network and wires the emulator's
// GRIDBRIDGE_AZURE_STORAGE to it, so Event Grid dead letters become blobs of
// devstoreaccount1. Read them from the test through
// Container.AzuriteConnectionString. opts customize the Azurite container.
func WithAzurite(image string, opts ...testcontainers.ContainerCustomizer) Option {
	return func(o *options) error {
		o.azurite = &sidecarSpec{image: orDefault(image, DefaultAzuriteImage), opts: opts}
		return nil
	}
}

// WithSQS starts an SQS server beside the emulator on a shared network and
// wires GRIDBRIDGE_SQS_ENDPOINT to it, so EventBridge SQS targets and
// dead-letter queues are real queues. image is a LocalStack community image
// ("" means DefaultLocalStackImage) or an ElasticMQ one (an image name
// containing "elasticmq"). Create the queues from the test through
// Container.SQSEndpoint. opts customize the SQS container.
func WithSQS(image string, opts ...testcontainers.ContainerCustomizer) Option {
	return func(o *options) error {
		o.sqs = &sidecarSpec{image: orDefault(image, DefaultLocalStackImage), opts: opts}
		return nil
	}
}

// WithBuild builds the emulator's image from the Dockerfile of a GridBridge
// checkout at contextDir instead of using Run's image argument. The image is
// kept (tagged gridbridge:testcontainers), so Docker's build cache makes
// later runs quick.
func WithBuild(contextDir string) Option {
	return func(o *options) error {
		if _, err := os.Stat(filepath.Join(contextDir, "Dockerfile")); err != nil {
			return fmt.Errorf("building the GridBridge image: %w", err)
		}
		o.build = contextDir
		return nil
	}
}

// WithPortsOnAllInterfaces publishes the emulator's and the sidecars'
// ports on every interface of the Docker host. By default they are
// published on 127.0.0.1 only, as the emulator has no authentication (on a
// remote Docker host, whose loopback the test cannot reach, they are
// published on every interface anyway).
func WithPortsOnAllInterfaces() Option {
	return func(o *options) error {
		o.allInterfaces = true
		return nil
	}
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
