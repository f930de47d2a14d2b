package scheduler_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	schedsdk "github.com/aws/aws-sdk-go-v2/service/scheduler"
	"github.com/aws/aws-sdk-go-v2/service/scheduler/types"
)

func TestStartAndEndDatesBoundARateSchedule(t *testing.T) {
	h := startTest(t)
	h.create("bounded", schedsdk.CreateScheduleInput{
		ScheduleExpression: aws.String("rate(10 minutes)"), Target: sqsTarget(queue),
		StartDate: aws.Time(t0.Add(time.Hour)), EndDate: aws.Time(t0.Add(90 * time.Minute)),
	})
	h.advance(3 * time.Hour)
	var at []time.Duration
	for _, e := range h.delivered() {
		at = append(at, e.Time.Sub(t0))
	}
	// 13:00, 13:10, 13:20, 13:30: from StartDate through EndDate.
	if len(at) != 4 || at[0] != time.Hour || at[3] != 90*time.Minute {
		t.Fatalf("fired at %v after the start", at)
	}
}

func TestAtFollowsItsTimeZone(t *testing.T) {
	h := startTest(t)
	// 14:00 in Tokyo (UTC+9) is 05:00 UTC the next day.
	h.create("tokyo", schedsdk.CreateScheduleInput{
		ScheduleExpression: aws.String("at(2026-03-02T14:00:00)"), ScheduleExpressionTimezone: aws.String("Asia/Tokyo"),
		Target: sqsTarget(queue),
	})
	h.advance(24 * time.Hour)
	ds := h.delivered()
	if len(ds) != 1 || !ds[0].Time.Equal(time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)) {
		t.Fatalf("deliveries %+v", ds)
	}
}

func TestMissingBusIsNotRetriedAndDeadLettered(t *testing.T) {
	h := startTest(t)
	dlq := "arn:aws:sqs:us-east-1:123456789012:bus-dlq"
	h.create("nobus", schedsdk.CreateScheduleInput{
		ScheduleExpression: aws.String("at(2026-03-01T12:05:00)"),
		Target: &types.Target{Arn: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/gone"), RoleArn: aws.String(role),
			EventBridgeParameters: &types.EventBridgeParameters{DetailType: aws.String("T"), Source: aws.String("s")},
			DeadLetterConfig:      &types.DeadLetterConfig{Arn: aws.String(dlq)}},
	})
	h.advance(time.Hour)
	if n := len(h.attempts(nil)); n != 1 {
		t.Fatalf("%d attempts; a missing bus is not retried", n)
	}
	msgs := h.messages(dlq)
	if len(msgs) != 1 {
		t.Fatalf("%d dead letters", len(msgs))
	}
	for _, a := range msgs[0].Attributes {
		if a.Name == "ERROR_CODE" && a.Value != "ResourceNotFoundException" {
			t.Fatalf("ERROR_CODE %q", a.Value)
		}
	}
}
