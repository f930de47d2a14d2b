package eventbridge

import (
	"fmt"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

const maxTagsPerResource = 50

// checkTags applies the model's constraints to a Tags member.
func checkTags(v *awsjson.Violations, tags []awsjson.Tag, path string) {
	if len(tags) > maxTagsPerResource {
		v.Add(ptr(fmt.Sprintf("[%d tags]", len(tags))), path, awsjson.MaxLength(maxTagsPerResource))
	}
	for i, tg := range tags {
		p := fmt.Sprintf("%s.%d.member", path, i+1)
		if tg.Key == nil {
			v.Required(p + ".key")
		}
		checkLength(v, tg.Key, p+".key", 1, 128)
		if tg.Value == nil {
			v.Required(p + ".value")
		}
		checkLength(v, tg.Value, p+".value", 0, 256)
	}
}

// mergeTags sets tags on a resource's list: an existing key is overwritten
// in place, a new one appended.
func mergeTags(existing, tags []awsjson.Tag) []awsjson.Tag {
	out := append([]awsjson.Tag(nil), existing...)
	for _, tg := range tags {
		replaced := false
		for i := range out {
			if deref(out[i].Key) == deref(tg.Key) {
				out[i].Value, replaced = tg.Value, true
				break
			}
		}
		if !replaced {
			out = append(out, awsjson.Tag{Key: tg.Key, Value: tg.Value})
		}
	}
	return out
}

// taggable is a resource that takes tags: its tenant and ARN.
type taggable struct {
	t   *tenant
	arn string
	// rule is the rule the ARN names, nil for a bus.
	rule *rule
}

func (r taggable) tags() []awsjson.Tag { return r.t.tags[r.arn] }

// refuseManaged refuses to tag a managed rule, as AWS does.
func (r taggable) refuseManaged() error {
	if r.rule == nil {
		return nil
	}
	return r.rule.refuseManaged(false, false)
}

// findTaggable resolves the input's resource ARN. Only buses and rules take
// tags.
func findTaggable(s *Service, _ *call, in *tagResourceInput) (taggable, error) {
	arn := deref(in.ResourceARN)
	if key, name, ok := parseBusArn(arn); ok {
		t := s.tenantLocked(key)
		if _, ok := t.buses[name]; !ok {
			return taggable{}, awsjson.NotFound("Event bus %s does not exist.", name)
		}
		return taggable{t: t, arn: arn}, nil
	}
	if key, busName, name, ok := parseRuleArn(arn); ok {
		t := s.tenantLocked(key)
		b, ok := t.buses[busName]
		if !ok {
			return taggable{}, awsjson.NotFound("Event bus %s does not exist.", busName)
		}
		r, ok := b.rules[name]
		if !ok {
			return taggable{}, awsjson.NotFound("Rule %s does not exist on EventBus %s.", name, busName)
		}
		return taggable{t, arn, r}, nil
	}
	return taggable{}, awsjson.Validation("Parameter ResourceARN is not valid.")
}

func checkResourceARN(in *tagResourceInput, v *awsjson.Violations) {
	awsjson.Require(v, in.ResourceARN, "resourceARN")
	checkLength(v, in.ResourceARN, "resourceARN", 1, 1600)
}

func checkTagResource(in *tagResourceInput, v *awsjson.Violations) {
	checkResourceARN(in, v)
	if in.Tags == nil {
		v.Required("tags")
	}
	checkTags(v, in.Tags, "tags")
}

func checkUntagResource(in *tagResourceInput, v *awsjson.Violations) {
	checkResourceARN(in, v)
	if in.TagKeys == nil {
		v.Required("tagKeys")
	}
}

func (s *Service) tagResource(_ *call, in *tagResourceInput, res taggable) (any, error) {
	if err := res.refuseManaged(); err != nil {
		return nil, err
	}
	merged := mergeTags(res.tags(), in.Tags)
	if len(merged) > maxTagsPerResource {
		return nil, awsjson.LimitExceeded()
	}
	res.t.tags[res.arn] = merged
	return nil, nil
}

func (s *Service) untagResource(_ *call, in *tagResourceInput, res taggable) (any, error) {
	if err := res.refuseManaged(); err != nil {
		return nil, err
	}
	drop := map[string]bool{}
	for _, k := range in.TagKeys {
		drop[deref(k)] = true
	}
	kept := res.tags()[:0]
	for _, tg := range res.tags() {
		if !drop[deref(tg.Key)] {
			kept = append(kept, tg)
		}
	}
	res.t.tags[res.arn] = kept
	return nil, nil
}

func (s *Service) listTagsForResource(_ *call, _ *tagResourceInput, res taggable) (any, error) {
	return listTagsOutput{Tags: append([]awsjson.Tag{}, res.tags()...)}, nil
}
