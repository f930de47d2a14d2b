package eventbridge

import (
	"fmt"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/eventbridge/targets"
	"github.com/gridbridge/gridbridge/compat/eventbridge/transform"
)

// maxTargetsPerRule is EventBridge's quota of targets on one rule.
const maxTargetsPerRule = 5

// check applies the rules for the rule's name and its bus's.
func (in *targetsRule) check(v *awsjson.Violations) {
	checkName(v, in.Rule, "rule", 64, true)
	checkBusRef(v, in.EventBusName, "eventBusName")
}

func checkPutTargets(in *putTargetsInput, v *awsjson.Violations) {
	in.check(v)
	checkList(v, len(in.Targets), in.Targets == nil, "targets", "targets")
	for i, tg := range in.Targets {
		checkTargetShape(v, tg, fmt.Sprintf("targets.%d.member", i+1))
	}
}

// putTargets refuses malformed targets before it looks up the rule, so it
// decodes its input itself rather than run under op.
func (s *Service) putTargets(c *call) (any, error) {
	in, err := decode(c, checkPutTargets)
	if err != nil {
		return nil, err
	}

	// Checks that concern one target but fail the whole request, as AWS does.
	built := make([]*target, 0, len(in.Targets))
	result := targetsResult{FailedEntries: []failedEntry{}}
	for _, shape := range in.Targets {
		kind, wellFormed, supported := targets.KindOf(*shape.Arn)
		if !wellFormed {
			return nil, awsjson.Validation("Parameter %s is not valid. Reason: Provided Arn is not in correct format.", *shape.Arn)
		}
		spec := specOf(shape)
		if err := transform.Validate(spec, *shape.Id); err != nil {
			return nil, awsjson.Validation("%s", err.Error())
		}
		if kind == targets.SQS && sqssend.IsFIFO(*shape.Arn) && shape.MessageGroup() == "" {
			return nil, awsjson.Validation("Parameter(s) SqsParameters must be specified for target: %s.", *shape.Id)
		}
		if !supported {
			result.FailedEntries = append(result.FailedEntries, failedEntry{
				TargetId: *shape.Id, ErrorCode: awsjson.CodeValidation,
				ErrorMessage: fmt.Sprintf("Parameter %s is not valid. Reason: Provided Arn is not supported as a target.", *shape.Arn),
			})
			continue
		}
		built = append(built, &target{shape: shape, kind: kind, spec: spec})
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	t, r, err := s.ruleLocked(c, in.EventBusName, in.Rule)
	if err != nil {
		return nil, err
	}
	if err := r.refuseManaged(false, false); err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, existing := range r.targets {
		ids[existing.id()] = true
	}
	for _, tg := range built {
		ids[tg.id()] = true
	}
	if len(ids) > maxTargetsPerRule {
		return nil, awsjson.LimitExceeded()
	}
	for _, tg := range built {
		tg.routeID = routeID(t.key, r.bus.name, r.name, tg.id())
		if _, i := r.target(tg.id()); i >= 0 {
			r.targets[i] = tg
		} else {
			r.targets = append(r.targets, tg)
		}
		// A replaced target keeps its route: events already queued or
		// retrying continue under the new settings.
		s.engine.PutRoute(s.routeLocked(r, tg))
	}
	result.FailedEntryCount = len(result.FailedEntries)
	return result, nil
}

// checkTargetShape applies the model's constraints to one target.
func checkTargetShape(v *awsjson.Violations, tg *targetShape, path string) {
	if tg == nil {
		v.Required(path)
		return
	}
	checkName(v, tg.Id, path+".id", 64, true)
	if tg.Arn == nil {
		v.Required(path + ".arn")
	}
	checkLength(v, tg.Arn, path+".arn", 1, 1600)
	checkLength(v, tg.RoleArn, path+".roleArn", 1, 1600)
	checkLength(v, tg.Input, path+".input", 0, 8192)
	checkLength(v, tg.InputPath, path+".inputPath", 0, 256)
	if it := tg.InputTransformer; it != nil {
		p := path + ".inputTransformer"
		if it.InputTemplate == nil {
			v.Required(p + ".inputTemplate")
		}
		checkLength(v, it.InputTemplate, p+".inputTemplate", 1, 8192)
		if len(it.InputPathsMap) > 100 {
			v.Add(ptr(fmt.Sprintf("{%d entries}", len(it.InputPathsMap))), p+".inputPathsMap", awsjson.MaxLength(100))
		}
		for key, value := range it.InputPathsMap {
			if !inputPathKeyPattern.MatchString(key) || len(key) > 256 {
				v.Add(ptr(key), p+".inputPathsMap", "Map keys must satisfy constraint: [Member must satisfy regular expression pattern: [A-Za-z0-9\\_\\-]+]")
			}
			if len(value) > 256 {
				v.Add(ptr(value), p+".inputPathsMap", "Map value must satisfy constraint: [Member must have length less than or equal to 256]")
			}
		}
	}
	if rp := tg.RetryPolicy; rp != nil {
		checkRange(v, rp.MaximumRetryAttempts, path+".retryPolicy.maximumRetryAttempts", 0, 185)
		checkRange(v, rp.MaximumEventAgeInSeconds, path+".retryPolicy.maximumEventAgeInSeconds", 60, 86400)
	}
	if dl := tg.DeadLetterConfig; dl != nil {
		checkLength(v, dl.Arn, path+".deadLetterConfig.arn", 1, 1600)
	}
	if sp := tg.SqsParameters; sp != nil {
		checkLength(v, sp.MessageGroupId, path+".sqsParameters.messageGroupId", 0, 128)
	}
}

func specOf(t *targetShape) transform.Spec {
	s := transform.Spec{Input: t.Input, InputPath: t.InputPath}
	if it := t.InputTransformer; it != nil {
		s.Transformer = &transform.Transformer{PathsMap: it.InputPathsMap, Template: deref(it.InputTemplate)}
	}
	return s
}

// checkList applies a list member's constraints: required, 1 to 100
// entries. noun names the entries in the message.
func checkList(v *awsjson.Violations, n int, missing bool, path, noun string) {
	switch {
	case missing:
		v.Required(path)
	case n == 0:
		v.Add(ptr("[]"), path, awsjson.MinLength(1))
	case n > 100:
		v.Add(ptr(fmt.Sprintf("[%d %s]", n, noun)), path, awsjson.MaxLength(100))
	}
}

func checkRemoveTargets(in *removeTargetsInput, v *awsjson.Violations) {
	in.check(v)
	checkList(v, len(in.Ids), in.Ids == nil, "ids", "ids")
	for i, id := range in.Ids {
		checkName(v, id, fmt.Sprintf("ids.%d.member", i+1), 64, true)
	}
}

// removeTargets releases the lock before it removes the engine routes, so
// it decodes its input itself rather than run under op.
func (s *Service) removeTargets(c *call) (any, error) {
	in, err := decode(c, checkRemoveTargets)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	_, r, err := s.ruleLocked(c, in.EventBusName, in.Rule)
	if err == nil {
		err = r.refuseManaged(true, in.Force)
	}
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	result := targetsResult{FailedEntries: []failedEntry{}}
	var removed []string
	for _, id := range in.Ids {
		tg, i := r.target(*id)
		if tg == nil {
			result.FailedEntries = append(result.FailedEntries, failedEntry{
				TargetId: *id, ErrorCode: awsjson.CodeResourceNotFound,
				ErrorMessage: fmt.Sprintf("Rule %s does not have a target with the Id %s.", r.name, *id),
			})
			continue
		}
		r.targets = append(r.targets[:i], r.targets[i+1:]...)
		if tg.routeID != "" { // an archive's target has no route
			removed = append(removed, tg.routeID)
		}
	}
	s.mu.Unlock()
	for _, id := range removed {
		s.engine.RemoveRoute(id, "TargetRemoved")
	}
	result.FailedEntryCount = len(result.FailedEntries)
	return result, nil
}

func checkListTargetsByRule(in *listTargetsByRuleInput, v *awsjson.Violations) { in.check(v) }

func (s *Service) listTargetsByRule(_ *call, in *listTargetsByRuleInput, r *rule) (any, error) {
	ids := make([]string, 0, len(r.targets))
	for _, tg := range r.targets {
		ids = append(ids, tg.id())
	}
	page, next, err := pageOf(ids, in.pageInput)
	if err != nil {
		return nil, err
	}
	out := listTargetsByRuleOutput{Targets: make([]*targetShape, 0, len(page)), NextToken: next}
	for _, id := range page {
		tg, _ := r.target(id)
		out.Targets = append(out.Targets, tg.shape)
	}
	return out, nil
}

func checkListRuleNamesByTarget(in *listRuleNamesByTargetInput, v *awsjson.Violations) {
	awsjson.Require(v, in.TargetArn, "targetArn")
	checkLength(v, in.TargetArn, "targetArn", 1, 1600)
	checkBusRef(v, in.EventBusName, "eventBusName")
}

func (s *Service) listRuleNamesByTarget(_ *call, in *listRuleNamesByTargetInput, b *bus) (any, error) {
	var names []string
	for name, r := range b.rules {
		for _, tg := range r.targets {
			if tg.arn() == *in.TargetArn {
				names = append(names, name)
				break
			}
		}
	}
	page, next, err := pageOf(names, in.pageInput)
	if err != nil {
		return nil, err
	}
	return listRuleNamesByTargetOutput{RuleNames: append([]string{}, page...), NextToken: next}, nil
}
