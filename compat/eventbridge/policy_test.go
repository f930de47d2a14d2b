package eventbridge_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

// A bus's resource policy decides whether another account's PutEvents
// reaches it; the account is the caller's twelve-digit access key.
func TestCrossAccountPutEventsFollowsTheBusPolicy(t *testing.T) {
	h, c := startTest(t)
	queue := "arn:aws:sqs:us-east-1:123456789012:shared"
	must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("shared")}))
	must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("all"), EventBusName: aws.String("shared"), EventPattern: aws.String(`{"source":[{"prefix":""}]}`)}))
	must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("all"), EventBusName: aws.String("shared"),
		Targets: []types.Target{{Id: aws.String("q"), Arn: aws.String(queue)}}}))
	busArn := "arn:aws:events:us-east-1:123456789012:event-bus/shared"
	friend := h.clientFor("111122223333", region)
	stranger := h.clientFor("444455556666", region)

	put := func(client *ebsdk.Client, source string) *ebsdk.PutEventsOutput {
		t.Helper()
		return must[*ebsdk.PutEventsOutput](t)(client.PutEvents(c, &ebsdk.PutEventsInput{Entries: []types.PutEventsRequestEntry{{
			EventBusName: aws.String(busArn), Source: aws.String(source), DetailType: aws.String("T"), Detail: aws.String(`{}`),
		}}}))
	}
	denied := func(out *ebsdk.PutEventsOutput, who string) {
		t.Helper()
		want := "User: arn:aws:iam::" + who + ":root is not authorized to perform: events:PutEvents on resource: " + busArn +
			" because no resource-based policy allows the events:PutEvents action"
		if out.FailedEntryCount != 1 || aws.ToString(out.Entries[0].ErrorCode) != "AccessDeniedException" || aws.ToString(out.Entries[0].ErrorMessage) != want {
			t.Fatalf("entry from %s: %+v", who, out.Entries[0])
		}
	}

	denied(put(friend, "friend.1"), "111122223333") // no policy yet
	if out := put(h.client, "owner"); out.FailedEntryCount != 0 {
		t.Fatalf("the owner's own event failed: %+v", out.Entries[0])
	}
	must[*ebsdk.PutPermissionOutput](t)(h.client.PutPermission(c, &ebsdk.PutPermissionInput{
		EventBusName: aws.String("shared"), Action: aws.String("events:PutEvents"), Principal: aws.String("111122223333"), StatementId: aws.String("friend"),
	}))
	if out := put(friend, "friend.2"); out.FailedEntryCount != 0 {
		t.Fatalf("the allowed account's event failed: %+v", out.Entries[0])
	}
	denied(put(stranger, "stranger"), "444455556666")

	// A whole policy: anyone may put, except the stranger.
	must[*ebsdk.PutPermissionOutput](t)(h.client.PutPermission(c, &ebsdk.PutPermissionInput{EventBusName: aws.String("shared"), Policy: aws.String(`{
		"Version":"2012-10-17","Statement":[
		{"Effect":"Allow","Principal":"*","Action":["events:PutEvents"],"Resource":"arn:aws:events:us-east-1:123456789012:event-bus/*"},
		{"Effect":"Deny","Principal":{"AWS":["arn:aws:iam::444455556666:root"]},"Action":"events:*","Resource":"` + busArn + `"}]}`)}))
	if out := put(h.clientFor("777788889999", region), "anyone"); out.FailedEntryCount != 0 {
		t.Fatalf("an event allowed by Principal * failed: %+v", out.Entries[0])
	}
	denied(put(stranger, "stranger"), "444455556666")

	must[*ebsdk.RemovePermissionOutput](t)(h.client.RemovePermission(c, &ebsdk.RemovePermissionInput{EventBusName: aws.String("shared"), RemoveAllPermissions: true}))
	denied(put(friend, "friend.3"), "111122223333")

	h.settle()
	var sources []string
	for _, m := range h.sqs.Messages(queue) {
		sources = append(sources, string(m.Body))
	}
	if len(sources) != 3 {
		t.Fatalf("the bus's rule got %d events, want the owner's, the friend's and anyone's: %v", len(sources), sources)
	}
}

// A rule target that forwards into another account's bus needs that bus's
// policy to allow the rule's account; otherwise the hop fails with
// NO_PERMISSIONS, is not retried, and reaches the target's dead-letter queue.
func TestCrossAccountBusTargetFollowsThePolicy(t *testing.T) {
	h, c := startTest(t)
	other := h.clientFor("111122223333", region)
	queue := "arn:aws:sqs:us-east-1:111122223333:inbox"
	sharedArn := aws.ToString(must[*ebsdk.CreateEventBusOutput](t)(other.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("shared")})).EventBusArn)
	must[*ebsdk.PutRuleOutput](t)(other.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("in"), EventBusName: aws.String("shared"), EventPattern: aws.String(orderPattern)}))
	must[*ebsdk.PutTargetsOutput](t)(other.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("in"), EventBusName: aws.String("shared"),
		Targets: []types.Target{{Id: aws.String("q"), Arn: aws.String(queue)}}}))
	putRule(t, h, "out", "", orderPattern)
	putTargets(t, h, "out", types.Target{Id: aws.String("hop"), Arn: aws.String(sharedArn), DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}})

	putEvent(t, h, entry(`{"n":1}`))
	h.settle()
	if _, got := h.onlyDeadLetter(); got["ERROR_CODE"] != "NO_PERMISSIONS" || got["RETRY_ATTEMPTS"] != "0" {
		t.Fatalf("hop without a policy: dead letter %v", got)
	}
	if n := len(h.sqs.Messages(queue)); n != 0 {
		t.Fatalf("the other account's rule got %d events without a policy", n)
	}

	must[*ebsdk.PutPermissionOutput](t)(other.PutPermission(c, &ebsdk.PutPermissionInput{
		EventBusName: aws.String("shared"), Action: aws.String("events:PutEvents"), Principal: aws.String(account), StatementId: aws.String("a"),
	}))
	putEvent(t, h, entry(`{"n":2}`))
	h.settle()
	if n := len(h.sqs.Messages(queue)); n != 1 {
		t.Fatalf("with the policy, the other account's rule got %d events, want 1", n)
	}
}
