package container_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/testkit"
)

func TestEventBridgeRuleToQueue_InProcess(t *testing.T) {
	t.Parallel()
	eventBridgeRuleToQueue(t, testkit.Start(t))
}

func TestEventBridgeRuleToQueue_Container(t *testing.T) {
	t.Parallel()
	eventBridgeRuleToQueue(t, runContainer(t).Emulator(t))
}

// eventBridgeRuleToQueue: a rule on a custom bus sends matching events to
// an SQS queue, which stays in GridBridge's memory (no SQS server), and a
// failing target's events end in its dead-letter queue after its retries.
func eventBridgeRuleToQueue(t *testing.T, emu *testkit.Emulator) {
	ctx := context.Background()
	eb := emu.EventBridge()
	queue := "arn:aws:sqs:us-east-1:000000000000:big-orders"
	dlq := "arn:aws:sqs:us-east-1:000000000000:billing-dlq"
	if _, err := eb.CreateEventBus(ctx, &eventbridge.CreateEventBusInput{Name: aws.String("shop")}); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{EventBusName: aws.String("shop"), Name: aws.String("big-orders"),
		EventPattern: aws.String(`{"source":["shop.orders"],"detail":{"total":[{"numeric":[">=",1000]}]}}`)}); err != nil {
		t.Fatal(err)
	}
	out, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{EventBusName: aws.String("shop"), Rule: aws.String("big-orders"),
		Targets: []ebtypes.Target{
			{Id: aws.String("review"), Arn: aws.String(queue)},
			{Id: aws.String("billing"), Arn: aws.String("arn:aws:lambda:us-east-1:000000000000:function:billing"),
				RetryPolicy:      &ebtypes.RetryPolicy{MaximumRetryAttempts: aws.Int32(2)},
				DeadLetterConfig: &ebtypes.DeadLetterConfig{Arn: aws.String(dlq)}},
		}})
	if err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v, %v", out, err)
	}
	emu.FailDeliveries(testkit.Filter{Rule: "big-orders", Target: "billing"}, 500, 0)

	put, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
		{EventBusName: aws.String("shop"), Source: aws.String("shop.orders"), DetailType: aws.String("Orders.Placed"), Detail: aws.String(`{"total":2500}`)},
		{EventBusName: aws.String("shop"), Source: aws.String("shop.orders"), DetailType: aws.String("Orders.Placed"), Detail: aws.String(`{"total":12}`)},
	}})
	if err != nil || put.FailedEntryCount != 0 {
		t.Fatalf("PutEvents: %+v, %v", put, err)
	}
	emu.WaitForDeliveries(testkit.Filter{Rule: "big-orders", Target: "review", Outcome: "Success"}, 1)
	emu.Advance(time.Hour) // the billing target's two retries

	var envelope struct {
		ID     string         `json:"id"`
		Detail map[string]int `json:"detail"`
	}
	review := emu.SQSMessages(queue)
	if len(review) != 1 || json.Unmarshal(review[0].Body, &envelope) != nil ||
		envelope.ID != *put.Entries[0].EventId || envelope.Detail["total"] != 2500 {
		t.Fatalf("review queue %+v, want the 2500 order only", review)
	}
	dead := emu.SQSMessages(dlq)
	if len(dead) != 1 {
		t.Fatalf("dead-letter queue %+v, want one message", dead)
	}
	attrs := map[string]string{}
	for _, a := range dead[0].Attributes {
		attrs[a.Name] = a.Value
	}
	if attrs["EXHAUSTED_RETRY_CONDITION"] != "MaximumRetryAttempts" || attrs["RETRY_ATTEMPTS"] != "2" {
		t.Errorf("dead letter attributes %v", attrs)
	}
}
