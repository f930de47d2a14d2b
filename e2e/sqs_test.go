package e2e

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// TestEventBridgeFlowEmbeddedSQS runs the whole EventBridge flow with the
// binary as its own SQS server: no --sqs-endpoint, queues created and read
// with aws-sdk-go-v2 against the emulator.
func TestEventBridgeFlowEmbeddedSQS(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter")
	eventBridgeFlow(t, testkit.Connect(t, proc.Endpoints["http"], testkit.WithProbation()), proc.Endpoints["http"])
}

// TestAPIDestinationDeadLetterReadWithSQS is the embedded SQS's acceptance
// path against the built binary: a queue created through the SDK is the
// dead-letter queue of an API destination that fails with no retries
// (EB-3); the dead letter is read with ReceiveMessage, carrying the six
// attributes, and deleted.
func TestAPIDestinationDeadLetterReadWithSQS(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter")
	emu := testkit.Connect(t, proc.Endpoints["http"], testkit.WithProbation())
	hook := fakes.NewWebhook(t, fakes.Always(500))
	q := emu.SQS()
	created, err := q.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("billing-dlq")})
	if err != nil {
		t.Fatal(err)
	}
	dlqURL := aws.ToString(created.QueueUrl)
	attrs, err := q.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: created.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{"QueueArn"}})
	if err != nil {
		t.Fatal(err)
	}
	dlqARN := attrs.Attributes["QueueArn"]

	eb := emu.EventBridge()
	conn, err := eb.CreateConnection(ctx, &eventbridge.CreateConnectionInput{
		Name: aws.String("billing"), AuthorizationType: ebtypes.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &ebtypes.CreateConnectionAuthRequestParameters{ApiKeyAuthParameters: &ebtypes.CreateConnectionApiKeyAuthRequestParameters{
			ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("s3cret")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	dest, err := eb.CreateApiDestination(ctx, &eventbridge.CreateApiDestinationInput{
		Name: aws.String("billing"), ConnectionArn: conn.ConnectionArn, InvocationEndpoint: aws.String(hook.URL()),
		HttpMethod: ebtypes.ApiDestinationHttpMethodPost,
	})
	if err != nil {
		t.Fatal(err)
	}
	rule, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("bill"), EventPattern: aws.String(`{"source":["shop"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("bill"), Targets: []ebtypes.Target{{
		Id: aws.String("api"), Arn: dest.ApiDestinationArn,
		RetryPolicy:      &ebtypes.RetryPolicy{MaximumRetryAttempts: aws.Int32(0)},
		DeadLetterConfig: &ebtypes.DeadLetterConfig{Arn: aws.String(dlqARN)},
	}}}); err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v %v", out, err)
	}
	if out, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
		{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"total":250}`)},
	}}); err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutEvents: %+v %v", out, err)
	}

	dead := emu.ReceiveSQSMessages(dlqURL, 1)
	got := map[string]string{}
	for name, v := range dead[0].MessageAttributes {
		got[name] = aws.ToString(v.StringValue)
	}
	for k, want := range map[string]string{
		"RULE_ARN": aws.ToString(rule.RuleArn), "TARGET_ARN": aws.ToString(dest.ApiDestinationArn),
		"EXHAUSTED_RETRY_CONDITION": "MaximumRetryAttempts", "RETRY_ATTEMPTS": "0",
	} {
		if got[k] != want {
			t.Errorf("DLQ attribute %s = %q, want %q (all: %v)", k, got[k], want, got)
		}
	}
	for _, k := range []string{"ERROR_CODE", "ERROR_MESSAGE"} {
		if got[k] == "" {
			t.Errorf("DLQ attribute %s missing (all: %v)", k, got)
		}
	}
	if dead[0].Attributes["ApproximateReceiveCount"] != "1" {
		t.Errorf("system attributes %v", dead[0].Attributes)
	}
	if _, err := q.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(dlqURL), ReceiptHandle: dead[0].ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	counts, err := q.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(dlqURL), AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameAll}})
	if err != nil || counts.Attributes["ApproximateNumberOfMessages"] != "0" || counts.Attributes["ApproximateNumberOfMessagesNotVisible"] != "0" {
		t.Fatalf("after DeleteMessage: %v, %v", counts.Attributes, err)
	}
}
