package eventbridge_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

const orderPattern = `{"source":["shop.orders"]}`

func TestRuleLifecycle(t *testing.T) {
	h, c := startTest(t)
	out := must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{
		Name: aws.String("r1"), EventPattern: aws.String(orderPattern), Description: aws.String("d"),
	}))
	if aws.ToString(out.RuleArn) != "arn:aws:events:us-east-1:123456789012:rule/r1" {
		t.Fatalf("default-bus rule ARN: %s", aws.ToString(out.RuleArn))
	}
	must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("orders")}))
	out = must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{
		Name: aws.String("r1"), EventBusName: aws.String("orders"), EventPattern: aws.String(orderPattern),
	}))
	if aws.ToString(out.RuleArn) != "arn:aws:events:us-east-1:123456789012:rule/orders/r1" {
		t.Fatalf("custom-bus rule ARN: %s", aws.ToString(out.RuleArn))
	}

	d := must[*ebsdk.DescribeRuleOutput](t)(h.client.DescribeRule(c, &ebsdk.DescribeRuleInput{Name: aws.String("r1")}))
	if aws.ToString(d.EventPattern) != orderPattern || d.State != types.RuleStateEnabled || aws.ToString(d.EventBusName) != "default" ||
		aws.ToString(d.CreatedBy) != account || aws.ToString(d.Description) != "d" {
		t.Fatalf("DescribeRule: %+v", d)
	}

	must[*ebsdk.DisableRuleOutput](t)(h.client.DisableRule(c, &ebsdk.DisableRuleInput{Name: aws.String("r1")}))
	d = must[*ebsdk.DescribeRuleOutput](t)(h.client.DescribeRule(c, &ebsdk.DescribeRuleInput{Name: aws.String("r1")}))
	if d.State != types.RuleStateDisabled {
		t.Fatalf("after DisableRule: %s", d.State)
	}
	must[*ebsdk.EnableRuleOutput](t)(h.client.EnableRule(c, &ebsdk.EnableRuleInput{Name: aws.String("r1")}))

	// PutRule replaces the rule: left-out members are cleared.
	must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("r1"), EventPattern: aws.String(orderPattern)}))
	d = must[*ebsdk.DescribeRuleOutput](t)(h.client.DescribeRule(c, &ebsdk.DescribeRuleInput{Name: aws.String("r1")}))
	if d.Description != nil || d.State != types.RuleStateEnabled {
		t.Fatalf("re-put rule: %+v", d)
	}

	_, err := h.client.DescribeRule(c, &ebsdk.DescribeRuleInput{Name: aws.String("nope")})
	apiError(t, err, "ResourceNotFoundException", "Rule nope does not exist on EventBus default.")
	_, err = h.client.EnableRule(c, &ebsdk.EnableRuleInput{Name: aws.String("nope"), EventBusName: aws.String("orders")})
	apiError(t, err, "ResourceNotFoundException", "Rule nope does not exist on EventBus orders.")
	_, err = h.client.DescribeRule(c, &ebsdk.DescribeRuleInput{Name: aws.String("r1"), EventBusName: aws.String("gone")})
	apiError(t, err, "ResourceNotFoundException", "Event bus gone does not exist.")

	must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(c, &ebsdk.PutTargetsInput{
		Rule: aws.String("r1"), Targets: []types.Target{{Id: aws.String("t1"), Arn: aws.String("arn:aws:sqs:us-east-1:123456789012:q")}},
	}))
	_, err = h.client.DeleteRule(c, &ebsdk.DeleteRuleInput{Name: aws.String("r1"), Force: true})
	apiError(t, err, "ValidationException", "Rule can't be deleted since it has targets.")
	must[*ebsdk.RemoveTargetsOutput](t)(h.client.RemoveTargets(c, &ebsdk.RemoveTargetsInput{Rule: aws.String("r1"), Ids: []string{"t1"}}))
	must[*ebsdk.DeleteRuleOutput](t)(h.client.DeleteRule(c, &ebsdk.DeleteRuleInput{Name: aws.String("r1")}))
	// Deleting again succeeds, as AWS documents.
	must[*ebsdk.DeleteRuleOutput](t)(h.client.DeleteRule(c, &ebsdk.DeleteRuleInput{Name: aws.String("r1")}))
}

