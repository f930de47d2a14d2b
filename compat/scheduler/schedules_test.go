package scheduler_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	schedsdk "github.com/aws/aws-sdk-go-v2/service/scheduler"
	"github.com/aws/aws-sdk-go-v2/service/scheduler/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

const queue = "arn:aws:sqs:us-east-1:123456789012:jobs"

func TestAtScheduleFiresOnceWhenTheClockPassesIt(t *testing.T) {
	h := startTest(t)
	at := t0.Add(time.Hour)
	h.create("once", schedsdk.CreateScheduleInput{
		ScheduleExpression: aws.String("at(" + at.Format("2006-01-02T15:04:05") + ")"),
		Target: &types.Target{Arn: aws.String(queue), RoleArn: aws.String(role),
			Input: aws.String(`{"at":"<aws.scheduler.scheduled-time>","id":"<aws.scheduler.execution-id>","n":<aws.scheduler.attempt-number>,"arn":"<aws.scheduler.schedule-arn>"}`)},
	})
	h.advance(59*time.Minute + 59*time.Second)
	if n := len(h.messages(queue)); n != 0 {
		t.Fatalf("%d messages before the time", n)
	}
	h.advance(2 * time.Second)
	h.advance(24 * time.Hour)
	msgs := h.messages(queue)
	if len(msgs) != 1 {
		t.Fatalf("got %d messages, want 1", len(msgs))
	}
	var body map[string]any
	if err := json.Unmarshal(msgs[0].Body, &body); err != nil {
		t.Fatalf("body %s: %v", msgs[0].Body, err)
	}
	// The execution id is the id the journal knows the invocation by.
	delivered := h.delivered()
	if len(delivered) != 1 {
		t.Fatalf("%d deliveries journalled, want 1", len(delivered))
	}
	if body["at"] != "2026-03-01T13:00:00Z" || body["n"] != 1.0 || body["id"] != delivered[0].EventIDs[0] ||
		body["arn"] != "arn:aws:scheduler:us-east-1:123456789012:schedule/default/once" {
		t.Errorf("context attributes not filled in: %s", msgs[0].Body)
	}
	// Still there: ActionAfterCompletion defaults to NONE.
	got, err := h.client.GetSchedule(ctx(t), &schedsdk.GetScheduleInput{Name: aws.String("once")})
	if err != nil || got.ActionAfterCompletion != types.ActionAfterCompletionNone || got.State != types.ScheduleStateEnabled {
		t.Fatalf("GetSchedule after the run: %+v, %v", got, err)
	}
}

