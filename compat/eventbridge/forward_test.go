package eventbridge_test

import (
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// TestBusToBusWithLoopProtection: default forwards to "orders", which
// delivers to a queue and forwards back to default. The event does not
// enter default a second time: that hop fails as LOOP_DETECTED, is not
// retried, and reaches the target's dead-letter queue.
func TestBusToBusWithLoopProtection(t *testing.T) {
	h, c := startTest(t)
	defaultArn := "arn:aws:events:us-east-1:123456789012:event-bus/default"
	ordersArn := aws.ToString(must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("orders")})).EventBusArn)

	putRule(t, h, "to-orders", "", orderPattern)
	putTargets(t, h, "to-orders", types.Target{Id: aws.String("bus"), Arn: aws.String(ordersArn)})
	putRule(t, h, "on-orders", "orders", orderPattern)
	must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("on-orders"), EventBusName: aws.String("orders"), Targets: []types.Target{
		{Id: aws.String("q"), Arn: aws.String(queueArn)},
		{Id: aws.String("back"), Arn: aws.String(defaultArn), DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}},
	}}))

	id := putEvent(t, h, entry(`{"n":1}`))
	h.settle()

	msgs := h.sqs.Messages(queueArn)
	if len(msgs) != 1 {
		t.Fatalf("orders bus delivered %d messages, want 1", len(msgs))
	}
	var ev map[string]any
	_ = json.Unmarshal(msgs[0].Body, &ev)
	if ev["id"] != id || ev["source"] != "shop.orders" {
		t.Fatalf("forwarded event: %s", msgs[0].Body)
	}
	pubs := h.entries(engine.KindPublish, map[string]string{"bus": "default"})
	if len(pubs) != 1 {
		t.Fatalf("the event entered default %d times", len(pubs))
	}
	if n := len(h.entries(engine.KindPublish, map[string]string{"bus": "orders"})); n != 1 {
		t.Fatalf("the event entered orders %d times", n)
	}
	if _, got := h.onlyDeadLetter(); got["ERROR_CODE"] != "LOOP_DETECTED" {
		t.Fatalf("loop DLQ: %v", got)
	}
}

func TestForwardToMissingBus(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("bus"), Arn: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/gone"),
		DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}})
	putEvent(t, h, entry(`{}`))
	h.settle()
	if _, got := h.onlyDeadLetter(); got["ERROR_CODE"] != "NO_RESOURCE" {
		t.Fatalf("DLQ: %v", got)
	}
}

// TestCapturedTargetIsJournalled: a Lambda target is not called; the journal
// records the input it would have received.
func TestCapturedTargetIsJournalled(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	fn := "arn:aws:lambda:us-east-1:123456789012:function:f"
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("fn"), Arn: aws.String(fn), Input: aws.String(`{"hello":"lambda"}`)})
	putEvent(t, h, entry(`{}`))
	h.settle()
	attempts := h.entries(engine.KindAttempt, map[string]string{"target": "fn"})
	if len(attempts) != 1 || attempts[0].Request == nil || string(attempts[0].Request.Body) != `{"hello":"lambda"}` ||
		attempts[0].Destination != fn || attempts[0].Outcome != "Success" {
		t.Fatalf("attempt: %+v", attempts)
	}
}
