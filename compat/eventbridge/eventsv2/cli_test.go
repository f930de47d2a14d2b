package eventsv2

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventbridge/v2model"
)

// seedRedriveCommand is EB-12's step 3 exactly as the seed prints it.
const seedRedriveCommand = `aws eventsv2 create-subscriber \
  --name redrive-2026-09-16 \
  --event-bus-arn arn:aws:events:us-east-1:111122223333:event-busv2/orders/EXAMPLE1234567890abcdef \
  --starting-position POINT_IN_TIME \
  --point-in-time-configuration '{ "PointType": "TIMESTAMP", "StartingPoint": "2026-09-16T18:40:00Z", "EndPoint": "2026-09-16T18:41:00Z" }' \
  --filter-configuration '{ "Filters": [ { "Scope": "SYSTEM_METADATA", "Pattern": "{\"aws:EventId\":[\"a1b2c3d4-...\",\"e5f6a7b8-...\"]}" } ] }' \
  --invoke-configuration '{ "TargetArn": "arn:aws:sqs:us-east-1:111122223333:large-orders", "RoleArn": "arn:aws:iam::111122223333:role/EventBusDeliveryRole" }'`

// awsCLI runs the AWS CLI with a model directory, config and credentials of
// its own, so the test neither reads nor changes the user's ~/.aws.
type awsCLI struct {
	path string
	home string
	env  []string
}

// requireAWSCLI finds the CLI; without it the test skips on a developer's
// machine and fails under CI, which must not pass by skipping.
func requireAWSCLI(t *testing.T) *awsCLI {
	t.Helper()
	path, err := exec.LookPath("aws")
	if err != nil {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			t.Fatalf("the AWS CLI is not installed and CI=%s: ./scripts/test.sh installs it (apt-get install awscli)", os.Getenv("CI"))
		}
		t.Skip("the AWS CLI is not installed: ./scripts/test.sh installs it (apt-get install awscli)")
	}
	home := t.TempDir()
	env := []string{}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "AWS_") || strings.HasPrefix(kv, "HOME=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"AWS_CONFIG_FILE="+filepath.Join(home, "config"),
		"AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(home, "credentials"),
		"AWS_ACCESS_KEY_ID="+testAccount, // the account, as GridBridge reads it
		"AWS_SECRET_ACCESS_KEY=gridbridge",
		"AWS_DEFAULT_REGION=us-east-1",
		"AWS_PAGER=",
		"AWS_EC2_METADATA_DISABLED=true",
		"AWS_MAX_ATTEMPTS=1",
	)
	// A pyenv shim finds its installation through $HOME unless PYENV_ROOT
	// says where it is; HOME now points at the temporary directory.
	if os.Getenv("PYENV_ROOT") == "" && filepath.Base(filepath.Dir(path)) == "shims" {
		env = append(env, "PYENV_ROOT="+filepath.Dir(filepath.Dir(path)))
	}
	return &awsCLI{path: path, home: home, env: env}
}

// run runs a shell command line (the seed's commands are shell text) and
// returns stdout, stderr and the exit code.
func (c *awsCLI) run(t *testing.T, line string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("bash", "-c", line)
	cmd.Env = c.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			return out.String(), errOut.String(), exit.ExitCode()
		}
		t.Fatalf("running %q: %v", line, err)
	}
	return out.String(), errOut.String(), 0
}

func (c *awsCLI) mustRun(t *testing.T, line string) map[string]any {
	t.Helper()
	stdout, stderr, code := c.run(t, line)
	if code != 0 {
		t.Fatalf("%s\nexit %d\nstderr: %s", line, code, stderr)
	}
	var out map[string]any
	if strings.TrimSpace(stdout) == "" {
		return out
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%s: output is not JSON: %v\n%s", line, err, stdout)
	}
	return out
}

// seedIDs hands out the seed's example ids, so its command names resources
// that exist: the bus EXAMPLE1234567890abcdef and the events a1b2c3d4-...
// and e5f6a7b8-... (with an unrelated event between them).
func seedIDs() func(kind string) string {
	var mu sync.Mutex
	events := []string{"a1b2c3d4-...", "99999999-unrelated", "e5f6a7b8-..."}
	return func(kind string) string {
		mu.Lock()
		defer mu.Unlock()
		switch kind {
		case IDKindEventBus:
			return "EXAMPLE1234567890abcdef"
		case IDKindSubscriber:
			return "EXAMPLEabcdef1234567890"
		case IDKindEvent:
			if len(events) > 0 {
				id := events[0]
				events = events[1:]
				return id
			}
		}
		return ""
	}
}

