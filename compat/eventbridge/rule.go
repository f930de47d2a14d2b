package eventbridge

import (
	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/scheduleexpr"
	"github.com/gridbridge/gridbridge/compat/eventbridge/pattern"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Rule states.
const (
	stateEnabled    = "ENABLED"
	stateDisabled   = "DISABLED"
	stateCloudTrail = "ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS"
)

// rule is one rule on a bus.
type rule struct {
	tenant       tenantKey
	bus          *bus
	name, arn    string
	eventPattern *string
	compiled     *pattern.Pattern
	scheduleExpr *string
	sched        scheduleexpr.Schedule
	state        string
	description  *string
	roleArn      *string
	createdBy    string
	// managedBy is the service that manages the rule (an archive's rule),
	// nil for the caller's own rules.
	managedBy *string
	// targets in the order they were first put.
	targets []*target

	// timer is the next firing of a scheduled rule; scheduleSeq tells a
	// firing that was already on its way when the schedule changed that it
	// is stale.
	timer       engine.Timer
	scheduleSeq uint64
	deleted     bool
}

func (r *rule) enabled() bool { return r.state != stateDisabled }

// refuseManaged refuses a change to a managed rule, as AWS does: force
// lets DeleteRule and RemoveTargets through (overridable), nothing lets
// PutRule, PutTargets, EnableRule, DisableRule or tagging through.
func (r *rule) refuseManaged(overridable, force bool) error {
	if r.managedBy == nil || (overridable && force) {
		return nil
	}
	if overridable {
		// AWS's words.
		return awsjson.NewError(awsjson.CodeManagedRule, r.name+" is a managed rule. Set 'force' parameter to true to override.")
	}
	return awsjson.NewError(awsjson.CodeManagedRule, r.name+" is a managed rule and is changed only by "+*r.managedBy+".")
}

func (r *rule) target(id string) (*target, int) {
	for i, t := range r.targets {
		if t.id() == id {
			return t, i
		}
	}
	return nil, -1
}

// syncLocked makes the bus's matcher and the rule's schedule agree with the
// rule's pattern, schedule and state.
func (s *Service) syncRuleLocked(r *rule) {
	r.bus.matcher.Remove(r.name)
	if r.enabled() && r.compiled != nil && !r.deleted {
		r.bus.matcher.Add(r.name, r.compiled)
	}
	// After the change, never before: see bus.matcherVersion.
	r.bus.matcherVersion.Add(1)
	r.stopSchedule()
	if r.enabled() && r.sched != nil && !r.deleted {
		s.armScheduleLocked(r, s.clock.Now())
	}
}

func (r *rule) stopSchedule() {
	r.scheduleSeq++
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
}

func (r *rule) item() ruleItem {
	return ruleItem{
		Name: r.name, Arn: r.arn, EventPattern: r.eventPattern, ScheduleExpression: r.scheduleExpr,
		State: r.state, Description: r.description, RoleArn: r.roleArn, ManagedBy: r.managedBy, EventBusName: r.bus.name,
	}
}
