package compatsuite

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/internal/facetest"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// runSchedulerCLI drives `aws scheduler` through a schedule's life: a
// group, a rate(5 minutes) schedule with an SQS target in the SQS server, a
// one-time schedule that fires into that queue and deletes itself, and the
// teardown. Each step is a row "aws-cli › scheduler <command>".
func runSchedulerCLI(t *testing.T, emu *emulator) (rows []row) {
	group := fmt.Sprintf("compat-cli-%d", time.Now().UnixNano())
	name := "tick"
	role := "arn:aws:iam::" + awsAccount + ":role/scheduler"
	scheduleArn := "arn:aws:scheduler:" + awsRegion + ":" + awsAccount + ":schedule/" + group + "/" + name
	var (
		c                *cli
		queueARN         string
		onceURL, onceARN string
		sqsClient        *sqs.Client
	)
	targetIn := func(queue string) string {
		return fmt.Sprintf(`{"Arn":%q,"RoleArn":%q,"Input":"{\"run\":\"<aws.scheduler.scheduled-time>\"}"}`, queue, role)
	}
	target := func() string { return targetIn(queueARN) }

	steps := []cliStep{
		{"scheduler create-schedule-group", func(t *testing.T) {
			var out struct{ ScheduleGroupArn string }
			c.json(t, &out, "scheduler", "create-schedule-group", "--name", group)
			equal(t, "ScheduleGroupArn", out.ScheduleGroupArn, "arn:aws:scheduler:"+awsRegion+":"+awsAccount+":schedule-group/"+group)
			c.fails(t, "ConflictException", "scheduler", "create-schedule-group", "--name", group)
		}},
		{"scheduler create-schedule", func(t *testing.T) {
			var out struct{ ScheduleArn string }
			c.json(t, &out, "scheduler", "create-schedule", "--name", name, "--group-name", group,
				"--schedule-expression", "rate(5 minutes)", "--flexible-time-window", "Mode=OFF", "--target", target())
			equal(t, "ScheduleArn", out.ScheduleArn, scheduleArn)
			c.fails(t, "ValidationException", "scheduler", "create-schedule", "--name", "bad", "--group-name", group,
				"--schedule-expression", "rate(5 fortnights)", "--flexible-time-window", "Mode=OFF", "--target", target())
		}},
		{"scheduler get-schedule", func(t *testing.T) {
			var out struct {
				Arn, Name, GroupName, ScheduleExpression, ScheduleExpressionTimezone, State string
				Target                                                                      struct{ Arn string }
			}
			c.json(t, &out, "scheduler", "get-schedule", "--name", name, "--group-name", group)
			equal(t, "Arn", out.Arn, scheduleArn)
			equal(t, "GroupName", out.GroupName, group)
			equal(t, "ScheduleExpression", out.ScheduleExpression, "rate(5 minutes)")
			equal(t, "ScheduleExpressionTimezone", out.ScheduleExpressionTimezone, "UTC")
			equal(t, "State", out.State, "ENABLED")
			equal(t, "Target.Arn", out.Target.Arn, queueARN)
		}},
		{"scheduler list-schedules", func(t *testing.T) {
			var out struct {
				Schedules []struct{ Name, GroupName, State string }
			}
			c.json(t, &out, "scheduler", "list-schedules", "--group-name", group)
			if len(out.Schedules) != 1 || out.Schedules[0].Name != name || out.Schedules[0].State != "ENABLED" {
				t.Errorf("Schedules = %+v, want just %s", out.Schedules, name)
			}
		}},
		{"scheduler create-schedule at()", func(t *testing.T) {
			// A one-time schedule whose time has passed fires at once, and
			// ActionAfterCompletion DELETE removes it afterwards: no clock
			// needs to move, so the JS suite running beside this one is
			// undisturbed. Its queue is its own: when that suite moves the
			// shared clock, the rate(5 minutes) schedule fires into the
			// other one.
			var out struct{ ScheduleArn string }
			c.json(t, &out, "scheduler", "create-schedule", "--name", "once", "--group-name", group,
				"--schedule-expression", "at(2026-01-01T00:00:00)", "--action-after-completion", "DELETE",
				"--flexible-time-window", "Mode=OFF", "--target", targetIn(onceARN))
			msgs, err := sqsClient.ReceiveMessage(t.Context(), &sqs.ReceiveMessageInput{
				QueueUrl: &onceURL, MaxNumberOfMessages: 10, WaitTimeSeconds: 10,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs.Messages) != 1 {
				t.Fatalf("the at() schedule sent %d messages, want 1", len(msgs.Messages))
			}
			var body struct{ Run string }
			if err := json.Unmarshal([]byte(aws.ToString(msgs.Messages[0].Body)), &body); err != nil || body.Run != "2026-01-01T00:00:00Z" {
				t.Errorf("message body %q, want the scheduled time filled in", aws.ToString(msgs.Messages[0].Body))
			}
			c.fails(t, "ResourceNotFoundException", "scheduler", "get-schedule", "--name", "once", "--group-name", group)
		}},
		{"scheduler update-schedule", func(t *testing.T) {
			var out struct{ ScheduleArn string }
			c.json(t, &out, "scheduler", "update-schedule", "--name", name, "--group-name", group, "--state", "DISABLED",
				"--schedule-expression", "rate(5 minutes)", "--flexible-time-window", "Mode=OFF", "--target", target())
			equal(t, "ScheduleArn", out.ScheduleArn, scheduleArn)
			var got struct{ State string }
			c.json(t, &got, "scheduler", "get-schedule", "--name", name, "--group-name", group)
			equal(t, "State", got.State, "DISABLED")
		}},
		{"scheduler delete-schedule", func(t *testing.T) {
			c.json(t, nil, "scheduler", "delete-schedule", "--name", name, "--group-name", group)
			c.fails(t, "ResourceNotFoundException", "scheduler", "get-schedule", "--name", name, "--group-name", group)
		}},
		{"scheduler delete-schedule-group", func(t *testing.T) {
			c.fails(t, "ValidationException", "scheduler", "delete-schedule-group", "--name", "default")
			c.json(t, nil, "scheduler", "delete-schedule-group", "--name", group)
			c.fails(t, "ResourceNotFoundException", "scheduler", "get-schedule-group", "--name", group)
		}},
	}

	c = &cli{bin: testenv.AWSCLI(t), env: awsEnv(t), emu: emu}
	sqsClient = sqs.NewFromConfig(facetest.AWSConfig(emu.sqs, "test", awsRegion, nil))
	_, queueARN = facetest.SQSQueue(t, sqsClient, group, nil)
	onceURL, onceARN = facetest.SQSQueue(t, sqsClient, group+"-once", nil)

	rows = append(rows, runCLISteps(t, steps)...)
	return rows
}