func TestRateScheduleFiresEveryPeriodUntilDeleted(t *testing.T) {
	h := startTest(t)
	h.create("tick", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(5 minutes)"), Target: sqsTarget(queue)})
	h.advance(time.Hour)
	if n := len(h.messages(queue)); n < 11 || n > 12 {
		t.Fatalf("rate(5 minutes) fired %d times in an hour", n)
	}
	before := len(h.messages(queue))
	if _, err := h.client.DeleteSchedule(ctx(t), &schedsdk.DeleteScheduleInput{Name: aws.String("tick")}); err != nil {
		t.Fatal(err)
	}
	h.advance(time.Hour)
	if n := len(h.messages(queue)); n != before {
		t.Fatalf("a deleted schedule fired %d more times", n-before)
	}
	_, err := h.client.GetSchedule(ctx(t), &schedsdk.GetScheduleInput{Name: aws.String("tick")})
	apiError(t, err, "ResourceNotFoundException", "Schedule tick does not exist.")
}

func TestCronFollowsTheTimeZoneAcrossDaylightSaving(t *testing.T) {
	h := startTest(t) // 2026-03-01; US clocks spring forward on 2026-03-08
	h.create("nine", schedsdk.CreateScheduleInput{
		ScheduleExpression: aws.String("cron(0 9 * * ? *)"), ScheduleExpressionTimezone: aws.String("America/New_York"),
		Target: sqsTarget(queue),
	})
	h.advance(10 * 24 * time.Hour)
	var hours []int
	for _, e := range h.delivered() {
		hours = append(hours, e.Time.UTC().Hour())
	}
	// 09:00 EST is 14:00 UTC until the 8th; 09:00 EDT is 13:00 UTC after.
	want := []int{14, 14, 14, 14, 14, 14, 14, 13, 13, 13}
	if len(hours) != len(want) {
		t.Fatalf("fired at UTC hours %v, want %v", hours, want)
	}
	for i := range want {
		if hours[i] != want[i] {
			t.Fatalf("fired at UTC hours %v, want %v", hours, want)
		}
	}
}

func TestFlexibleWindowPlacesTheInvocationInsideTheWindow(t *testing.T) {
	h := startTest(t)
	h.create("flex", schedsdk.CreateScheduleInput{
		ScheduleExpression: aws.String("at(2026-03-01T13:00:00)"),
		FlexibleTimeWindow: &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeFlexible, MaximumWindowInMinutes: aws.Int32(15)},
		Target:             sqsTarget(queue),
	})
	h.advance(2 * time.Hour)
	ds := h.delivered()
	if len(ds) != 1 {
		t.Fatalf("%d deliveries", len(ds))
	}
	at := t0.Add(time.Hour)
	if ds[0].Time.Before(at) || !ds[0].Time.Before(at.Add(15*time.Minute)) {
		t.Fatalf("delivered at %s, outside [13:00, 13:15)", ds[0].Time)
	}
}

func TestActionAfterCompletionDeleteRemovesTheSchedule(t *testing.T) {
	h := startTest(t)
	h.create("bye", schedsdk.CreateScheduleInput{
		ScheduleExpression: aws.String("at(2026-03-01T12:30:00)"), ActionAfterCompletion: types.ActionAfterCompletionDelete,
		Target: sqsTarget(queue),
	})
	if _, err := h.client.GetSchedule(ctx(t), &schedsdk.GetScheduleInput{Name: aws.String("bye")}); err != nil {
		t.Fatal(err)
	}
	h.advance(31 * time.Minute)
	if n := len(h.messages(queue)); n != 1 {
		t.Fatalf("%d messages", n)
	}
	_, err := h.client.GetSchedule(ctx(t), &schedsdk.GetScheduleInput{Name: aws.String("bye")})
	apiError(t, err, "ResourceNotFoundException", "")
}

func TestFailingTargetIsRetriedThenDeadLettered(t *testing.T) {
	h := startTest(t)
	dlq := "arn:aws:sqs:us-east-1:123456789012:dlq"
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"schedule": "lambda"}, Status: 503})
	target := &types.Target{
		Arn: aws.String("arn:aws:lambda:us-east-1:123456789012:function:work"), RoleArn: aws.String(role),
		Input:            aws.String(`{"try":<aws.scheduler.attempt-number>}`),
		RetryPolicy:      &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(2), MaximumEventAgeInSeconds: aws.Int32(3600)},
		DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlq)},
	}
	h.create("lambda", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("at(2026-03-01T12:10:00)"), Target: target})
	h.advance(10 * time.Minute)
	h.advance(time.Minute)
	attempts := h.attempts(map[string]string{"schedule": "lambda"})
	if len(attempts) != 3 {
		t.Fatalf("%d attempts, want 1 + 2 retries", len(attempts))
	}
	msgs := h.messages(dlq)
	if len(msgs) != 1 {
		t.Fatalf("%d dead letters", len(msgs))
	}
	attrs := map[string]string{}
	for _, a := range msgs[0].Attributes {
		attrs[a.Name] = a.Value
	}
	want := map[string]string{
		"ERROR_CODE": "InternalServerException", "EXECUTION_ID": attempts[0].EventIDs[0], "RETRY_ATTEMPTS": "2",
		"SCHEDULE_ARN": "arn:aws:scheduler:us-east-1:123456789012:schedule/default/lambda",
		"TARGET_ARN":   "arn:aws:lambda:us-east-1:123456789012:function:work", "EXHAUSTED_RETRY_CONDITION": "MaximumRetryAttempts",
	}
	for k, v := range want {
		if attrs[k] != v {
			t.Errorf("%s = %q, want %q (all: %v)", k, attrs[k], v, attrs)
		}
	}
	if attrs["ERROR_MESSAGE"] == "" || string(msgs[0].Body) != `{"try":3}` {
		t.Errorf("dead letter body %s, attributes %v", msgs[0].Body, attrs)
	}
}

