package topology_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/emulator/topology"
)

func TestEmulatorGetsScheduleGroupsAndSchedules(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	mustApply(t, h,
		"eventbridge:",
		"  scheduler:",
		"    groups:",
		"      - name: team",
		"        tags: { env: dev }",
		"        schedules:",
		"          - name: nightly",
		"            scheduleExpression: cron(0 2 * * ? *)",
		"            scheduleExpressionTimezone: Europe/Paris",
		"            target:",
		"              arn: arn:aws:sqs:us-east-1:000000000000:jobs",
		"              roleArn: arn:aws:iam::000000000000:role/scheduler",
		"              input: { job: nightly }",
		"              retryPolicy: { maximumRetryAttempts: 3 }",
		"      - name: default",
		"        schedules:",
		"          - Name: ping",
		"            ScheduleExpression: rate(5 minutes)",
		"            FlexibleTimeWindow: { Mode: FLEXIBLE, MaximumWindowInMinutes: 5 }",
		"            Target: { Arn: 'arn:aws:lambda:us-east-1:000000000000:function:ping', RoleArn: 'arn:aws:iam::000000000000:role/scheduler', Input: hello }",
	)
	_, s := call(t, h, "GET", "/schedules/nightly?groupName=team", "", "")
	if s["ScheduleExpressionTimezone"] != "Europe/Paris" || field(s, "Target", "Input") != `{"job":"nightly"}` ||
		field(s, "Target", "RetryPolicy", "MaximumRetryAttempts") != 3.0 || field(s, "FlexibleTimeWindow", "Mode") != "OFF" {
		t.Errorf("GetSchedule nightly = %v", s)
	}
	_, ping := call(t, h, "GET", "/schedules/ping", "", "")
	if field(ping, "Target", "Input") != "hello" || field(ping, "FlexibleTimeWindow", "MaximumWindowInMinutes") != 5.0 || ping["GroupName"] != "default" {
		t.Errorf("GetSchedule ping = %v", ping)
	}
	_, tags := call(t, h, "GET", "/tags/arn:aws:scheduler:us-east-1:000000000000:schedule-group%2Fteam", "", "")
	list, _ := tags["Tags"].([]any)
	if len(list) != 1 || field(list[0], "Key") != "env" {
		t.Errorf("ListTagsForResource = %v", tags)
	}
}

func TestSchedulerRefusalPointsAtTheFile(t *testing.T) {
	t.Parallel()
	err := apply(t, startEmulator(t), yamlLines(
		"eventbridge:",
		"  scheduler:",
		"    groups:",
		"      - name: default",
		"        schedules:",
		"          - name: bad",
		"            scheduleExpression: rate(5 fortnights)",
		"            target: { arn: 'arn:aws:sqs:us-east-1:000000000000:jobs', roleArn: 'arn:aws:iam::000000000000:role/scheduler' }",
	))
	var apiErr *topology.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "ValidationException" || apiErr.Operation != "CreateSchedule" ||
		apiErr.Message != "Invalid Schedule Expression rate(5 fortnights)." || !strings.Contains(err.Error(), "eventbridge.scheduler.groups[0].schedules[0]") {
		t.Fatalf("err = %v", err)
	}
}

func TestSchedulerFileProblems(t *testing.T) {
	t.Parallel()
	_, err := topology.Parse("topology.yaml", []byte(yamlLines(
		"eventbridge:",
		"  scheduler:",
		"    groups:",
		"      - name: default",
		"        tags: { a: b }",
		"        schedules:",
		"          - name: 'no spaces'",
		"            scheduleExpression: every day",
		"            target: { arn: 'arn:aws:sqs:us-east-1:000000000000:jobs' }",
	)))
	for _, want := range []string{"tags: cannot be set on the default schedule group", "name: must be 1-64 letters",
		"scheduleExpression: must be at(…), rate(…) or cron(…)", "roleArn"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("problems %v, want %q", err, want)
		}
	}
}
