package container_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/testkit"
	"github.com/gridbridge/gridbridge/testkit/container"
)

// composeFile is the repository's compose file and composeOverrides its
// override files, from this package's directory.
const composeFile = "../../compose.yaml"

var composeOverrides = []string{
	"../../examples/compose/azurite.yaml",
	"../../examples/compose/localstack.yaml",
	"../../examples/compose/elasticmq.yaml",
}

// composeTools are the Compose commands on this machine: Compose v2 (the
// docker CLI plugin) and v1 (docker-compose, as Debian ships it).
func composeTools(t *testing.T) [][]string {
	t.Helper()
	var tools [][]string
	if exec.Command("docker", "compose", "version").Run() == nil {
		tools = append(tools, []string{"docker", "compose"})
	} else {
		t.Log("no Compose v2 (docker compose): not checked with it")
	}
	if _, err := exec.LookPath("docker-compose"); err == nil {
		tools = append(tools, []string{"docker-compose"})
	} else {
		t.Log("no Compose v1 (docker-compose): not checked with it")
	}
	if len(tools) == 0 {
		msg := "neither docker compose nor docker-compose is installed (apt-get install docker-compose)"
		if os.Getenv(container.RequireDockerVar) != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return tools
}

// compose runs one Compose command with env added; it returns the output
// and fails t on an error.
func compose(t *testing.T, tool []string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tool[0], append(tool[1:], args...)...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", strings.Join(tool, " "), strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// Every Compose on the machine accepts the default file and each override
// on top of it (no engine is needed for that).
func TestComposeFilesAreValid(t *testing.T) {
	t.Parallel()
	for _, tool := range composeTools(t) {
		for _, files := range append([][]string{{composeFile}}, overrideSets()...) {
			var args []string
			for _, f := range files {
				args = append(args, "-f", f)
			}
			compose(t, tool, nil, append(args, "config", "-q")...)
		}
	}
}

func overrideSets() [][]string {
	var sets [][]string
	for _, o := range composeOverrides {
		sets = append(sets, []string{composeFile, o})
	}
	return sets
}

// The default compose file's gridbridge service, from the image under test,
// on its embedded SQS and dead-letter store: an EventBridge event reaches
// the topology's SQS queue and is received with the SQS SDK, and an Event
// Grid CloudEvent published to the endpoint ARM gives is delivered (to
// the topology's webhook, which nothing serves in this test: the attempt
// is what shows delivery ran).
func TestComposeDefault_Container(t *testing.T) {
	t.Parallel()
	container.SkipIfNoDocker(t)
	tool := composeTools(t)[0]
	image := os.Getenv(imageVar)
	if image == "" {
		t.Skipf("%s is not set: this test runs the image ./scripts/test.sh builds (or docker build -t gridbridge:local .; %s=gridbridge:local)", imageVar, imageVar)
	}
	httpPort, tlsPort := freeLoopbackPort(t), freeLoopbackPort(t)
	project := "gridbridge-compose-" + uuid.NewString()[:8]
	env := []string{
		"GRIDBRIDGE_IMAGE=" + image,
		"GRIDBRIDGE_HTTP_PORT=" + strconv.Itoa(httpPort),
		"GRIDBRIDGE_HTTPS_PORT=" + strconv.Itoa(tlsPort),
	}
	args := []string{"-f", composeFile, "-p", project}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(compose(t, tool, env, append(args, "logs", "--no-color")...))
		}
		compose(t, tool, env, append(args, "down", "--volumes", "--remove-orphans", "--timeout", "5")...)
	})
	compose(t, tool, env, append(args, "up", "--detach", "--no-build", "gridbridge")...)

	base := "http://127.0.0.1:" + strconv.Itoa(httpPort)
	waitHealthy(t, base)
	emu := testkit.Connect(t, base, testkit.AsConfigured())
	ctx := context.Background()

	put, err := emu.EventBridge().PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{{
		EventBusName: aws.String("shop"), Source: aws.String("shop.orders"), DetailType: aws.String("OrderPlaced"),
		Detail: aws.String(`{"total":2500}`),
	}}})
	if err != nil || put.FailedEntryCount != 0 {
		t.Fatalf("PutEvents: %+v, %v", put, err)
	}
	got, err := emu.SQS().ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
		QueueUrl: aws.String(emu.SQSQueueURL("big-orders")), WaitTimeSeconds: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	var envelope struct {
		ID     string         `json:"id"`
		Detail map[string]int `json:"detail"`
	}
	if len(got.Messages) != 1 || json.Unmarshal([]byte(aws.ToString(got.Messages[0].Body)), &envelope) != nil ||
		envelope.ID != aws.ToString(put.Entries[0].EventId) || envelope.Detail["total"] != 2500 {
		t.Fatalf("big-orders queue: %+v, want the event", got.Messages)
	}

	event, err := messaging.NewCloudEvent("/shop/orders", "Shop.OrderPlaced", map[string]int{"total": 7}, nil)
	if err != nil {
		t.Fatal(err)
	}
	event.ID = "order-7"
	event.Time = to.Ptr(time.Now())
	if _, err := emu.EventGridPublisher("orders").PublishCloudEvents(ctx, []messaging.CloudEvent{event}, nil); err != nil {
		t.Fatalf("publishing to the topology's topic at the endpoint ARM gives: %v", err)
	}
	attempts := emu.WaitForDeliveries(testkit.Filter{Subscription: "order-audit"}, 1)
	if !slices.Contains(attempts[0].EventIDs, "order-7") {
		t.Errorf("first attempt %+v, want order-7's", attempts[0])
	}
}

// waitHealthy waits until the emulator at base answers its health check:
// Compose v1 has no `up --wait`.
func waitHealthy(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var last error
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/_emulator/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
			err = fmt.Errorf("status %s", resp.Status)
		}
		last = err
		<-tick.C
	}
	t.Fatalf("GridBridge at %s not healthy within 30 s: %v", base, last)
}
