package compatsuite

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testenv"
)

// runPipesCLI drives `aws pipes` through a pipe's life against the binary
// that serves SQS itself (a pipe reads its source from GridBridge's own
// SQS): a pipe from one queue to another with a filter and a template,
// messages sent and received with `aws sqs`, stop, start, update, tags and
// delete; then, against the binary that sends SQS to --sqs-endpoint, the
// pipe that cannot read its source there and says why. Each step is a row
// "aws-cli › pipes <command>".
func runPipesCLI(t *testing.T, emu *emulator) []row {
	stamp := time.Now().UnixNano()
	name := fmt.Sprintf("compat-cli-%d", stamp)
	src, dst := fmt.Sprintf("compat-cli-src-%d", stamp), fmt.Sprintf("compat-cli-dst-%d", stamp)
	arn := func(queue string) string { return "arn:aws:sqs:" + awsRegion + ":" + awsAccount + ":" + queue }
	pipeArn := "arn:aws:pipes:" + awsRegion + ":" + awsAccount + ":pipe/" + name
	role := "arn:aws:iam::" + awsAccount + ":role/pipes"
	var c, remote *cli
	var srcURL, dstURL string
	describe := func(t *testing.T, c *cli, pipe string) (out struct {
		CurrentState, DesiredState, StateReason, Target string
		SourceParameters                                struct{ SqsQueueParameters struct{ BatchSize int } }
		TargetParameters                                struct{ InputTemplate string }
	}) {
		t.Helper()
		c.json(t, &out, "pipes", "describe-pipe", "--name", pipe)
		return out
	}
	receive := func(t *testing.T, want string) {
		t.Helper()
		var out struct {
			Messages []struct{ Body, ReceiptHandle string }
		}
		c.json(t, &out, "sqs", "receive-message", "--queue-url", dstURL, "--wait-time-seconds", "5")
		if len(out.Messages) != 1 || out.Messages[0].Body != want {
			t.Fatalf("the target queue holds %+v, want one message %s", out.Messages, want)
		}
		c.json(t, nil, "sqs", "delete-message", "--queue-url", dstURL, "--receipt-handle", out.Messages[0].ReceiptHandle)
	}
	steps := []cliStep{
		{"pipes create-pipe", func(t *testing.T) {
			for _, q := range []struct {
				name string
				url  *string
			}{{src, &srcURL}, {dst, &dstURL}} {
				var out struct{ QueueUrl string }
				c.json(t, &out, "sqs", "create-queue", "--queue-name", q.name)
				*q.url = out.QueueUrl
			}
			var out struct{ Arn, Name, CurrentState, DesiredState string }
			c.json(t, &out, "pipes", "create-pipe", "--name", name, "--role-arn", role, "--source", arn(src), "--target", arn(dst),
				"--source-parameters", `{"FilterCriteria":{"Filters":[{"Pattern":"{\"body\":{\"kind\":[\"order\"]}}"}]},"SqsQueueParameters":{"BatchSize":5}}`,
				"--target-parameters", `{"InputTemplate":"{\"order\": <$.body.order>}"}`)
			equal(t, "Arn", out.Arn, pipeArn)
			equal(t, "CurrentState", out.CurrentState, "CREATING")
			equal(t, "DesiredState", out.DesiredState, "RUNNING")
			c.fails(t, "ConflictException", "pipes", "create-pipe", "--name", name, "--role-arn", role, "--source", arn(src), "--target", arn(dst))
			c.fails(t, "ValidationException", "pipes", "create-pipe", "--name", name+"-big", "--role-arn", role, "--source", arn(src), "--target", arn(dst),
				"--source-parameters", `{"SqsQueueParameters":{"BatchSize":20000}}`)
		}},
		{"pipes describe-pipe", func(t *testing.T) {
			out := describe(t, c, name)
			equal(t, "CurrentState", out.CurrentState, "RUNNING")
			if out.SourceParameters.SqsQueueParameters.BatchSize != 5 {
				t.Errorf("BatchSize = %d, want 5", out.SourceParameters.SqsQueueParameters.BatchSize)
			}
			c.fails(t, "NotFoundException", "pipes", "describe-pipe", "--name", name+"-missing")
		}},
		{"pipes list-pipes", func(t *testing.T) {
			var out struct {
				Pipes []struct{ Name, CurrentState, Source string }
			}
			c.json(t, &out, "pipes", "list-pipes", "--name-prefix", name, "--current-state", "RUNNING")
			if len(out.Pipes) != 1 || out.Pipes[0].Name != name || out.Pipes[0].Source != arn(src) {
				t.Errorf("Pipes = %+v, want just %s", out.Pipes, name)
			}
		}},
		{"pipes: sqs send-message-batch, filter, template, sqs receive-message", func(t *testing.T) {
			c.json(t, nil, "sqs", "send-message-batch", "--queue-url", srcURL, "--entries",
				`[{"Id":"1","MessageBody":"{\"kind\":\"ping\"}"},{"Id":"2","MessageBody":"{\"kind\":\"order\",\"order\":7}"}]`)
			receive(t, `{"order": 7}`)
			var attrs struct{ Attributes map[string]string }
			c.json(t, &attrs, "sqs", "get-queue-attributes", "--queue-url", srcURL, "--attribute-names", "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")
			equal(t, "source ApproximateNumberOfMessages", attrs.Attributes["ApproximateNumberOfMessages"], "0")
			equal(t, "source ApproximateNumberOfMessagesNotVisible", attrs.Attributes["ApproximateNumberOfMessagesNotVisible"], "0")
		}},
		{"pipes stop-pipe and start-pipe", func(t *testing.T) {
			var out struct{ CurrentState, DesiredState string }
			c.json(t, &out, "pipes", "stop-pipe", "--name", name)
			equal(t, "CurrentState", out.CurrentState, "STOPPING")
			equal(t, "describe CurrentState", describe(t, c, name).CurrentState, "STOPPED")
			c.json(t, nil, "sqs", "send-message", "--queue-url", srcURL, "--message-body", `{"kind":"order","order":8}`)
			c.json(t, &out, "pipes", "start-pipe", "--name", name)
			equal(t, "CurrentState", out.CurrentState, "STARTING")
			receive(t, `{"order": 8}`)
		}},
		{"pipes update-pipe", func(t *testing.T) {
			var out struct{ CurrentState string }
			c.json(t, &out, "pipes", "update-pipe", "--name", name, "--role-arn", role,
				"--target-parameters", `{"InputTemplate":"order <$.body.order>"}`)
			equal(t, "CurrentState", out.CurrentState, "UPDATING")
			equal(t, "InputTemplate", describe(t, c, name).TargetParameters.InputTemplate, "order <$.body.order>")
			c.json(t, nil, "sqs", "send-message", "--queue-url", srcURL, "--message-body", `{"kind":"order","order":9}`)
			receive(t, "order 9")
		}},
		{"pipes tag-resource, untag-resource and list-tags-for-resource", func(t *testing.T) {
			c.json(t, nil, "pipes", "tag-resource", "--resource-arn", pipeArn, "--tags", "team=shop,env=ci")
			c.json(t, nil, "pipes", "untag-resource", "--resource-arn", pipeArn, "--tag-keys", "env")
			var out struct{ Tags map[string]string }
			c.json(t, &out, "pipes", "list-tags-for-resource", "--resource-arn", pipeArn)
			if len(out.Tags) != 1 || out.Tags["team"] != "shop" {
				t.Errorf("Tags = %v, want team=shop", out.Tags)
			}
		}},
		{"pipes delete-pipe", func(t *testing.T) {
			var out struct{ CurrentState, DesiredState string }
			c.json(t, &out, "pipes", "delete-pipe", "--name", name)
			equal(t, "CurrentState", out.CurrentState, "DELETING")
			equal(t, "DesiredState", out.DesiredState, "DELETED")
			c.fails(t, "NotFoundException", "pipes", "describe-pipe", "--name", name)
			for _, u := range []string{srcURL, dstURL} {
				c.json(t, nil, "sqs", "delete-queue", "--queue-url", u)
			}
		}},
		{"pipes create-pipe with --sqs-endpoint (CREATE_FAILED, StateReason)", func(t *testing.T) {
			remoteName := name + "-remote"
			remote.json(t, nil, "pipes", "create-pipe", "--name", remoteName, "--role-arn", role, "--source", arn(src), "--target", arn(dst))
			out := describe(t, remote, remoteName)
			equal(t, "CurrentState", out.CurrentState, "CREATE_FAILED")
			if !strings.Contains(out.StateReason, "--sqs-endpoint") {
				t.Errorf("StateReason = %q, want it to name --sqs-endpoint", out.StateReason)
			}
			remote.json(t, nil, "pipes", "delete-pipe", "--name", remoteName)
		}},
	}
	if !emu.sqsServed {
		return cliRows(steps, statusNotYet)
	}
	bin, env := testenv.AWSCLI(t), awsEnv(t)
	c = &cli{bin: bin, env: env, emu: &emulator{http: emu.sqsAPI}}
	remote = &cli{bin: bin, env: env, emu: emu}
	return runCLISteps(t, steps)
}