func TestEventBridgeTargetPutsTheEventOnTheBus(t *testing.T) {
	h := startTest(t)
	c := ctx(t)
	bus := aws.ToString(facetest.Must[*ebsdk.CreateEventBusOutput](t)(h.events.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("orders")})).EventBusArn)
	if _, err := h.events.PutRule(c, &ebsdk.PutRuleInput{
		Name: aws.String("ticks"), EventBusName: aws.String("orders"), EventPattern: aws.String(`{"source":["my.app"]}`),
	}); err != nil {
		t.Fatal(err)
	}
	matched := "arn:aws:sqs:us-east-1:123456789012:ticks"
	if _, err := h.events.PutTargets(c, &ebsdk.PutTargetsInput{
		Rule: aws.String("ticks"), EventBusName: aws.String("orders"),
		Targets: []ebtypes.Target{{Id: aws.String("q"), Arn: aws.String(matched)}},
	}); err != nil {
		t.Fatal(err)
	}
	h.create("ev", schedsdk.CreateScheduleInput{
		ScheduleExpression: aws.String("rate(1 hour)"),
		Target: &types.Target{Arn: aws.String(bus), RoleArn: aws.String(role), Input: aws.String(`{"kind":"nightly"}`),
			EventBridgeParameters: &types.EventBridgeParameters{DetailType: aws.String("Tick"), Source: aws.String("my.app")}},
	})
	h.advance(time.Hour)
	msgs := h.messages(matched)
	if len(msgs) != 1 {
		t.Fatalf("the bus's rule sent %d messages, want 1", len(msgs))
	}
	var ev struct {
		Source     string          `json:"source"`
		DetailType string          `json:"detail-type"`
		Account    string          `json:"account"`
		Time       time.Time       `json:"time"`
		Resources  []string        `json:"resources"`
		Detail     json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(msgs[0].Body, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Source != "my.app" || ev.DetailType != "Tick" || string(ev.Detail) != `{"kind":"nightly"}` || ev.Account != account ||
		!ev.Time.Equal(t0.Add(time.Hour)) || len(ev.Resources) != 1 || !strings.HasSuffix(ev.Resources[0], "schedule/default/ev") {
		t.Fatalf("event on the bus: %s", msgs[0].Body)
	}
}

func TestScheduleGroupsAndTags(t *testing.T) {
	h := startTest(t)
	c := ctx(t)
	got, err := h.client.GetScheduleGroup(c, &schedsdk.GetScheduleGroupInput{Name: aws.String("default")})
	if err != nil || *got.Arn != "arn:aws:scheduler:us-east-1:123456789012:schedule-group/default" || got.State != types.ScheduleGroupStateActive {
		t.Fatalf("default group: %+v %v", got, err)
	}
	created, err := h.client.CreateScheduleGroup(c, &schedsdk.CreateScheduleGroupInput{
		Name: aws.String("team"), Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("dev")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.client.CreateScheduleGroup(c, &schedsdk.CreateScheduleGroupInput{Name: aws.String("team")})
	apiError(t, err, "ConflictException", "Schedule group team already exists.")
	if _, err := h.client.TagResource(c, &schedsdk.TagResourceInput{ResourceArn: created.ScheduleGroupArn,
		Tags: []types.Tag{{Key: aws.String("owner"), Value: aws.String("me")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.UntagResource(c, &schedsdk.UntagResourceInput{ResourceArn: created.ScheduleGroupArn, TagKeys: []string{"env"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := h.client.ListTagsForResource(c, &schedsdk.ListTagsForResourceInput{ResourceArn: created.ScheduleGroupArn})
	if err != nil || len(tags.Tags) != 1 || *tags.Tags[0].Key != "owner" {
		t.Fatalf("tags %+v %v", tags, err)
	}

	h.create("a1", schedsdk.CreateScheduleInput{GroupName: aws.String("team"), ScheduleExpression: aws.String("rate(1 hour)"), Target: sqsTarget(queue)})
	h.create("a2", schedsdk.CreateScheduleInput{GroupName: aws.String("team"), ScheduleExpression: aws.String("rate(1 hour)"), Target: sqsTarget(queue), State: types.ScheduleStateDisabled})
	h.create("b1", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(1 hour)"), Target: sqsTarget(queue)})
	var names []string
	p := schedsdk.NewListSchedulesPaginator(h.client, &schedsdk.ListSchedulesInput{MaxResults: aws.Int32(1)})
	for p.HasMorePages() {
		page, err := p.NextPage(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range page.Schedules {
			names = append(names, *s.GroupName+"/"+*s.Name)
		}
	}
	if strings.Join(names, ",") != "default/b1,team/a1,team/a2" {
		t.Fatalf("listed %v", names)
	}
	filtered, err := h.client.ListSchedules(c, &schedsdk.ListSchedulesInput{GroupName: aws.String("team"), NamePrefix: aws.String("a"), State: types.ScheduleStateEnabled})
	if err != nil || len(filtered.Schedules) != 1 || *filtered.Schedules[0].Name != "a1" {
		t.Fatalf("filtered %+v %v", filtered, err)
	}
	groups, err := h.client.ListScheduleGroups(c, &schedsdk.ListScheduleGroupsInput{})
	if err != nil || len(groups.ScheduleGroups) != 2 {
		t.Fatalf("groups %+v %v", groups, err)
	}

	_, err = h.client.DeleteScheduleGroup(c, &schedsdk.DeleteScheduleGroupInput{Name: aws.String("default")})
	apiError(t, err, "ValidationException", "")
	if _, err := h.client.DeleteScheduleGroup(c, &schedsdk.DeleteScheduleGroupInput{Name: aws.String("team")}); err != nil {
		t.Fatal(err)
	}
	_, err = h.client.GetSchedule(c, &schedsdk.GetScheduleInput{Name: aws.String("a1"), GroupName: aws.String("team")})
	apiError(t, err, "ResourceNotFoundException", "Schedule group team does not exist.")
}

func TestUpdateScheduleReplacesItAndValidates(t *testing.T) {
	h := startTest(t)
	c := ctx(t)
	h.create("u", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(1 minute)"), Target: sqsTarget(queue)})
	_, err := h.client.CreateSchedule(c, &schedsdk.CreateScheduleInput{Name: aws.String("u"), ScheduleExpression: aws.String("rate(1 minute)"),
		FlexibleTimeWindow: &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeOff}, Target: sqsTarget(queue)})
	apiError(t, err, "ConflictException", "Schedule u already exists.")
	if _, err := h.client.UpdateSchedule(c, &schedsdk.UpdateScheduleInput{Name: aws.String("u"), ScheduleExpression: aws.String("rate(1 minute)"),
		FlexibleTimeWindow: &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeOff}, Target: sqsTarget(queue), State: types.ScheduleStateDisabled}); err != nil {
		t.Fatal(err)
	}
	h.advance(10 * time.Minute)
	if n := len(h.messages(queue)); n != 0 {
		t.Fatalf("a disabled schedule fired %d times", n)
	}
	_, err = h.client.UpdateSchedule(c, &schedsdk.UpdateScheduleInput{Name: aws.String("nope"), ScheduleExpression: aws.String("rate(1 minute)"),
		FlexibleTimeWindow: &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeOff}, Target: sqsTarget(queue)})
	apiError(t, err, "ResourceNotFoundException", "Schedule nope does not exist.")

	bad := []struct {
		name string
		in   schedsdk.CreateScheduleInput
		msg  string
	}{
		{"expr", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(5 fortnights)")}, "Invalid Schedule Expression rate(5 fortnights)."},
		{"tab", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(1\tminute)")}, "Invalid Schedule Expression rate(1\tminute)."},
		{"year0", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("at(0000-01-01T00:00:00)")}, "Invalid Schedule Expression at(0000-01-01T00:00:00)."},
		{"frac", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("at(2026-01-01T00:00:00.5)")}, "Invalid Schedule Expression at(2026-01-01T00:00:00.5)."},
		{"cronsp", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("cron(0  20 * * ? *)")}, "Invalid Schedule Expression cron(0  20 * * ? *)."},
		{"zone", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(5 minutes)"), ScheduleExpressionTimezone: aws.String("Mars/Olympus")}, "Invalid time zone: Mars/Olympus."},
		{"retries", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(5 minutes)"), Target: &types.Target{Arn: aws.String(queue), RoleArn: aws.String(role),
			RetryPolicy: &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(186)}}}, ""},
		{"age", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(5 minutes)"), Target: &types.Target{Arn: aws.String(queue), RoleArn: aws.String(role),
			RetryPolicy: &types.RetryPolicy{MaximumEventAgeInSeconds: aws.Int32(59)}}}, ""},
		{"window", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(5 minutes)"),
			FlexibleTimeWindow: &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeFlexible}}, ""},
		{"role", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(5 minutes)"), Target: &types.Target{Arn: aws.String(queue), RoleArn: aws.String("nope")}}, ""},
		{"end", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(5 minutes)"), EndDate: aws.Time(t0.Add(-time.Hour))}, ""},
		{"bad name!", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(5 minutes)")}, ""},
	}
	for _, b := range bad {
		in := b.in
		in.Name = aws.String(b.name)
		if in.Target == nil {
			in.Target = sqsTarget(queue)
		}
		if in.FlexibleTimeWindow == nil {
			in.FlexibleTimeWindow = &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeOff}
		}
		_, err := h.client.CreateSchedule(c, &in)
		apiError(t, err, "ValidationException", b.msg)
	}
	_, err = h.client.CreateSchedule(c, &schedsdk.CreateScheduleInput{Name: aws.String("g"), GroupName: aws.String("missing"),
		ScheduleExpression: aws.String("rate(1 minute)"), FlexibleTimeWindow: &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeOff}, Target: sqsTarget(queue)})
	apiError(t, err, "ResourceNotFoundException", "Schedule group missing does not exist.")
}

func TestRawRequestsGetRestJSONErrors(t *testing.T) {
	h := startTest(t)
	req, _ := http.NewRequest(http.MethodPost, h.Server.URL+"/schedules/x", strings.NewReader(`{"ScheduleExpression":`))
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 || resp.Header.Get("X-Amzn-ErrorType") != "ValidationException" {
		t.Fatalf("bad JSON: %d %s", resp.StatusCode, resp.Header.Get("X-Amzn-ErrorType"))
	}
	req, _ = http.NewRequest(http.MethodPost, h.Server.URL+"/schedules/x", strings.NewReader(`{"ScheduleExpression":"rate(1 minute)","Target":{"Arn":"`+queue+`","RoleArn":"`+role+`"}}`))
	resp, err = h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(body["Message"], "flexibleTimeWindow") {
		t.Fatalf("missing FlexibleTimeWindow: %d %v", resp.StatusCode, body)
	}
}
