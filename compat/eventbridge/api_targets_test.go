package eventbridge_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

const queueArn = "arn:aws:sqs:us-east-1:123456789012:orders"

func putRule(t testing.TB, h *harness, name, bus, pattern string) string {
	t.Helper()
	in := &ebsdk.PutRuleInput{Name: aws.String(name), EventPattern: aws.String(pattern)}
	if bus != "" {
		in.EventBusName = aws.String(bus)
	}
	return aws.ToString(must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(ctx(t), in)).RuleArn)
}

func TestTargetsLifecycle(t *testing.T) {
	h, c := startTest(t)
	putRule(t, h, "r1", "", orderPattern)
	putRule(t, h, "r2", "", orderPattern)

	out := must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("r1"), Targets: []types.Target{
		{Id: aws.String("q"), Arn: aws.String(queueArn), InputPath: aws.String("$.detail"),
			RetryPolicy:      &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(0), MaximumEventAgeInSeconds: aws.Int32(60)},
			DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String("arn:aws:sqs:us-east-1:123456789012:dlq")}},
		{Id: aws.String("fn"), Arn: aws.String("arn:aws:lambda:us-east-1:123456789012:function:f")},
		{Id: aws.String("s3"), Arn: aws.String("arn:aws:s3:::bucket")},
	}}))
	if out.FailedEntryCount != 1 || len(out.FailedEntries) != 1 || aws.ToString(out.FailedEntries[0].TargetId) != "s3" ||
		aws.ToString(out.FailedEntries[0].ErrorCode) != "ValidationException" {
		t.Fatalf("PutTargets result: %+v", out)
	}
	must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("r2"), Targets: []types.Target{
		{Id: aws.String("q"), Arn: aws.String(queueArn)},
	}}))

	list := must[*ebsdk.ListTargetsByRuleOutput](t)(h.client.ListTargetsByRule(c, &ebsdk.ListTargetsByRuleInput{Rule: aws.String("r1")}))
	if len(list.Targets) != 2 {
		t.Fatalf("ListTargetsByRule: %+v", list.Targets)
	}
	fn, q := list.Targets[0], list.Targets[1]
	if aws.ToString(fn.Id) != "fn" || fn.RetryPolicy != nil || fn.InputPath != nil {
		t.Fatalf("only the members that were set come back: %+v", fn)
	}
	if aws.ToString(q.InputPath) != "$.detail" || aws.ToInt32(q.RetryPolicy.MaximumRetryAttempts) != 0 ||
		aws.ToInt32(q.RetryPolicy.MaximumEventAgeInSeconds) != 60 || aws.ToString(q.DeadLetterConfig.Arn) == "" {
		t.Fatalf("target q: %+v", q)
	}

	names := must[*ebsdk.ListRuleNamesByTargetOutput](t)(h.client.ListRuleNamesByTarget(c, &ebsdk.ListRuleNamesByTargetInput{TargetArn: aws.String(queueArn)}))
	if fmt.Sprint(names.RuleNames) != "[r1 r2]" {
		t.Fatalf("ListRuleNamesByTarget: %v", names.RuleNames)
	}
	page := must[*ebsdk.ListRuleNamesByTargetOutput](t)(h.client.ListRuleNamesByTarget(c, &ebsdk.ListRuleNamesByTargetInput{TargetArn: aws.String(queueArn), Limit: aws.Int32(1)}))
	page2 := must[*ebsdk.ListRuleNamesByTargetOutput](t)(h.client.ListRuleNamesByTarget(c, &ebsdk.ListRuleNamesByTargetInput{TargetArn: aws.String(queueArn), Limit: aws.Int32(1), NextToken: page.NextToken}))
	if fmt.Sprint(page.RuleNames, page2.RuleNames) != "[r1] [r2]" || page2.NextToken != nil {
		t.Fatalf("paged rule names: %v %v", page.RuleNames, page2.RuleNames)
	}
	none := must[*ebsdk.ListRuleNamesByTargetOutput](t)(h.client.ListRuleNamesByTarget(c, &ebsdk.ListRuleNamesByTargetInput{TargetArn: aws.String("arn:aws:sqs:us-east-1:123456789012:none")}))
	if none.RuleNames == nil || len(none.RuleNames) != 0 {
		t.Fatalf("no match must be an empty list: %#v", none.RuleNames)
	}

	rm := must[*ebsdk.RemoveTargetsOutput](t)(h.client.RemoveTargets(c, &ebsdk.RemoveTargetsInput{Rule: aws.String("r1"), Ids: []string{"q", "missing"}}))
	if rm.FailedEntryCount != 1 || aws.ToString(rm.FailedEntries[0].TargetId) != "missing" || aws.ToString(rm.FailedEntries[0].ErrorCode) != "ResourceNotFoundException" {
		t.Fatalf("RemoveTargets: %+v", rm)
	}
	list = must[*ebsdk.ListTargetsByRuleOutput](t)(h.client.ListTargetsByRule(c, &ebsdk.ListTargetsByRuleInput{Rule: aws.String("r1")}))
	if len(list.Targets) != 1 {
		t.Fatalf("after RemoveTargets: %+v", list.Targets)
	}
	_, err := h.client.ListTargetsByRule(c, &ebsdk.ListTargetsByRuleInput{Rule: aws.String("nope")})
	apiError(t, err, "ResourceNotFoundException", "Rule nope does not exist on EventBus default.")
}

