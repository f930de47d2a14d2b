package e2e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/scheduler"
	schedtypes "github.com/aws/aws-sdk-go-v2/service/scheduler/types"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

const schedulerRole = "arn:aws:iam::000000000000:role/scheduler"

func offWindow() *schedtypes.FlexibleTimeWindow {
	return &schedtypes.FlexibleTimeWindow{Mode: schedtypes.FlexibleTimeWindowModeOff}
}

// TestSchedulerAgainstBinary drives EventBridge Scheduler through the Go SDK
// against the built binary on a virtual clock with the in-memory SQS.
func TestSchedulerAgainstBinary(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter")
	emu := testkit.Connect(t, proc.Endpoints["http"], testkit.WithProbation())
	ctx := context.Background()
	sch := emu.Scheduler()
	queue := "arn:aws:sqs:us-east-1:000000000000:scheduled"
	create := func(in scheduler.CreateScheduleInput) {
		t.Helper()
		if in.FlexibleTimeWindow == nil {
			in.FlexibleTimeWindow = offWindow()
		}
		if _, err := sch.CreateSchedule(ctx, &in); err != nil {
			t.Fatal(err)
		}
	}
	count := func(schedule string) int {
		t.Helper()
		return len(emu.Deliveries(testkit.Filter{Labels: map[string]string{"schedule": schedule}, Outcome: "Success"}))
	}
	start := emu.Now()

	// at() one hour ahead, deleted after it runs.
	create(scheduler.CreateScheduleInput{
		Name: aws.String("once"), ScheduleExpression: aws.String("at(" + start.Add(time.Hour).UTC().Format("2006-01-02T15:04:05") + ")"),
		ActionAfterCompletion: schedtypes.ActionAfterCompletionDelete,
		Target: &schedtypes.Target{Arn: aws.String(queue), RoleArn: aws.String(schedulerRole),
			Input: aws.String(`{"job":"once","at":"<aws.scheduler.scheduled-time>"}`)},
	})
	// rate(5 minutes), deleted after an hour.
	create(scheduler.CreateScheduleInput{
		Name: aws.String("tick"), ScheduleExpression: aws.String("rate(5 minutes)"),
		Target: &schedtypes.Target{Arn: aws.String(queue), RoleArn: aws.String(schedulerRole), Input: aws.String(`{"job":"tick"}`)},
	})
	// A failing Lambda target: retried twice, then dead-lettered.
	dlq := "arn:aws:sqs:us-east-1:000000000000:scheduled-dlq"
	emu.AddFault(testkit.Fault{Match: map[string]string{"schedule": "broken"}, Status: 500, Message: "function crashed"})
	create(scheduler.CreateScheduleInput{
		Name: aws.String("broken"), ScheduleExpression: aws.String("at(" + start.Add(10*time.Minute).UTC().Format("2006-01-02T15:04:05") + ")"),
		Target: &schedtypes.Target{Arn: aws.String("arn:aws:lambda:us-east-1:000000000000:function:nightly"), RoleArn: aws.String(schedulerRole),
			Input:            aws.String(`{"job":"broken"}`),
			RetryPolicy:      &schedtypes.RetryPolicy{MaximumRetryAttempts: aws.Int32(2), MaximumEventAgeInSeconds: aws.Int32(3600)},
			DeadLetterConfig: &schedtypes.DeadLetterConfig{Arn: aws.String(dlq)}},
	})

	emu.Advance(59 * time.Minute)
	if n := count("once"); n != 0 {
		t.Fatalf("the at() schedule fired %d times before its time", n)
	}
	emu.Advance(time.Minute)
	if n := count("once"); n != 1 {
		t.Fatalf("the at() schedule fired %d times at its time, want 1", n)
	}
	if n := count("tick"); n < 11 || n > 12 {
		t.Fatalf("rate(5 minutes) fired %d times in an hour", n)
	}
	_, err := sch.GetSchedule(ctx, &scheduler.GetScheduleInput{Name: aws.String("once")})
	if err == nil {
		t.Fatal("ActionAfterCompletion DELETE left the schedule in place")
	}

	if _, err := sch.DeleteSchedule(ctx, &scheduler.DeleteScheduleInput{Name: aws.String("tick")}); err != nil {
		t.Fatal(err)
	}
	ticks := count("tick")
	emu.Advance(2 * time.Hour)
	if n := count("once"); n != 1 {
		t.Fatalf("the at() schedule fired %d times in all", n)
	}
	if n := count("tick"); n != ticks {
		t.Fatalf("the deleted schedule fired %d more times", n-ticks)
	}

	attempts := emu.Deliveries(testkit.Filter{Labels: map[string]string{"schedule": "broken"}})
	if len(attempts) != 3 {
		t.Fatalf("the failing target had %d attempts, want 3", len(attempts))
	}
	msgs := emu.SQSMessages(dlq)
	if len(msgs) != 1 {
		t.Fatalf("%d dead letters", len(msgs))
	}
	attrs := map[string]string{}
	for _, a := range msgs[0].Attributes {
		attrs[a.Name] = a.Value
	}
	if attrs["ERROR_CODE"] != "InternalServerException" || attrs["ERROR_MESSAGE"] != "function crashed" || attrs["RETRY_ATTEMPTS"] != "2" ||
		attrs["SCHEDULE_ARN"] != "arn:aws:scheduler:us-east-1:000000000000:schedule/default/broken" ||
		attrs["TARGET_ARN"] != "arn:aws:lambda:us-east-1:000000000000:function:nightly" || attrs["EXECUTION_ID"] == "" {
		t.Fatalf("dead-letter attributes %v", attrs)
	}
	var body map[string]string
	if err := json.Unmarshal([]byte(msgs[0].Body), &body); err != nil || body["job"] != "broken" {
		t.Fatalf("dead-letter body %q", msgs[0].Body)
	}
}

