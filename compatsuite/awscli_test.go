package compatsuite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/internal/facetest"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// awsAccount is GridBridge's account for a caller whose access key id is not
// twelve digits; awsRegion the region the CLI signs for.
const (
	awsAccount = "000000000000"
	awsRegion  = "us-east-1"
)

// cli runs the AWS CLI against the emulator.
type cli struct {
	bin string
	env []string
	emu *emulator
}

// runAWSCLI drives `aws events` through a bus's life: a rule with an SQS
// target, an event delivered into the SQS server, and the teardown. Each
// step is a row "aws-cli › events <command>". ran is false when the CLI is
// missing (testenv.AWSCLI skips t then, or fails it under CI).
func runAWSCLI(t *testing.T, emu *emulator) (rows []row, ran bool) {
	bus := fmt.Sprintf("compat-cli-%d", time.Now().UnixNano())
	rule := "orders"
	pattern := `{"source":["compat.cli"],"detail-type":["OrderPlaced"],"detail":{"total":[{"numeric":[">",10]}]}}`
	busArn := "arn:aws:events:" + awsRegion + ":" + awsAccount + ":event-bus/" + bus
	ruleArn := "arn:aws:events:" + awsRegion + ":" + awsAccount + ":rule/" + bus + "/" + rule
	var (
		c                  *cli
		queueURL, queueARN string
		sqsClient          *sqs.Client
	)

	steps := []cliStep{
		{"events create-event-bus", func(t *testing.T) {
			var out struct{ EventBusArn string }
			c.json(t, &out, "events", "create-event-bus", "--name", bus)
			equal(t, "EventBusArn", out.EventBusArn, busArn)
		}},
		{"events put-rule", func(t *testing.T) {
			var out struct{ RuleArn string }
			c.json(t, &out, "events", "put-rule", "--name", rule, "--event-bus-name", bus, "--event-pattern", pattern, "--state", "ENABLED")
			equal(t, "RuleArn", out.RuleArn, ruleArn)
			c.fails(t, "InvalidEventPatternException", "events", "put-rule", "--name", "bad", "--event-bus-name", bus, "--event-pattern", "{not json")
		}},
		{"events describe-rule", func(t *testing.T) {
			var out struct{ Name, Arn, EventBusName, EventPattern, State string }
			c.json(t, &out, "events", "describe-rule", "--name", rule, "--event-bus-name", bus)
			equal(t, "Name", out.Name, rule)
			equal(t, "Arn", out.Arn, ruleArn)
			equal(t, "EventBusName", out.EventBusName, bus)
			equal(t, "State", out.State, "ENABLED")
			sameJSON(t, "EventPattern", out.EventPattern, pattern)
		}},
		{"events list-rules", func(t *testing.T) {
			var out struct {
				Rules []struct{ Name, Arn, State string }
			}
			c.json(t, &out, "events", "list-rules", "--event-bus-name", bus)
			if len(out.Rules) != 1 || out.Rules[0].Name != rule || out.Rules[0].Arn != ruleArn || out.Rules[0].State != "ENABLED" {
				t.Errorf("Rules = %+v, want just %s (%s, ENABLED)", out.Rules, rule, ruleArn)
			}
		}},
		{"events put-targets", func(t *testing.T) {
			var out struct {
				FailedEntryCount int
				FailedEntries    []any
			}
			targets := fmt.Sprintf(`[{"Id":"queue","Arn":%q}]`, queueARN)
			c.json(t, &out, "events", "put-targets", "--rule", rule, "--event-bus-name", bus, "--targets", targets)
			if out.FailedEntryCount != 0 || len(out.FailedEntries) != 0 {
				t.Errorf("put-targets failed entries: %+v", out)
			}
		}},
		{"events list-targets-by-rule", func(t *testing.T) {
			var out struct{ Targets []struct{ Id, Arn string } }
			c.json(t, &out, "events", "list-targets-by-rule", "--rule", rule, "--event-bus-name", bus)
			if len(out.Targets) != 1 || out.Targets[0].Id != "queue" || out.Targets[0].Arn != queueARN {
				t.Errorf("Targets = %+v, want just queue → %s", out.Targets, queueARN)
			}
		}},
		{"events test-event-pattern", func(t *testing.T) {
			for total, want := range map[int]bool{42: true, 5: false} {
				event := fmt.Sprintf(`{"id":"1","account":%q,"source":"compat.cli","time":"2026-01-01T00:00:00Z","region":%q,"resources":[],"detail-type":"OrderPlaced","detail":{"total":%d}}`,
					awsAccount, awsRegion, total)
				var out struct{ Result *bool }
				c.json(t, &out, "events", "test-event-pattern", "--event-pattern", pattern, "--event", event)
				if out.Result == nil || *out.Result != want {
					t.Errorf("total %d: Result = %v, want %v", total, out.Result, want)
				}
			}
		}},
		{"events put-events", func(t *testing.T) {
			entries := fmt.Sprintf(`[{"EventBusName":%q,"Source":"compat.cli","DetailType":"OrderPlaced","Detail":"{\"total\":42}"},`+
				`{"EventBusName":%q,"Source":"compat.cli","DetailType":"OrderPlaced","Detail":"{\"total\":5}"}]`, bus, bus)
			var out struct {
				FailedEntryCount int
				Entries          []struct{ EventId, ErrorCode string }
			}
			c.json(t, &out, "events", "put-events", "--entries", entries)
			if out.FailedEntryCount != 0 || len(out.Entries) != 2 || out.Entries[0].EventId == "" {
				t.Fatalf("put-events: %+v", out)
			}
			// The matching event (total > 10) reaches the queue, and only it.
			msgs, err := sqsClient.ReceiveMessage(t.Context(), &sqs.ReceiveMessageInput{
				QueueUrl: &queueURL, MaxNumberOfMessages: 10, WaitTimeSeconds: 10,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs.Messages) != 1 {
				t.Fatalf("the queue got %d messages, want 1", len(msgs.Messages))
			}
			var got struct {
				ID         string `json:"id"`
				DetailType string `json:"detail-type"`
				Source     string `json:"source"`
				Account    string `json:"account"`
				Region     string `json:"region"`
				Detail     any    `json:"detail"`
			}
			if err := json.Unmarshal([]byte(aws.ToString(msgs.Messages[0].Body)), &got); err != nil {
				t.Fatalf("message body %q: %v", aws.ToString(msgs.Messages[0].Body), err)
			}
			equal(t, "id", got.ID, out.Entries[0].EventId)
			equal(t, "detail-type", got.DetailType, "OrderPlaced")
			equal(t, "source", got.Source, "compat.cli")
			equal(t, "account", got.Account, awsAccount)
			equal(t, "region", got.Region, awsRegion)
			if !reflect.DeepEqual(got.Detail, map[string]any{"total": float64(42)}) {
				t.Errorf("detail = %v", got.Detail)
			}
		}},
		{"events remove-targets", func(t *testing.T) {
			c.fails(t, "ValidationException", "events", "delete-rule", "--name", rule, "--event-bus-name", bus)
			var out struct{ FailedEntryCount int }
			c.json(t, &out, "events", "remove-targets", "--rule", rule, "--event-bus-name", bus, "--ids", "queue")
			equal(t, "FailedEntryCount", fmt.Sprint(out.FailedEntryCount), "0")
			var left struct{ Targets []any }
			c.json(t, &left, "events", "list-targets-by-rule", "--rule", rule, "--event-bus-name", bus)
			if len(left.Targets) != 0 {
				t.Errorf("targets left: %v", left.Targets)
			}
		}},
		{"events delete-rule", func(t *testing.T) {
			c.json(t, nil, "events", "delete-rule", "--name", rule, "--event-bus-name", bus)
			c.fails(t, "ResourceNotFoundException", "events", "describe-rule", "--name", rule, "--event-bus-name", bus)
		}},
		{"events delete-event-bus", func(t *testing.T) {
			c.json(t, nil, "events", "delete-event-bus", "--name", bus)
			c.fails(t, "ResourceNotFoundException", "events", "describe-event-bus", "--name", bus)
		}},
	}

	if !emu.eventBridge {
		rows = append(rows, cliRows(steps, statusNotYet)...)
		t.Logf("the binary does not serve EventBridge: the %d AWS CLI rows say %q", len(steps), statusNotYet)
		return rows, true
	}

	c = &cli{bin: testenv.AWSCLI(t), env: awsEnv(t), emu: emu}
	sqsClient = sqs.NewFromConfig(facetest.AWSConfig(emu.sqs, "test", awsRegion, nil))
	queueURL, queueARN = facetest.SQSQueue(t, sqsClient, bus, nil)

	started := time.Now()
	rows = append(rows, runCLISteps(t, steps)...)
	t.Logf("%d AWS CLI steps in %v", len(steps), time.Since(started).Round(time.Millisecond))
	return rows, true
}

// awsEnv is the CLI's environment: static test credentials, and none of the
// machine's AWS configuration or profiles.
func awsEnv(t *testing.T) []string {
	dir := t.TempDir()
	var env []string
	for _, kv := range loopbackEnv(os.Environ()) {
		if !strings.HasPrefix(strings.ToUpper(kv), "AWS_") {
			env = append(env, kv)
		}
	}
	return append(env,
		"AWS_ACCESS_KEY_ID=test",
		"AWS_SECRET_ACCESS_KEY=test",
		"AWS_DEFAULT_REGION="+awsRegion,
		"AWS_CONFIG_FILE="+filepath.Join(dir, "config"),
		"AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(dir, "credentials"),
		"AWS_MAX_ATTEMPTS=1",
		"AWS_EC2_METADATA_DISABLED=true",
		"AWS_PAGER=",
	)
}

func (c *cli) run(t *testing.T, args ...string) (stdout, stderr []byte, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, append(args, "--endpoint-url", c.emu.http, "--output", "json")...)
	cmd.Env = c.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.Bytes(), err
}