// TestEB_D2_EB12_AWSCLIRunsSeedRedriveCommand installs the model with
// `aws configure add-model` and runs the seed's create-subscriber command
// verbatim (plus --endpoint-url), then describe, list and delete. The
// command really replays: the bus holds the two events it names and one it
// does not, and exactly the two reach the target, marked REPLAY (EB-13).
func TestEB_D2_EB12_AWSCLIRunsSeedRedriveCommand(t *testing.T) {
	t.Parallel()
	cli := requireAWSCLI(t)
	version, _, _ := cli.run(t, "aws --version 2>&1")
	t.Logf("AWS CLI: %s", strings.TrimSpace(version))

	h := newHarness(t, harnessOptions{newID: seedIDs()})
	srvURL := h.api.url
	_, here, _, _ := runtime.Caller(0)
	model := filepath.Join(filepath.Dir(here), "..", "v2model", filepath.FromSlash(v2model.Path))
	cli.mustRun(t, "aws configure add-model --service-name eventsv2 --service-model file://"+model)
	if _, err := os.Stat(filepath.Join(cli.home, ".aws", "models", "eventsv2", v2model.APIVersion, "service-2.json")); err != nil {
		t.Fatalf("add-model did not install the model: %v", err)
	}
	endpoint := " --endpoint-url " + srvURL

	bus := cli.mustRun(t, "aws eventsv2 create-event-bus --name orders"+endpoint)
	if bus["EventBusArn"] != "arn:aws:events:us-east-1:111122223333:event-busv2/orders/EXAMPLE1234567890abcdef" {
		t.Fatalf("create-event-bus = %v", bus)
	}
	h.advance(12 * time.Second)
	h.put(bus["EventBusArn"].(string), m{}, m{})
	h.advance(time.Second)
	h.put(bus["EventBusArn"].(string), m{})

	created := cli.mustRun(t, seedRedriveCommand+endpoint)
	wantArn := "arn:aws:events:us-east-1:111122223333:subscriber/redrive-2026-09-16/EXAMPLEabcdef1234567890"
	if created["SubscriberArn"] != wantArn || created["StartingPosition"] != "POINT_IN_TIME" {
		t.Fatalf("create-subscriber = %v", created)
	}
	// The CLI sent the timestamps as epoch seconds; the server read them.
	var described subscriberShape
	h.mustCall("DescribeSubscriber", m{"Name": wantArn}, &described)
	p := described.PointInTimeConfiguration
	if p == nil || !p.StartingPoint.Equal(t0) || !p.EndPoint.Equal(t0.Add(time.Minute)) {
		t.Fatalf("point in time = %+v", p)
	}

	h.settle()
	var replayed []string
	for _, dl := range h.store.Messages("arn:aws:sqs:us-east-1:111122223333:large-orders") {
		attrs := map[string]string{}
		for _, a := range dl.Attributes {
			attrs[a.Name] = a.Value
		}
		if attrs["aws-DeliveryType"] != DeliveryReplay {
			t.Errorf("message attributes %v, want aws-DeliveryType REPLAY", attrs)
		}
		replayed = append(replayed, attrs["aws-EventId"])
	}
	// A standard subscriber delivers in no particular order.
	sort.Strings(replayed)
	if strings.Join(replayed, ",") != "a1b2c3d4-...,e5f6a7b8-..." {
		t.Fatalf("replayed %v, want exactly the two events the filter names", replayed)
	}

	got := cli.mustRun(t, "aws eventsv2 describe-subscriber --name redrive-2026-09-16"+endpoint)
	if got["SubscriberArn"] != wantArn || got["EventBusArn"] != bus["EventBusArn"] {
		t.Fatalf("describe-subscriber = %v", got)
	}
	listed := cli.mustRun(t, "aws eventsv2 list-subscribers --event-bus-arn "+bus["EventBusArn"].(string)+endpoint)
	if subs, _ := listed["Subscribers"].([]any); len(subs) != 1 {
		t.Fatalf("list-subscribers = %v", listed)
	}
	cli.mustRun(t, "aws eventsv2 delete-subscriber --name "+wantArn+endpoint)
	_, stderr, code := cli.run(t, "aws eventsv2 describe-subscriber --name redrive-2026-09-16"+endpoint)
	if code == 0 || !strings.Contains(stderr, "ResourceNotFoundException") || !strings.Contains(stderr, "Subscriber redrive-2026-09-16 does not exist.") {
		t.Fatalf("describe after delete: exit %d, stderr %s", code, stderr)
	}
	// The CLI checks only minimums; the server enforces maximums (EB-2).
	_, stderr, code = cli.run(t, `aws eventsv2 create-subscriber --name too-many --event-bus-arn orders --invoke-configuration '{"TargetArn":"https://example.com/x"}' --retry-policy '{"MaxRetryAttempts":186}'`+endpoint)
	if code == 0 || !strings.Contains(stderr, "ValidationException") || !strings.Contains(stderr, "less than or equal to 185") {
		t.Fatalf("MaxRetryAttempts 186: exit %d, stderr %s", code, stderr)
	}
}