// TestSchedulerEventBridgeTargetMeetsTheBusRules: an EventBridge target's
// event enters the bus and is routed by its rules.
func TestSchedulerEventBridgeTargetMeetsTheBusRules(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	ctx := context.Background()
	eb := emu.EventBridge()
	queue := "arn:aws:sqs:us-east-1:000000000000:from-bus"
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("nightly"), EventPattern: aws.String(`{"source":["my.scheduler"]}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("nightly"), Targets: []ebtypes.Target{{Id: aws.String("q"), Arn: aws.String(queue)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := emu.Scheduler().CreateSchedule(ctx, &scheduler.CreateScheduleInput{
		Name: aws.String("to-bus"), ScheduleExpression: aws.String("cron(0 2 * * ? *)"), FlexibleTimeWindow: offWindow(),
		Target: &schedtypes.Target{Arn: aws.String("arn:aws:events:us-east-1:000000000000:event-bus/default"), RoleArn: aws.String(schedulerRole),
			Input:                 aws.String(`{"run":"<aws.scheduler.execution-id>"}`),
			EventBridgeParameters: &schedtypes.EventBridgeParameters{Source: aws.String("my.scheduler"), DetailType: aws.String("Nightly")}},
	}); err != nil {
		t.Fatal(err)
	}
	emu.Advance(24 * time.Hour)
	msgs := emu.SQSMessages(queue)
	if len(msgs) != 1 {
		t.Fatalf("%d events reached the rule's queue", len(msgs))
	}
	var env struct {
		Source     string            `json:"source"`
		DetailType string            `json:"detail-type"`
		Resources  []string          `json:"resources"`
		Detail     map[string]string `json:"detail"`
	}
	if err := json.Unmarshal([]byte(msgs[0].Body), &env); err != nil || env.Source != "my.scheduler" || env.DetailType != "Nightly" ||
		env.Detail["run"] == "" || len(env.Resources) != 1 {
		t.Fatalf("event %s (%v)", msgs[0].Body, err)
	}
}

// TestSchedulerRealSQSAgainstBinary: with --sqs-endpoint, a schedule's
// target queue and dead-letter queue are real SQS queues; a target queue
// that does not exist is not retried and its dead letter says what SQS
// says.
func TestSchedulerRealSQSAgainstBinary(t *testing.T) {
	t.Parallel()
	endpoint := testenv.SQSEndpoint(t)
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--sqs-endpoint", endpoint)
	emu := testkit.Connect(t, proc.Endpoints["http"], testkit.WithProbation())
	ctx := context.Background()
	q := newSQS(t, endpoint)
	jobs, dlq := q.create(t, "sched-jobs"), q.create(t, "sched-dlq")
	missing := jobs.arn + "-never-created"
	sch := emu.Scheduler()
	for name, arn := range map[string]string{"to-jobs": jobs.arn, "to-missing": missing} {
		if _, err := sch.CreateSchedule(ctx, &scheduler.CreateScheduleInput{
			Name: aws.String(name), ScheduleExpression: aws.String("rate(1 minute)"), FlexibleTimeWindow: offWindow(),
			Target: &schedtypes.Target{Arn: aws.String(arn), RoleArn: aws.String(schedulerRole), Input: aws.String(`{"n":"<aws.scheduler.attempt-number>"}`),
				DeadLetterConfig: &schedtypes.DeadLetterConfig{Arn: aws.String(dlq.arn)}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	emu.Advance(time.Minute)
	if got := q.receive(t, jobs, 1); *got[0].Body != `{"n":"1"}` {
		t.Fatalf("target message %q", *got[0].Body)
	}
	dead := q.receive(t, dlq, 1)
	attrs := map[string]string{}
	for k, v := range dead[0].MessageAttributes {
		attrs[k] = aws.ToString(v.StringValue)
	}
	if attrs["ERROR_CODE"] != "AWS.SimpleQueueService.NonExistentQueue" || attrs["ERROR_MESSAGE"] != "The specified queue does not exist." ||
		attrs["RETRY_ATTEMPTS"] != "0" || attrs["TARGET_ARN"] != missing ||
		attrs["SCHEDULE_ARN"] != "arn:aws:scheduler:us-east-1:000000000000:schedule/default/to-missing" {
		t.Fatalf("dead-letter attributes %v", attrs)
	}
}

// TestSchedulerCrossAccountBusTarget: a schedule's event bus target in
// another account is refused (AccessDeniedException, not retried, into the
// DLQ) until that bus's policy lets the schedule's account in.
func TestSchedulerCrossAccountBusTarget(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	ctx := context.Background()
	cfg := emu.AWSConfig()
	cfg.Credentials = credentials.NewStaticCredentialsProvider("111122223333", "secret", "")
	other := eventbridge.NewFromConfig(cfg)
	inbox := "arn:aws:sqs:us-east-1:111122223333:inbox"
	dlq := "arn:aws:sqs:us-east-1:000000000000:sched-dlq"
	if _, err := other.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("in"), EventPattern: aws.String(`{"source":["my.scheduler"]}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("in"), Targets: []ebtypes.Target{{Id: aws.String("q"), Arn: aws.String(inbox)}}}); err != nil {
		t.Fatal(err)
	}
	create := func(name string) {
		t.Helper()
		if _, err := emu.Scheduler().CreateSchedule(ctx, &scheduler.CreateScheduleInput{
			Name: aws.String(name), ScheduleExpression: aws.String("at(2020-01-01T00:00:00)"), FlexibleTimeWindow: offWindow(),
			Target: &schedtypes.Target{Arn: aws.String("arn:aws:events:us-east-1:111122223333:event-bus/default"), RoleArn: aws.String(schedulerRole),
				EventBridgeParameters: &schedtypes.EventBridgeParameters{Source: aws.String("my.scheduler"), DetailType: aws.String("Tick")},
				DeadLetterConfig:      &schedtypes.DeadLetterConfig{Arn: aws.String(dlq)}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	create("refused")
	emu.Settle()
	dead := emu.SQSMessages(dlq)
	if len(dead) != 1 {
		t.Fatalf("%d dead letters, want 1", len(dead))
	}
	for _, a := range dead[0].Attributes {
		if (a.Name == "ERROR_CODE" && a.Value != "AccessDeniedException") || (a.Name == "RETRY_ATTEMPTS" && a.Value != "0") {
			t.Fatalf("dead-letter attributes %+v", dead[0].Attributes)
		}
	}
	if _, err := other.PutPermission(ctx, &eventbridge.PutPermissionInput{
		Action: aws.String("events:PutEvents"), Principal: aws.String(testkit.AWSAccount), StatementId: aws.String("scheduler"),
	}); err != nil {
		t.Fatal(err)
	}
	create("allowed")
	emu.Settle()
	if n := len(emu.SQSMessages(inbox)); n != 1 {
		t.Fatalf("the other account's rule got %d events, want 1", n)
	}
}
