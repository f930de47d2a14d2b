package eventbridge_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	gbeb "github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestReset(t *testing.T) {
	h, c := startTest(t)
	must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("b")}))
	must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("tick"), ScheduleExpression: aws.String("rate(1 minute)")}))
	putTargets(t, h, "tick", types.Target{Id: aws.String("q"), Arn: aws.String(queueArn)})
	h.Clock.Advance(time.Minute)
	if len(h.sqs.Messages(queueArn)) != 1 {
		t.Fatal("no scheduled delivery before Reset")
	}
	h.svc.Reset()
	h.Clock.Advance(time.Hour)
	// The queue is SQS's: it keeps what was delivered, and gets no more.
	if n := len(h.sqs.Messages(queueArn)); n != 1 {
		t.Fatalf("%d messages an hour after Reset, want the 1 delivered before it", n)
	}
	if routes := h.Engine.Routes(); len(routes) != 0 {
		t.Fatalf("routes left after Reset: %v", routes)
	}
	_, err := h.client.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{Name: aws.String("b")})
	apiError(t, err, "ResourceNotFoundException", "Event bus b does not exist.")
	must[*ebsdk.DescribeEventBusOutput](t)(h.client.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{}))
}

// TestPutEventsWithEndpointID: with an EndpointId the Go SDK signs with
// SigV4a (no region in the scope); GridBridge still delivers.
func TestPutEventsWithEndpointID(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("q"), Arn: aws.String(queueArn)})
	out := must[*ebsdk.PutEventsOutput](t)(h.client.PutEvents(ctx(t), &ebsdk.PutEventsInput{
		EndpointId: aws.String("abcde.veo"), Entries: []types.PutEventsRequestEntry{entry(`{}`)},
	}))
	h.settle()
	if out.FailedEntryCount != 0 || len(h.sqs.Messages(queueArn)) != 1 {
		t.Fatalf("PutEvents with EndpointId: %+v, %d messages", out, len(h.sqs.Messages(queueArn)))
	}
}

// TestJitterSpreadsRetries: with jitter on, each wait falls in [wait/2, wait).
func TestJitterSpreadsRetries(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(cfg *gbeb.Config, _ *sqs.Config) { cfg.Jitter, cfg.Seed = true, 42 })
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("q"), Arn: aws.String(queueArn), RetryPolicy: &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(4)}})
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"rule": "r"}, Status: 500})
	putEvent(t, h, entry(`{}`))
	h.settle()
	h.Clock.Advance(time.Minute)
	attempts := h.entries(engine.KindAttempt, map[string]string{"rule": "r"})
	if len(attempts) != 5 {
		t.Fatalf("%d attempts", len(attempts))
	}
	for i := 1; i < len(attempts); i++ {
		wait := attempts[i].Time.Sub(attempts[i-1].Time)
		full := time.Second << (i - 1)
		if wait < full/2 || wait >= full {
			t.Errorf("wait before retry %d: %s, want in [%s, %s)", i, wait, full/2, full)
		}
	}
}
