package scheduler

import (
	"encoding/base64"
	"sort"
	"strconv"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

func (c *call) tenantKey() tenantKey {
	return tenantKey{account: c.caller.Account, region: c.caller.Region}
}

// groupLocked finds a group by name ("" is default).
func (s *Service) groupLocked(key tenantKey, name string) (*group, *awsjson.Error) {
	if name == "" {
		name = defaultGroup
	}
	if err := checkName("groupName", name); err != nil {
		return nil, err
	}
	return s.namedGroupLocked(key, name)
}

// namedGroupLocked finds the group name of the tenant key.
func (s *Service) namedGroupLocked(key tenantKey, name string) (*group, *awsjson.Error) {
	g, ok := s.tenantLocked(key).groups[name]
	if !ok {
		return nil, notFound("Schedule group %s does not exist.", name)
	}
	return g, nil
}

func (s *Service) createSchedule(c *call) (any, *awsjson.Error) {
	return s.putSchedule(c, true)
}

func (s *Service) updateSchedule(c *call) (any, *awsjson.Error) {
	return s.putSchedule(c, false)
}

// putSchedule creates a schedule, or replaces every setting of one
// (UpdateSchedule is a full replacement in AWS: members left out go back
// to their defaults).
func (s *Service) putSchedule(c *call, create bool) (any, *awsjson.Error) {
	name := c.vars["Name"]
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	var in scheduleInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	key := c.tenantKey()
	s.mu.Lock()
	now := s.clock.Now()
	set, err := validateSchedule(in, now)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	g, err := s.groupLocked(key, deref(in.GroupName))
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	set.in.GroupName = &g.name
	sc, exists := g.schedules[name]
	switch {
	case create && exists:
		s.mu.Unlock()
		return nil, conflict("Schedule %s already exists.", name)
	case !create && !exists:
		s.mu.Unlock()
		return nil, notFound("Schedule %s does not exist.", name)
	case create:
		s.routeSeq++
		sc = &sched{
			name: name, group: g, arn: scheduleArn(key, g.name, name), created: now,
			routeID: "scheduler/" + key.account + "/" + key.region + "/" + g.name + "/" + name + "#" + strconv.FormatUint(s.routeSeq, 10),
		}
		g.addLocked(sc)
	}
	sc.set, sc.modified = set, now
	route := s.routeLocked(sc, key)
	// The route exists before the first timer can fire.
	s.engine.PutRoute(route)
	s.armLocked(sc)
	arn := sc.arn
	s.mu.Unlock()
	return map[string]string{"ScheduleArn": arn}, nil
}

func (s *Service) findScheduleLocked(c *call) (*sched, *awsjson.Error) {
	name := c.vars["Name"]
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	g, err := s.groupLocked(c.tenantKey(), c.param("groupName"))
	if err != nil {
		return nil, err
	}
	sc, ok := g.schedules[name]
	if !ok {
		return nil, notFound("Schedule %s does not exist.", name)
	}
	return sc, nil
}

func (s *Service) getSchedule(c *call) (any, *awsjson.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc, err := s.findScheduleLocked(c)
	if err != nil {
		return nil, err
	}
	in := sc.set.in
	return scheduleOutput{
		ActionAfterCompletion: in.ActionAfterCompletion, Arn: sc.arn,
		CreationDate: awsjson.Timestamp{Time: sc.created}, Description: in.Description, EndDate: in.EndDate,
		FlexibleTimeWindow: in.FlexibleTimeWindow, GroupName: sc.group.name, KmsKeyArn: in.KmsKeyArn,
		LastModificationDate: awsjson.Timestamp{Time: sc.modified}, Name: sc.name,
		ScheduleExpression: deref(in.ScheduleExpression), ScheduleExpressionTimezone: deref(in.ScheduleExpressionTimezone),
		StartDate: in.StartDate, State: in.State, Target: in.Target,
	}, nil
}

// deleteSchedule stops the schedule; invocations still being retried are
// dropped with their reason, as the schedule is gone.
func (s *Service) deleteSchedule(c *call) (any, *awsjson.Error) {
	s.mu.Lock()
	sc, err := s.findScheduleLocked(c)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	sc.group.removeLocked(sc.name)
	route := s.stopLocked(sc)
	s.mu.Unlock()
	s.engine.RemoveRoute(route, "ScheduleDeleted")
	return nil, nil
}

const maxPageSize = 100

// page reads MaxResults and NextToken for ListScheduleGroups: the token is
// the offset of the next group in the sorted listing (a tenant has few).
func page(c *call) (offset, limit int, err *awsjson.Error) {
	limit = maxPageSize
	if v := c.param("MaxResults"); v != "" {
		n, convErr := strconv.Atoi(v)
		if convErr != nil || n < 1 || n > maxPageSize {
			return 0, 0, validation("1 validation error detected: Value '%s' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and %d", v, maxPageSize)
		}
		limit = n
	}
	if tok := c.param("NextToken"); tok != "" {
		raw, decErr := base64.RawURLEncoding.DecodeString(tok)
		n, convErr := strconv.Atoi(strings.TrimPrefix(string(raw), "offset:"))
		if decErr != nil || convErr != nil || n < 0 {
			return 0, 0, validation("The NextToken is not valid.")
		}
		offset = n
	}
	return offset, limit, nil
}

// window cuts one page out of n items and returns the next token.
func pageBounds(offset, limit, n int) (from, to int, next *string) {
	from = min(offset, n)
	to = min(from+limit, n)
	if to < n {
		tok := base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(to)))
		next = &tok
	}
	return from, to, next
}

