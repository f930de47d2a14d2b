package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	schedsdk "github.com/aws/aws-sdk-go-v2/service/scheduler"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// BenchmarkListSchedulesPage is one ListSchedules page of 100 through the
// Go SDK in an account holding n schedules, beside a GetSchedule (the
// baseline: one call that touches one schedule). The schedules are made
// through the operation's own code, not over HTTP, to keep the set-up short.
func BenchmarkListSchedulesPage(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		var svc *Service
		face := facetest.NewAWSFace(b, func(env *facetest.Env) {
			queues := sqs.New(sqs.Config{Clock: env.Clock})
			buses := eventbridge.New(eventbridge.Config{Engine: env.Engine, SQS: queues.Queues()})
			svc = New(Config{Engine: env.Engine, SQS: queues.Queues(), EventBridge: buses, Seed: 7})
			svc.Register(env.Router)
		})
		caller := awsjson.Caller{Account: facetest.AWSAccount, Region: facetest.AWSRegion}
		body := []byte(`{"ScheduleExpression":"rate(1 day)","FlexibleTimeWindow":{"Mode":"OFF"},` +
			`"Target":{"Arn":"arn:aws:sqs:us-east-1:123456789012:q","RoleArn":"arn:aws:iam::123456789012:role/scheduler"}}`)
		for i := range n {
			c := &call{ctx: context.Background(), caller: caller, vars: map[string]string{"Name": fmt.Sprintf("s-%07d", (i*7919)%n)}, body: body}
			if _, err := svc.createSchedule(c); err != nil {
				b.Fatal(err)
			}
		}
		client := schedsdk.NewFromConfig(face.Config(facetest.AWSAccount, facetest.AWSRegion))
		ctx := context.Background()
		b.Run(fmt.Sprintf("list/%d", n), func(b *testing.B) {
			first, err := client.ListSchedules(ctx, &schedsdk.ListSchedulesInput{})
			if err != nil || first.NextToken == nil {
				b.Fatalf("first page: %+v %v", first, err)
			}
			for b.Loop() {
				// A page in the middle of the listing, as a paginator asks.
				out, err := client.ListSchedules(ctx, &schedsdk.ListSchedulesInput{NextToken: first.NextToken})
				if err != nil || len(out.Schedules) != 100 {
					b.Fatalf("page: %d schedules, %v", len(out.Schedules), err)
				}
			}
		})
		b.Run(fmt.Sprintf("get/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := client.GetSchedule(ctx, &schedsdk.GetScheduleInput{Name: aws.String("s-0000001")}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Schedules made and deleted again and again, never listed, leave the
// group's name index no larger than about the group.
func TestNameIndexStaysBoundedWithoutListing(t *testing.T) {
	t.Parallel()
	g := &group{schedules: map[string]*sched{}}
	for i := range 10_000 {
		sc := &sched{name: fmt.Sprintf("s-%d", i%3)}
		g.addLocked(sc)
		g.removeLocked(sc.name)
	}
	if n := len(g.index.added) + len(g.index.sorted); n > 64+3 {
		t.Fatalf("the index holds %d names for a group of %d schedules", n, len(g.schedules))
	}
}
