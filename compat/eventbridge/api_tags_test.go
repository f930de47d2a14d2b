package eventbridge_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

func tags(kv ...string) []types.Tag {
	var out []types.Tag
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, types.Tag{Key: aws.String(kv[i]), Value: aws.String(kv[i+1])})
	}
	return out
}

func tagMap(ts []types.Tag) map[string]string {
	m := map[string]string{}
	for _, tg := range ts {
		m[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	return m
}

func TestTags(t *testing.T) {
	h, c := startTest(t)
	ruleArn := aws.ToString(must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{
		Name: aws.String("r"), EventPattern: aws.String(orderPattern), Tags: tags("a", "1"),
	})).RuleArn)
	got := must[*ebsdk.ListTagsForResourceOutput](t)(h.client.ListTagsForResource(c, &ebsdk.ListTagsForResourceInput{ResourceARN: aws.String(ruleArn)}))
	if tagMap(got.Tags)["a"] != "1" {
		t.Fatalf("PutRule tags: %v", tagMap(got.Tags))
	}
	// Tags on a PutRule of an existing rule are ignored.
	must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("r"), EventPattern: aws.String(orderPattern), Tags: tags("b", "2")}))
	must[*ebsdk.TagResourceOutput](t)(h.client.TagResource(c, &ebsdk.TagResourceInput{ResourceARN: aws.String(ruleArn), Tags: tags("a", "9", "c", "3")}))
	must[*ebsdk.UntagResourceOutput](t)(h.client.UntagResource(c, &ebsdk.UntagResourceInput{ResourceARN: aws.String(ruleArn), TagKeys: []string{"c", "unknown"}}))
	got = must[*ebsdk.ListTagsForResourceOutput](t)(h.client.ListTagsForResource(c, &ebsdk.ListTagsForResourceInput{ResourceARN: aws.String(ruleArn)}))
	if m := tagMap(got.Tags); len(m) != 1 || m["a"] != "9" {
		t.Fatalf("after tag/untag: %v", m)
	}

	busArn := "arn:aws:events:us-east-1:123456789012:event-bus/default"
	empty := must[*ebsdk.ListTagsForResourceOutput](t)(h.client.ListTagsForResource(c, &ebsdk.ListTagsForResourceInput{ResourceARN: aws.String(busArn)}))
	if empty.Tags == nil || len(empty.Tags) != 0 {
		t.Fatalf("untagged bus: %#v", empty.Tags)
	}
	_, err := h.client.TagResource(c, &ebsdk.TagResourceInput{ResourceARN: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/nope"), Tags: tags("a", "b")})
	apiError(t, err, "ResourceNotFoundException", "Event bus nope does not exist.")
	_, err = h.client.ListTagsForResource(c, &ebsdk.ListTagsForResourceInput{ResourceARN: aws.String("arn:aws:events:us-east-1:123456789012:rule/nope")})
	apiError(t, err, "ResourceNotFoundException", "Rule nope does not exist on EventBus default.")

	// A deleted and re-created rule starts without tags.
	must[*ebsdk.DeleteRuleOutput](t)(h.client.DeleteRule(c, &ebsdk.DeleteRuleInput{Name: aws.String("r")}))
	putRule(t, h, "r", "", orderPattern)
	got = must[*ebsdk.ListTagsForResourceOutput](t)(h.client.ListTagsForResource(c, &ebsdk.ListTagsForResourceInput{ResourceARN: aws.String(ruleArn)}))
	if len(got.Tags) != 0 {
		t.Fatalf("re-created rule kept tags: %v", tagMap(got.Tags))
	}
}
