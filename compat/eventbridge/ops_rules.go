package eventbridge

import (
	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/scheduleexpr"
	"github.com/gridbridge/gridbridge/compat/eventbridge/pattern"
)

const (
	maxRulesPerBus   = 300
	maxPatternLength = 4096
)

func checkPutRule(in *putRuleInput, v *awsjson.Violations) {
	checkName(v, in.Name, "name", 64, true)
	checkBusRef(v, in.EventBusName, "eventBusName")
	checkLength(v, in.EventPattern, "eventPattern", 0, maxPatternLength)
	checkLength(v, in.ScheduleExpression, "scheduleExpression", 0, 256)
	checkLength(v, in.Description, "description", 0, 512)
	checkLength(v, in.RoleArn, "roleArn", 1, 1600)
	if in.State != nil && *in.State != stateEnabled && *in.State != stateDisabled && *in.State != stateCloudTrail {
		v.Add(in.State, "state", awsjson.Enum(stateEnabled, stateDisabled, stateCloudTrail))
	}
	checkTags(v, in.Tags, "tags")
}

// putRule refuses a rule with neither pattern nor schedule before it looks
// up the bus, so it decodes its input itself rather than run under op.
func (s *Service) putRule(c *call) (any, error) {
	in, err := decode(c, checkPutRule)
	if err != nil {
		return nil, err
	}
	if in.EventPattern == nil && in.ScheduleExpression == nil {
		return nil, awsjson.Validation("Parameter(s) EventPattern or ScheduleExpression must be specified.")
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	t, b, err := s.busLocked(c, in.EventBusName)
	if err != nil {
		return nil, err
	}
	var sched scheduleexpr.Schedule
	if in.ScheduleExpression != nil {
		if b.name != defaultBus {
			return nil, awsjson.Validation("ScheduleExpression is supported only on the default event bus.")
		}
		if sched, err = scheduleexpr.Parse(*in.ScheduleExpression); err != nil {
			return nil, awsjson.Validation("Parameter ScheduleExpression is not valid.")
		}
	}
	var compiled *pattern.Pattern
	if in.EventPattern != nil {
		if compiled, err = parsePattern(*in.EventPattern); err != nil {
			return nil, err
		}
	}
	r, exists := b.rules[*in.Name]
	if exists {
		if err := r.refuseManaged(false, false); err != nil {
			return nil, err
		}
	}
	if !exists {
		if len(b.rules) >= maxRulesPerBus {
			return nil, awsjson.LimitExceeded()
		}
		r = &rule{tenant: t.key, bus: b, name: *in.Name, arn: ruleArn(t.key, b.name, *in.Name), createdBy: c.caller.Account}
		b.rules[r.name] = r
		// Tags given to PutRule apply to a new rule only.
		if len(in.Tags) > 0 {
			t.tags[r.arn] = mergeTags(nil, in.Tags)
		}
	}
	// PutRule replaces the whole rule: members left out are cleared. Its
	// targets stay.
	r.eventPattern, r.compiled = in.EventPattern, compiled
	r.scheduleExpr, r.sched = in.ScheduleExpression, sched
	r.description, r.roleArn = in.Description, in.RoleArn
	r.state = stateEnabled
	if in.State != nil {
		r.state = *in.State
	}
	s.syncRuleLocked(r)
	return putRuleOutput{RuleArn: r.arn}, nil
}

// parsePattern compiles an event pattern, answering AWS's
// InvalidEventPatternException.
func parsePattern(text string) (*pattern.Pattern, error) {
	p, err := pattern.Parse(text)
	if err != nil {
		return nil, awsjson.NewError(awsjson.CodeInvalidEventPattern, patternMessage(err))
	}
	return p, nil
}

func patternMessage(err error) string {
	const prefix = "Event pattern is not valid. Reason: "
	msg := err.Error()
	if len(msg) < len(prefix) || msg[:len(prefix)] != prefix {
		msg = prefix + msg
	}
	return msg
}

// ruleLocked finds a rule, answering AWS's ResourceNotFoundException for a
// missing bus or rule.
func (s *Service) ruleLocked(c *call, busName, ruleName *string) (*tenant, *rule, error) {
	t, b, err := s.busLocked(c, busName)
	if err != nil {
		return nil, nil, err
	}
	r, ok := b.rules[deref(ruleName)]
	if !ok {
		return nil, nil, awsjson.NotFound("Rule %s does not exist on EventBus %s.", deref(ruleName), b.name)
	}
	return t, r, nil
}

func checkRuleRef(in *ruleRefInput, v *awsjson.Violations) {
	checkName(v, in.Name, "name", 64, true)
	checkBusRef(v, in.EventBusName, "eventBusName")
}

func (s *Service) describeRule(_ *call, _ *ruleRefInput, r *rule) (any, error) {
	return describeRuleOutput{ruleItem: r.item(), CreatedBy: r.createdBy}, nil
}

func checkListRules(in *listRulesInput, v *awsjson.Violations) {
	checkBusRef(v, in.EventBusName, "eventBusName")
	checkLength(v, in.NamePrefix, "namePrefix", 1, 64)
}

func (s *Service) listRules(_ *call, in *listRulesInput, b *bus) (any, error) {
	items, next, err := listPage(b.rules, nil, in.NamePrefix, in.pageInput, (*rule).item)
	if err != nil {
		return nil, err
	}
	return listRulesOutput{Rules: items, NextToken: next}, nil
}

// deleteRule deletes a rule without targets. Deleting a rule that does not
// exist succeeds, as AWS documents; a managed rule (an archive's) needs
// Force, which other rules ignore. An archive whose rule is deleted keeps
// no more events.
func (s *Service) deleteRule(_ *call, in *ruleRefInput, b *bus) (any, error) {
	r, ok := b.rules[*in.Name]
	if !ok {
		return nil, nil
	}
	if err := r.refuseManaged(true, in.Force); err != nil {
		return nil, err
	}
	if len(r.targets) > 0 {
		return nil, awsjson.Validation("Rule can't be deleted since it has targets.")
	}
	s.dropRuleLocked(s.tenantLocked(r.tenant), r)
	return nil, nil
}

// dropRuleLocked removes a rule from its bus and returns the routes of its
// targets for the caller to remove once the lock is released.
func (s *Service) dropRuleLocked(t *tenant, r *rule) []string {
	r.deleted = true
	s.syncRuleLocked(r)
	delete(r.bus.rules, r.name)
	delete(t.tags, r.arn)
	routes := make([]string, 0, len(r.targets))
	for _, tg := range r.targets {
		if tg.routeID != "" { // an archive's target has no route
			routes = append(routes, tg.routeID)
		}
	}
	return routes
}

// ruleState is EnableRule or DisableRule.
func ruleState(state string) func(*Service, *call, *ruleRefInput, *rule) (any, error) {
	return func(s *Service, _ *call, _ *ruleRefInput, r *rule) (any, error) {
		if err := r.refuseManaged(false, false); err != nil {
			return nil, err
		}
		return s.setRuleState(r, state)
	}
}

func (s *Service) setRuleState(r *rule, state string) (any, error) {
	if r.state == state || (state == stateEnabled && r.enabled()) {
		return nil, nil
	}
	r.state = state
	s.syncRuleLocked(r)
	return nil, nil
}