func TestTargetQuotaAndValidation(t *testing.T) {
	h, c := startTest(t)
	putRule(t, h, "r", "", orderPattern)
	var five []types.Target
	for i := range 5 {
		five = append(five, types.Target{Id: aws.String(fmt.Sprint("t", i)), Arn: aws.String(queueArn)})
	}
	must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("r"), Targets: five}))
	// Replacing an existing target is not a sixth.
	must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("r"), Targets: five[:1]}))
	_, err := h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("r"), Targets: []types.Target{{Id: aws.String("t5"), Arn: aws.String(queueArn)}}})
	apiError(t, err, "LimitExceededException", "The requested resource exceeds the maximum number allowed.")

	putRule(t, h, "v", "", orderPattern)
	cases := []struct {
		target  types.Target
		message string
	}{
		{types.Target{Id: aws.String("!@#$@!#$"), Arn: aws.String(queueArn)},
			`1 validation error detected: Value '!@#$@!#$' at 'targets.1.member.id' failed to satisfy constraint: Member must satisfy regular expression pattern: [\.\-_A-Za-z0-9]+`},
		{types.Target{Id: aws.String("t"), Arn: aws.String(queueArn), Input: aws.String("{}"), InputPath: aws.String("$")},
			"Only one of Input, InputPath, or InputTransformer must be provided for target t."},
		{types.Target{Id: aws.String("t"), Arn: aws.String(queueArn), InputTransformer: &types.InputTransformer{
			InputPathsMap: map[string]string{"a": "$.a"}, InputTemplate: aws.String(`{"x": <notdefinedkey>}`)}},
			"InputTemplate for target t contains invalid placeholder notdefinedkey."},
		{types.Target{Id: aws.String("t"), Arn: aws.String("arn:aws:sqs:us-east-1:123456789012:q.fifo")},
			"Parameter(s) SqsParameters must be specified for target: t."},
		{types.Target{Id: aws.String("t"), Arn: aws.String("not-an-arn")},
			"Parameter not-an-arn is not valid. Reason: Provided Arn is not in correct format."},
		{types.Target{Id: aws.String("t"), Arn: aws.String(queueArn), RetryPolicy: &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(186), MaximumEventAgeInSeconds: aws.Int32(59)}},
			"2 validation errors detected: Value '186' at 'targets.1.member.retryPolicy.maximumRetryAttempts' failed to satisfy constraint: Member must have value less than or equal to 185; " +
				"Value '59' at 'targets.1.member.retryPolicy.maximumEventAgeInSeconds' failed to satisfy constraint: Member must have value greater than or equal to 60"},
	}
	for _, tc := range cases {
		_, err := h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("v"), Targets: []types.Target{tc.target}})
		apiError(t, err, "ValidationException", tc.message)
	}
	_, err = h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("nope"), Targets: five[:1]})
	apiError(t, err, "ResourceNotFoundException", "Rule nope does not exist on EventBus default.")
}
