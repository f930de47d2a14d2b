package eventbridge

import (
	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// checkArchive checks the archive operations' input; creating, the event
// source is required.
func checkArchive(creating bool) func(*archiveInput, *awsjson.Violations) {
	return func(in *archiveInput, v *awsjson.Violations) {
		checkName(v, in.ArchiveName, "archiveName", 48, true)
		if creating && in.EventSourceArn == nil {
			v.Required("eventSourceArn")
		}
		checkLength(v, in.EventSourceArn, "eventSourceArn", 1, 1600)
		checkLength(v, in.Description, "description", 0, 512)
		checkLength(v, in.EventPattern, "eventPattern", 0, maxPatternLength)
		checkRange(v, in.RetentionDays, "retentionDays", 0, 1<<31-1)
	}
}

// createArchive creates the archive and, as AWS does, its managed rule
// Events-Archive-<name> on the bus, which ListRules and DescribeRule show.
func (s *Service) createArchive(c *call, in *archiveInput, t *tenant) (any, error) {
	key, busName, ok := parseBusArn(*in.EventSourceArn)
	if !ok || key != t.key {
		return nil, awsjson.Validation("Parameter EventSourceArn is not valid.")
	}
	b, ok := t.buses[busName]
	if !ok {
		return nil, awsjson.NotFound("Event bus %s does not exist.", busName)
	}
	if _, exists := t.archives[*in.ArchiveName]; exists {
		return nil, awsjson.AlreadyExists("Archive %s already exists.", *in.ArchiveName)
	}
	// The rule's name is taken by a rule of the caller's (GridBridge's
	// answer: AWS's is not documented), or the bus has its quota of rules.
	if _, taken := b.rules[archiveRulePrefix+*in.ArchiveName]; taken {
		return nil, awsjson.AlreadyExists("Rule %s%s already exists on EventBus %s.", archiveRulePrefix, *in.ArchiveName, busName)
	}
	if len(b.rules) >= maxRulesPerBus {
		return nil, awsjson.LimitExceeded()
	}
	a := &archive{
		name: *in.ArchiveName, arn: archiveArn(t.key, *in.ArchiveName), sourceArn: *in.EventSourceArn, busName: busName,
		description: in.Description, kmsKey: in.KmsKeyIdentifier, created: s.clock.Now(),
	}
	setGivenValue(&a.retentionDays, in.RetentionDays)
	if in.EventPattern != nil {
		var err error
		if a.compiled, err = parsePattern(*in.EventPattern); err != nil {
			return nil, err
		}
		a.eventPattern = in.EventPattern
	}
	t.archives[a.name] = a
	putArchiveRule(t, b, a, c.caller.Account)
	return archiveStateOutput{ArchiveArn: a.arn, stateWithReason: stateWithReason{State: archiveEnabled}, CreationTime: timestamp(a.created)}, nil
}

// findArchive finds the caller's archive the input names, with its
// expired events dropped.
func findArchive(s *Service, c *call, in *archiveInput) (*archive, error) {
	a, err := findNamed(s.callerTenantLocked(c).archives, *in.ArchiveName, "Archive %s does not exist.")
	if err != nil {
		return nil, err
	}
	a.expireLocked(s.clock.Now())
	return a, nil
}

func (s *Service) describeArchive(_ *call, _ *archiveInput, a *archive) (any, error) {
	return describeArchiveOutput{
		archiveItem: a.item(), ArchiveArn: a.arn, Description: a.description,
		EventPattern: a.eventPattern, KmsKeyIdentifier: a.kmsKey,
	}, nil
}

// archiveStates are the model's ArchiveState values, in its order.
var archiveStates = []string{"ENABLED", "DISABLED", "CREATING", "UPDATING", "CREATE_FAILED", "UPDATE_FAILED"}

func checkListArchives(in *listBySourceInput, v *awsjson.Violations) {
	checkState(v, in.State, archiveStates)
}

func (s *Service) listArchives(_ *call, in *listBySourceInput, t *tenant) (any, error) {
	if in.EventSourceArn != nil {
		key, busName, ok := parseBusArn(*in.EventSourceArn)
		if !ok {
			return nil, awsjson.Validation("Parameter EventSourceArn is not valid.")
		}
		if _, exists := s.tenantLocked(key).buses[busName]; !exists {
			return nil, awsjson.NotFound("Event bus %s does not exist.", busName)
		}
	}
	keep := func(a *archive) bool {
		// Archives are always ENABLED here: asking for another state lists none.
		return (in.EventSourceArn == nil || a.sourceArn == *in.EventSourceArn) && (in.State == nil || *in.State == archiveEnabled)
	}
	now := s.clock.Now()
	items, next, err := listPage(t.archives, keep, in.NamePrefix, in.pageInput, func(a *archive) archiveItem {
		a.expireLocked(now)
		return a.item()
	})
	if err != nil {
		return nil, err
	}
	return listArchivesOutput{Archives: items, NextToken: next}, nil
}

// updateArchive changes the members given. The archive is looked up first:
// a missing one is ResourceNotFoundException whatever else the request
// lacks; an existing one must be given something to change.
func (s *Service) updateArchive(_ *call, in *archiveInput, a *archive) (any, error) {
	if in.EventPattern == nil && in.RetentionDays == nil && in.Description == nil && in.KmsKeyIdentifier == nil {
		return nil, awsjson.Validation("At least one of EventPattern, RetentionDays or Description must be provided.")
	}
	if in.EventPattern != nil {
		compiled, err := parsePattern(*in.EventPattern)
		if err != nil {
			return nil, err
		}
		a.eventPattern, a.compiled = in.EventPattern, compiled
		if a.rule != nil && !a.rule.deleted {
			a.rule.eventPattern = ptr(archiveRulePattern(a.eventPattern))
		}
	}
	setGivenValue(&a.retentionDays, in.RetentionDays)
	setGiven(&a.description, in.Description)
	setGiven(&a.kmsKey, in.KmsKeyIdentifier)
	return archiveStateOutput{ArchiveArn: a.arn, stateWithReason: stateWithReason{State: archiveEnabled}, CreationTime: timestamp(a.created)}, nil
}

// deleteArchive deletes the archive and its managed rule (unless a Force
// DeleteRule removed that already). The rule's one target has no route, so
// nothing is left to remove from the engine.
func (s *Service) deleteArchive(c *call, _ *archiveInput, a *archive) (any, error) {
	t := s.callerTenantLocked(c)
	delete(t.archives, a.name)
	if a.rule != nil && !a.rule.deleted {
		s.dropRuleLocked(t, a.rule)
	}
	return nil, nil
}