// scheduleCursor is where a ListSchedules page continues: after the
// schedule name in group. Listing from a cursor rather than an offset keeps
// a page's cost to a binary search and the page itself, and a schedule made
// or deleted between pages shifts nothing already listed.
type scheduleCursor struct{ group, name string }

const cursorPrefix = "after:"

func (k scheduleCursor) token() *string {
	tok := base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + k.group + "/" + k.name))
	return &tok
}

// readCursor reads ListSchedules' NextToken; "" is the start.
func readCursor(tok string) (scheduleCursor, bool, *awsjson.Error) {
	if tok == "" {
		return scheduleCursor{}, false, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	body, ok := strings.CutPrefix(string(raw), cursorPrefix)
	group, name, split := strings.Cut(body, "/")
	if err != nil || !ok || !split || group == "" || name == "" {
		return scheduleCursor{}, false, validation("The NextToken is not valid.")
	}
	return scheduleCursor{group: group, name: name}, true, nil
}

func (s *Service) listSchedules(c *call) (any, *awsjson.Error) {
	limit := maxPageSize
	if v := c.param("MaxResults"); v != "" {
		n, convErr := strconv.Atoi(v)
		if convErr != nil || n < 1 || n > maxPageSize {
			return nil, validation("1 validation error detected: Value '%s' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and %d", v, maxPageSize)
		}
		limit = n
	}
	after, resume, err := readCursor(c.param("NextToken"))
	if err != nil {
		return nil, err
	}
	state := c.param("State")
	if state != "" && state != "ENABLED" && state != "DISABLED" {
		return nil, enumViolation(state, "state", "ENABLED", "DISABLED")
	}
	prefix := c.param("NamePrefix")
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tenantLocked(c.tenantKey())
	groups := sortedNames(t.groups) // a tenant has few groups
	if name := c.param("ScheduleGroup"); name != "" {
		g, err := s.groupLocked(c.tenantKey(), name)
		if err != nil {
			return nil, err
		}
		groups = []string{g.name}
	}
	page := make([]scheduleSummary, 0, min(limit, 16))
	var next *string
	for _, gn := range groups {
		if resume && gn < after.group {
			continue
		}
		g := t.groups[gn]
		names := g.sortedLocked()
		from := sort.SearchStrings(names, prefix)
		if resume && gn == after.group {
			from = max(from, sort.Search(len(names), func(i int) bool { return names[i] > after.name }))
		}
		for _, n := range names[from:] {
			if !strings.HasPrefix(n, prefix) {
				break
			}
			sc := g.schedules[n]
			if state != "" && sc.set.in.State != state {
				continue
			}
			if len(page) == limit {
				// One more match exists: the listing goes on after the
				// page's last schedule.
				last := page[len(page)-1]
				next = scheduleCursor{group: last.GroupName, name: last.Name}.token()
				break
			}
			sum := scheduleSummary{
				Arn: sc.arn, CreationDate: awsjson.Timestamp{Time: sc.created}, GroupName: g.name,
				LastModificationDate: awsjson.Timestamp{Time: sc.modified}, Name: n, State: sc.set.in.State,
			}
			sum.Target.Arn = deref(sc.set.in.Target.Arn)
			page = append(page, sum)
		}
		if next != nil {
			break
		}
	}
	return struct {
		NextToken *string           `json:"NextToken,omitempty"`
		Schedules []scheduleSummary `json:"Schedules"`
	}{next, page}, nil
}
