package scheduler

import (
	"sort"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

const (
	maxTags        = 200
	maxTagKeyLen   = 128
	maxTagValueLen = 256
)

func (s *Service) createGroup(c *call) (any, *awsjson.Error) {
	name := c.vars["Name"]
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	var in struct {
		ClientToken *string       `json:"ClientToken"`
		Tags        []awsjson.Tag `json:"Tags"`
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	tags, err := checkTags(in.Tags)
	if err != nil {
		return nil, err
	}
	key := c.tenantKey()
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tenantLocked(key)
	if _, ok := t.groups[name]; ok {
		return nil, conflict("Schedule group %s already exists.", name)
	}
	now := s.clock.Now()
	g := &group{name: name, arn: groupArn(key, name), created: now, modified: now, tags: tags, schedules: map[string]*sched{}}
	t.groups[name] = g
	return map[string]string{"ScheduleGroupArn": g.arn}, nil
}

func checkTags(in []awsjson.Tag) (map[string]string, *awsjson.Error) {
	if len(in) > maxTags {
		return nil, validation("1 validation error detected: Value at 'tags' failed to satisfy constraint: Member must have length less than or equal to %d", maxTags)
	}
	out := make(map[string]string, len(in))
	for _, t := range in {
		if t.Key == nil {
			return nil, required("tags.member.key")
		}
		if t.Value == nil {
			return nil, required("tags.member.value")
		}
		if len(*t.Key) < 1 || len(*t.Key) > maxTagKeyLen {
			return nil, validation("1 validation error detected: Value '%s' at 'tags.member.key' failed to satisfy constraint: Member must have length between 1 and %d", *t.Key, maxTagKeyLen)
		}
		if len(*t.Value) > maxTagValueLen {
			return nil, validation("1 validation error detected: Value at 'tags.member.value' failed to satisfy constraint: Member must have length less than or equal to %d", maxTagValueLen)
		}
		out[*t.Key] = *t.Value
	}
	return out, nil
}

func groupShape(g *group) groupOutput {
	return groupOutput{
		Arn: g.arn, CreationDate: awsjson.Timestamp{Time: g.created},
		LastModificationDate: awsjson.Timestamp{Time: g.modified}, Name: g.name, State: "ACTIVE",
	}
}

func (s *Service) getGroup(c *call) (any, *awsjson.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.groupLocked(c.tenantKey(), c.vars["Name"])
	if err != nil {
		return nil, err
	}
	return groupShape(g), nil
}

// deleteGroup deletes a group and every schedule in it; the default group
// cannot be deleted.
func (s *Service) deleteGroup(c *call) (any, *awsjson.Error) {
	name := c.vars["Name"]
	if name == defaultGroup {
		return nil, validation("The default schedule group cannot be deleted.")
	}
	s.mu.Lock()
	g, err := s.groupLocked(c.tenantKey(), name)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	delete(s.tenantLocked(c.tenantKey()).groups, name)
	var routes []string
	for _, sc := range g.schedules {
		routes = append(routes, s.stopLocked(sc))
	}
	s.mu.Unlock()
	for _, r := range routes {
		s.engine.RemoveRoute(r, "ScheduleGroupDeleted")
	}
	return nil, nil
}

func (s *Service) listGroups(c *call) (any, *awsjson.Error) {
	offset, limit, err := page(c)
	if err != nil {
		return nil, err
	}
	prefix := c.param("NamePrefix")
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tenantLocked(c.tenantKey())
	var all []groupOutput
	for _, n := range sortedNames(t.groups) {
		if strings.HasPrefix(n, prefix) {
			all = append(all, groupShape(t.groups[n]))
		}
	}
	from, to, next := pageBounds(offset, limit, len(all))
	return struct {
		NextToken      *string       `json:"NextToken,omitempty"`
		ScheduleGroups []groupOutput `json:"ScheduleGroups"`
	}{next, append([]groupOutput{}, all[from:to]...)}, nil
}

// taggedLocked finds the schedule group a tag operation names; schedules
// themselves take no tags in Scheduler.
func (s *Service) taggedLocked(c *call) (*group, *awsjson.Error) {
	a := c.vars["ResourceArn"]
	key, name, ok := parseGroupArn(a)
	if !ok {
		return nil, notFound("The resource %s does not exist or does not support tags.", a)
	}
	return s.namedGroupLocked(key, name)
}

func (s *Service) listTags(c *call) (any, *awsjson.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.taggedLocked(c)
	if err != nil {
		return nil, err
	}
	out := []awsjson.Tag{}
	for _, k := range sortedNames(g.tags) {
		out = append(out, awsjson.Tag{Key: strPtr(k), Value: strPtr(g.tags[k])})
	}
	return map[string][]awsjson.Tag{"Tags": out}, nil
}

func (s *Service) tagResource(c *call) (any, *awsjson.Error) {
	var in struct {
		Tags []awsjson.Tag `json:"Tags"`
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if in.Tags == nil {
		return nil, required("tags")
	}
	tags, err := checkTags(in.Tags)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.taggedLocked(c)
	if err != nil {
		return nil, err
	}
	merged := make(map[string]string, len(g.tags)+len(tags))
	for k, v := range g.tags {
		merged[k] = v
	}
	for k, v := range tags {
		merged[k] = v
	}
	if len(merged) > maxTags {
		return nil, validation("A resource can have at most %d tags.", maxTags)
	}
	g.tags = merged
	return nil, nil
}

func (s *Service) untagResource(c *call) (any, *awsjson.Error) {
	keys := c.query["TagKeys"]
	if len(keys) == 0 {
		return nil, required("tagKeys")
	}
	sort.Strings(keys)
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.taggedLocked(c)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		delete(g.tags, k)
	}
	return nil, nil
}
