package eventbridge_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

func TestScheduledRuleFiresOnTheClock(t *testing.T) {
	h, c := startTest(t)
	ruleArn := aws.ToString(must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{
		Name: aws.String("tick"), ScheduleExpression: aws.String("rate(1 minute)"),
	})).RuleArn)
	putTargets(t, h, "tick", types.Target{Id: aws.String("q"), Arn: aws.String(queueArn)})
	must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{
		Name: aws.String("quarter"), ScheduleExpression: aws.String("cron(0/15 * * * ? *)"),
	}))
	quarterQueue := "arn:aws:sqs:us-east-1:123456789012:quarter"
	putTargets(t, h, "quarter", types.Target{Id: aws.String("q"), Arn: aws.String(quarterQueue)})

	h.Clock.Advance(time.Hour)
	msgs := h.sqs.Messages(queueArn)
	if len(msgs) != 60 {
		t.Fatalf("rate(1 minute) over an hour: %d deliveries, want 60", len(msgs))
	}
	for i, m := range msgs {
		var ev struct {
			DetailType string          `json:"detail-type"`
			Source     string          `json:"source"`
			Account    string          `json:"account"`
			Time       string          `json:"time"`
			Region     string          `json:"region"`
			Resources  []string        `json:"resources"`
			Detail     json.RawMessage `json:"detail"`
		}
		if err := json.Unmarshal(m.Body, &ev); err != nil {
			t.Fatal(err)
		}
		want := t0.Add(time.Duration(i+1) * time.Minute).Format("2006-01-02T15:04:05Z")
		if ev.DetailType != "Scheduled Event" || ev.Source != "aws.events" || ev.Account != account || ev.Region != region ||
			ev.Time != want || len(ev.Resources) != 1 || ev.Resources[0] != ruleArn || string(ev.Detail) != "{}" {
			t.Fatalf("event %d: %s (want time %s)", i, m.Body, want)
		}
	}
	if n := len(h.sqs.Messages(quarterQueue)); n != 4 {
		t.Fatalf("cron(0/15 * * * ? *) over an hour: %d deliveries, want 4", n)
	}

	// A disabled rule stops firing; enabled again, it resumes.
	must[*ebsdk.DisableRuleOutput](t)(h.client.DisableRule(c, &ebsdk.DisableRuleInput{Name: aws.String("tick")}))
	h.Clock.Advance(10 * time.Minute)
	if n := len(h.sqs.Messages(queueArn)); n != 60 {
		t.Fatalf("disabled rule fired: %d", n)
	}
	must[*ebsdk.EnableRuleOutput](t)(h.client.EnableRule(c, &ebsdk.EnableRuleInput{Name: aws.String("tick")}))
	h.Clock.Advance(5 * time.Minute)
	if n := len(h.sqs.Messages(queueArn)); n != 65 {
		t.Fatalf("re-enabled rule: %d deliveries, want 65", n)
	}
	// A deleted rule never fires again.
	must[*ebsdk.RemoveTargetsOutput](t)(h.client.RemoveTargets(c, &ebsdk.RemoveTargetsInput{Rule: aws.String("tick"), Ids: []string{"q"}}))
	must[*ebsdk.DeleteRuleOutput](t)(h.client.DeleteRule(c, &ebsdk.DeleteRuleInput{Name: aws.String("tick")}))
	h.Clock.Advance(5 * time.Minute)
	if n := len(h.sqs.Messages(queueArn)); n != 65 {
		t.Fatalf("deleted rule fired: %d", n)
	}
}

// TestScheduledEventsAreNotMatchedByOtherRules: a scheduled event goes to
// its own rule's targets only.
func TestScheduledEventsAreNotMatchedByOtherRules(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(ctx(t), &ebsdk.PutRuleInput{Name: aws.String("tick"), ScheduleExpression: aws.String("rate(1 hour)")}))
	putRule(t, h, "all-aws", "", `{"source":["aws.events"]}`)
	putTargets(t, h, "all-aws", types.Target{Id: aws.String("q"), Arn: aws.String(queueArn)})
	h.Clock.Advance(2 * time.Hour)
	if n := len(h.sqs.Messages(queueArn)); n != 0 {
		t.Fatalf("a pattern rule received %d scheduled events", n)
	}
}