// json runs the CLI, fails t if it fails, and decodes its output into v
// (which may be nil for commands that print nothing).
func (c *cli) json(t *testing.T, v any, args ...string) {
	t.Helper()
	stdout, stderr, err := c.run(t, args...)
	if err != nil {
		t.Fatalf("aws %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	if v == nil {
		return
	}
	if err := json.Unmarshal(stdout, v); err != nil {
		t.Fatalf("aws %s printed %q: %v", strings.Join(args, " "), stdout, err)
	}
}

// fails runs the CLI and checks that it fails with the AWS error code.
func (c *cli) fails(t *testing.T, code string, args ...string) {
	t.Helper()
	_, stderr, err := c.run(t, args...)
	if err == nil {
		t.Fatalf("aws %s succeeded; want %s", strings.Join(args, " "), code)
	}
	if !bytes.Contains(stderr, []byte("("+code+")")) {
		t.Fatalf("aws %s: %v\n%s\nwant the error %s", strings.Join(args, " "), err, stderr, code)
	}
}

func equal(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

func sameJSON(t *testing.T, what, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Errorf("%s %q is not JSON: %v", what, got, err)
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// cliStep is one row of an AWS CLI run: an operation and the subtest that
// calls it, which the later steps may build on.
type cliStep struct {
	op  string
	run func(t *testing.T)
}

// runCLISteps runs steps in order as subtests and returns their rows:
// tested, or failed for the first that fails and every step after it (they
// build on it, so they do not run).
func runCLISteps(t *testing.T, steps []cliStep) []row {
	for i, s := range steps {
		if !t.Run(awsCLI+sep+s.op, s.run) {
			return append(cliRows(steps[:i], statusTested), cliRows(steps[i:], statusFailed)...)
		}
	}
	return cliRows(steps, statusTested)
}

// cliRows are the table rows of steps, all with status.
func cliRows(steps []cliStep, status string) []row {
	rows := make([]row, len(steps))
	for i, s := range steps {
		rows[i] = row{SDK: awsCLI, Operation: s.op, Status: status}
	}
	return rows
}