func TestPutRuleErrors(t *testing.T) {
	h, c := startTest(t)
	must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("custom")}))
	cases := []struct {
		in            ebsdk.PutRuleInput
		code, message string
	}{
		{ebsdk.PutRuleInput{Name: aws.String("r")}, "ValidationException", "Parameter(s) EventPattern or ScheduleExpression must be specified."},
		{ebsdk.PutRuleInput{Name: aws.String("r"), EventBusName: aws.String("custom"), ScheduleExpression: aws.String("rate(1 minute)")},
			"ValidationException", "ScheduleExpression is supported only on the default event bus."},
		{ebsdk.PutRuleInput{Name: aws.String("r"), ScheduleExpression: aws.String("cron(0 1 * * * *)")}, "ValidationException", "Parameter ScheduleExpression is not valid."},
		{ebsdk.PutRuleInput{Name: aws.String("r"), ScheduleExpression: aws.String("cron(71 8 1 * ? *)")}, "ValidationException", "Parameter ScheduleExpression is not valid."},
		{ebsdk.PutRuleInput{Name: aws.String("r"), ScheduleExpression: aws.String("rate(1\tminute)")}, "ValidationException", "Parameter ScheduleExpression is not valid."},
		{ebsdk.PutRuleInput{Name: aws.String("r"), ScheduleExpression: aws.String("rate(5  minutes)")}, "ValidationException", "Parameter ScheduleExpression is not valid."},
		{ebsdk.PutRuleInput{Name: aws.String("r"), ScheduleExpression: aws.String("cron(0\t20 * * ? *)")}, "ValidationException", "Parameter ScheduleExpression is not valid."},
		{ebsdk.PutRuleInput{Name: aws.String("r"), ScheduleExpression: aws.String("at(2026-01-01T00:00:00)")}, "ValidationException", "Parameter ScheduleExpression is not valid."},
		{ebsdk.PutRuleInput{Name: aws.String("r"), EventPattern: aws.String(`[1]`)}, "InvalidEventPatternException", "Event pattern is not valid. Reason: Filter is not an object"},
		{ebsdk.PutRuleInput{Name: aws.String("r"), EventPattern: aws.String(`{"a":[]}`)}, "InvalidEventPatternException", "Event pattern is not valid. Reason: Empty arrays are not allowed"},
		{ebsdk.PutRuleInput{Name: aws.String("r"), EventBusName: aws.String("nope"), EventPattern: aws.String(orderPattern)},
			"ResourceNotFoundException", "Event bus nope does not exist."},
		{ebsdk.PutRuleInput{Name: aws.String("bad name!"), EventPattern: aws.String(orderPattern)}, "ValidationException",
			`1 validation error detected: Value 'bad name!' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [\.\-_A-Za-z0-9]+`},
		{ebsdk.PutRuleInput{Name: aws.String("r"), EventPattern: aws.String(orderPattern), State: "ON"}, "ValidationException",
			"1 validation error detected: Value 'ON' at 'state' failed to satisfy constraint: Member must satisfy enum value set: [ENABLED, DISABLED, ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS]"},
	}
	for _, tc := range cases {
		_, err := h.client.PutRule(c, &tc.in)
		apiError(t, err, tc.code, tc.message)
	}
	// The CloudTrail state counts as enabled.
	must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("ct"), EventPattern: aws.String(orderPattern),
		State: types.RuleStateEnabledWithAllCloudtrailManagementEvents}))
}

func TestListRulesPaging(t *testing.T) {
	h, c := startTest(t)
	for i := range 6 {
		must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String(fmt.Sprintf("rule-%d", i)), EventPattern: aws.String(orderPattern)}))
	}
	must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("other"), ScheduleExpression: aws.String("rate(5 minutes)")}))

	p1 := must[*ebsdk.ListRulesOutput](t)(h.client.ListRules(c, &ebsdk.ListRulesInput{NamePrefix: aws.String("rule-"), Limit: aws.Int32(3)}))
	if len(p1.Rules) != 3 || p1.NextToken == nil || aws.ToString(p1.Rules[0].Name) != "rule-0" {
		t.Fatalf("page 1: %d rules, token %v", len(p1.Rules), p1.NextToken)
	}
	p2 := must[*ebsdk.ListRulesOutput](t)(h.client.ListRules(c, &ebsdk.ListRulesInput{NamePrefix: aws.String("rule-"), Limit: aws.Int32(3), NextToken: p1.NextToken}))
	if len(p2.Rules) != 3 || p2.NextToken != nil || aws.ToString(p2.Rules[2].Name) != "rule-5" {
		t.Fatalf("page 2: %d rules, token %v", len(p2.Rules), p2.NextToken)
	}
	all := must[*ebsdk.ListRulesOutput](t)(h.client.ListRules(c, &ebsdk.ListRulesInput{}))
	if len(all.Rules) != 7 || aws.ToString(all.Rules[0].ScheduleExpression) != "rate(5 minutes)" {
		t.Fatalf("all rules: %+v", all.Rules)
	}
	_, err := h.client.ListRules(c, &ebsdk.ListRulesInput{Limit: aws.Int32(0)})
	apiError(t, err, "ValidationException", "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	_, err = h.client.ListRules(c, &ebsdk.ListRulesInput{NextToken: aws.String("garbage")})
	apiError(t, err, "ValidationException", "Parameter NextToken is not valid.")
	_, err = h.client.ListRules(c, &ebsdk.ListRulesInput{EventBusName: aws.String("nope")})
	apiError(t, err, "ResourceNotFoundException", "Event bus nope does not exist.")
}
