package eventbridge

import (
	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

func checkStartReplay(in *startReplayInput, v *awsjson.Violations) {
	checkName(v, in.ReplayName, "replayName", 64, true)
	awsjson.Require(v, in.EventSourceArn, "eventSourceArn")
	checkLength(v, in.EventSourceArn, "eventSourceArn", 1, 1600)
	awsjson.Require(v, in.EventStartTime, "eventStartTime")
	awsjson.Require(v, in.EventEndTime, "eventEndTime")
	if in.Destination == nil {
		v.Required("destination")
	} else if in.Destination.Arn == nil {
		v.Required("destination.arn")
	}
	checkLength(v, in.Description, "description", 0, 512)
}

func (s *Service) startReplay(_ *call, in *startReplayInput, t *tenant) (any, error) {
	_, archiveName, _ := parseNamedArn(*in.EventSourceArn, "archive")
	a, ok := t.archives[archiveName]
	if !ok {
		return nil, awsjson.Validation("Parameter EventSourceArn is not valid. Reason: Archive %s does not exist.", archiveName)
	}
	if !in.EventEndTime.After(in.EventStartTime.Time) {
		return nil, awsjson.Validation("Parameter EventEndTime is not valid. Reason: EventStartTime must be before EventEndTime.")
	}
	key, busName, ok := parseBusArn(*in.Destination.Arn)
	if !ok {
		return nil, awsjson.Validation("Parameter Destination.Arn is not valid.")
	}
	if _, exists := s.tenantLocked(key).buses[busName]; !exists {
		return nil, awsjson.NotFound("Event bus %s does not exist.", busName)
	}
	if *in.Destination.Arn != a.sourceArn {
		return nil, awsjson.Validation("Parameter Destination.Arn is not valid. Reason: Cross event bus replay is not permitted.")
	}
	if _, exists := t.replays[*in.ReplayName]; exists {
		return nil, awsjson.AlreadyExists("Replay %s already exists.", *in.ReplayName)
	}
	active := 0
	for _, rp := range t.replays {
		if rp.active() {
			active++
		}
	}
	if active >= maxActiveReplays {
		return nil, awsjson.LimitExceeded()
	}
	rp := &replay{
		name: *in.ReplayName, arn: replayArn(t.key, *in.ReplayName), description: in.Description,
		archiveArn: *in.EventSourceArn, archiveName: archiveName,
		start: in.EventStartTime.Time, end: in.EventEndTime.Time, destination: *in.Destination,
		state: replayStarting, startedAt: s.clock.Now(),
	}
	t.replays[rp.name] = rp
	s.scheduleReplayLocked(t, rp)
	return replayStateOutput{ReplayArn: rp.arn, stateWithReason: stateWithReason{State: rp.state}, ReplayStartTime: timestamp(rp.startedAt)}, nil
}

func checkReplayName(in *replayNameInput, v *awsjson.Violations) {
	checkName(v, in.ReplayName, "replayName", 64, true)
}

// findReplay finds the caller's replay the input names.
func findReplay(s *Service, c *call, in *replayNameInput) (*replay, error) {
	return findNamed(s.callerTenantLocked(c).replays, *in.ReplayName, "Replay %s does not exist.")
}

func (s *Service) describeReplay(_ *call, _ *replayNameInput, rp *replay) (any, error) {
	return describeReplayOutput{replayItem: rp.item(), ReplayArn: rp.arn, Description: rp.description, Destination: &rp.destination}, nil
}

// replayStates are the model's ReplayState values, in its order.
var replayStates = []string{replayStarting, replayRunning, replayCancelling, replayCompleted, replayCancelled, replayFailed}

func checkListReplays(in *listBySourceInput, v *awsjson.Violations) {
	checkState(v, in.State, replayStates)
}

func (s *Service) listReplays(_ *call, in *listBySourceInput, t *tenant) (any, error) {
	keep := func(rp *replay) bool {
		return (in.State == nil || rp.state == *in.State) && (in.EventSourceArn == nil || rp.archiveArn == *in.EventSourceArn)
	}
	items, next, err := listPage(t.replays, keep, in.NamePrefix, in.pageInput, (*replay).item)
	if err != nil {
		return nil, err
	}
	return listReplaysOutput{Replays: items, NextToken: next}, nil
}

func (s *Service) cancelReplay(_ *call, _ *replayNameInput, rp *replay) (any, error) {
	if !rp.active() {
		return nil, awsjson.NewError(awsjson.CodeIllegalStatus, "Replay "+rp.name+" is not in a valid state for this operation.")
	}
	rp.state = replayCancelling
	return replayStateOutput{ReplayArn: rp.arn, stateWithReason: stateWithReason{State: rp.state}}, nil
}
