package testkit_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/scheduler"
	"github.com/aws/aws-sdk-go-v2/service/scheduler/types"

	"github.com/gridbridge/gridbridge/testkit"
)

// A schedule driven through testkit: its invocations are found with
// ScheduleFilter, and Reset forgets it and stops it.
func TestSchedulerClientAndReset(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	ctx := context.Background()
	if _, err := emu.Scheduler().CreateSchedule(ctx, &scheduler.CreateScheduleInput{
		Name: aws.String("tick"), ScheduleExpression: aws.String("rate(1 minute)"),
		FlexibleTimeWindow: &types.FlexibleTimeWindow{Mode: types.FlexibleTimeWindowModeOff},
		Target: &types.Target{Arn: aws.String("arn:aws:lambda:us-east-1:000000000000:function:tick"),
			RoleArn: aws.String("arn:aws:iam::000000000000:role/scheduler")},
	}); err != nil {
		t.Fatal(err)
	}
	emu.Advance(3 * time.Minute)
	if n := len(emu.Deliveries(testkit.ScheduleFilter("default", "tick"))); n != 3 {
		t.Fatalf("%d invocations in 3 minutes, want 3", n)
	}
	emu.Reset()
	emu.Advance(3 * time.Minute)
	if n := len(emu.Deliveries(testkit.ScheduleFilter("", "tick"))); n != 0 {
		t.Fatalf("%d invocations after Reset", n)
	}
	if _, err := emu.Scheduler().GetSchedule(ctx, &scheduler.GetScheduleInput{Name: aws.String("tick")}); err == nil {
		t.Fatal("the schedule survived Reset")
	}
}
