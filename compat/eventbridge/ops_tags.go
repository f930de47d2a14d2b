package eventbridge

import (
	"fmt"

	"github.com/gridbridge/gridbridge/compat/eventbridge/awsjson"
)

const maxTagsPerResource = 50

// checkTags applies the model's constraints to a Tags member.
func checkTags(v *awsjson.Violations, tags []tagShape, path string) {
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
func mergeTags(existing, tags []tagShape) []tagShape {
	out := append([]tagShape(nil), existing...)
	for _, tg := range tags {
		replaced := false
		for i := range out {
			if deref(out[i].Key) == deref(tg.Key) {
				out[i].Value, replaced = tg.Value, true
				break
			}
		}
		if !replaced {
			out = append(out, tagShape{Key: tg.Key, Value: tg.Value})
		}
	}
	return out
}

// taggableLocked resolves a resource ARN. Only buses and rules take tags.
func (s *Service) taggableLocked(resource *string) (*tenant, string, error) {
	arn := deref(resource)
	if key, name, ok := parseBusArn(arn); ok {
		t := s.tenantLocked(key)
		if _, ok := t.buses[name]; !ok {
			return nil, "", awsjson.NotFound("Event bus %s does not exist.", name)
		}
		return t, arn, nil
	}
	if key, busName, name, ok := parseRuleArn(arn); ok {
		t := s.tenantLocked(key)
		b, ok := t.buses[busName]
		if !ok {
			return nil, "", awsjson.NotFound("Event bus %s does not exist.", busName)
		}
		if _, ok := b.rules[name]; !ok {
			return nil, "", awsjson.NotFound("Rule %s does not exist on EventBus %s.", name, busName)
		}
		return t, arn, nil
	}
	return nil, "", awsjson.Validation("Parameter ResourceARN is not valid.")
}

func decodeTagInput(c *call) (tagResourceInput, awsjson.Violations, error) {
	var in tagResourceInput
	var v awsjson.Violations
	if err := awsjson.Decode(c.body, &in); err != nil {
		return in, v, err
	}
	if in.ResourceARN == nil {
		v.Required("resourceARN")
	}
	checkLength(&v, in.ResourceARN, "resourceARN", 1, 1600)
	return in, v, nil
}

func (s *Service) tagResource(c *call) (any, error) {
	in, v, err := decodeTagInput(c)
	if err != nil {
		return nil, err
	}
	if in.Tags == nil {
		v.Required("tags")
	}
	checkTags(&v, in.Tags, "tags")
	if err := v.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, arn, err := s.taggableLocked(in.ResourceARN)
	if err != nil {
		return nil, err
	}
	merged := mergeTags(t.tags[arn], in.Tags)
	if len(merged) > maxTagsPerResource {
		return nil, awsjson.LimitExceeded()
	}
	t.tags[arn] = merged
	return nil, nil
}

func (s *Service) untagResource(c *call) (any, error) {
	in, v, err := decodeTagInput(c)
	if err != nil {
		return nil, err
	}
	if in.TagKeys == nil {
		v.Required("tagKeys")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, arn, err := s.taggableLocked(in.ResourceARN)
	if err != nil {
		return nil, err
	}
	drop := map[string]bool{}
	for _, k := range in.TagKeys {
		drop[deref(k)] = true
	}
	kept := t.tags[arn][:0]
	for _, tg := range t.tags[arn] {
		if !drop[deref(tg.Key)] {
			kept = append(kept, tg)
		}
	}
	t.tags[arn] = kept
	return nil, nil
}

func (s *Service) listTagsForResource(c *call) (any, error) {
	in, v, err := decodeTagInput(c)
	if err != nil {
		return nil, err
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, arn, err := s.taggableLocked(in.ResourceARN)
	if err != nil {
		return nil, err
	}
	return listTagsOutput{Tags: append([]tagShape{}, t.tags[arn]...)}, nil
}
