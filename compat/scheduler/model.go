package scheduler

import (
	"sort"
	"strings"
	"time"
)

const defaultGroup = "default"

type tenantKey struct{ account, region string }

type tenant struct {
	key    tenantKey
	groups map[string]*group
}

type group struct {
	name, arn         string
	created, modified time.Time
	tags              map[string]string
	schedules         map[string]*sched
	index             nameIndex // schedules' names in order, for listing
}

// addLocked makes sc a schedule of the group.
func (g *group) addLocked(sc *sched) {
	g.schedules[sc.name] = sc
	g.index.add(sc.name)
	// A group whose schedules come and go but that is never listed would
	// pile up names to merge: merge them once they outnumber the group.
	if len(g.index.added) > len(g.schedules)+64 {
		g.sortedLocked()
	}
}

// removeLocked takes the schedule name out of the group.
func (g *group) removeLocked(name string) {
	delete(g.schedules, name)
	g.index.remove()
}

// sortedLocked returns the group's schedule names in order (nameIndex).
func (g *group) sortedLocked() []string {
	return g.index.names(func(n string) bool { _, ok := g.schedules[n]; return ok })
}

// sched is one schedule and its timer.
type sched struct {
	name              string
	group             *group
	arn               string
	set               settings
	routeID           string
	created, modified time.Time
	timer             interface{ Stop() bool }
	// seq changes whenever the schedule is re-armed or deleted, so a timer
	// armed before does nothing.
	seq     uint64
	deleted bool
}

// tenantLocked returns the caller's account and region, creating it with
// its default group on first use.
func (s *Service) tenantLocked(key tenantKey) *tenant {
	t, ok := s.tenants[key]
	if !ok {
		t = &tenant{key: key, groups: make(map[string]*group)}
		now := s.clock.Now()
		t.groups[defaultGroup] = &group{
			name: defaultGroup, arn: groupArn(key, defaultGroup), created: now, modified: now,
			tags: map[string]string{}, schedules: map[string]*sched{},
		}
		s.tenants[key] = t
	}
	return t
}

func groupArn(k tenantKey, name string) string {
	return "arn:aws:scheduler:" + k.region + ":" + k.account + ":schedule-group/" + name
}

func scheduleArn(k tenantKey, group, name string) string {
	return "arn:aws:scheduler:" + k.region + ":" + k.account + ":schedule/" + group + "/" + name
}

// parseGroupArn reads arn:aws:scheduler:region:account:schedule-group/name.
func parseGroupArn(a string) (tenantKey, string, bool) {
	parts := strings.SplitN(a, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[2] != "scheduler" {
		return tenantKey{}, "", false
	}
	name, ok := strings.CutPrefix(parts[5], "schedule-group/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return tenantKey{}, "", false
	}
	return tenantKey{account: parts[4], region: parts[3]}, name, true
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
