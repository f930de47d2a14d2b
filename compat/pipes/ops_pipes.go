package pipes

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

func ts(t time.Time) awsjson.Timestamp { return awsjson.Timestamp{Time: t} }

// findLocked returns the pipe the request's path names.
func (s *Service) findLocked(c *call) (*pipe, *awsjson.Error) {
	name := c.vars["Name"]
	if err := checkName(name); err != nil {
		return nil, err
	}
	p := s.tenants[c.tenantKey()][name]
	if p == nil {
		return nil, notFound(name)
	}
	return p, nil
}

func (s *Service) createPipe(c *call) (any, *awsjson.Error) {
	name := c.vars["Name"]
	if err := checkName(name); err != nil {
		return nil, err
	}
	var in pipeInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if err := checkMembers(&in, true); err != nil {
		return nil, err
	}
	key := c.tenantKey()
	set, err := validate(in, key)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tenants[key]
	if t == nil {
		t = map[string]*pipe{}
		s.tenants[key] = t
	}
	if _, ok := t[name]; ok {
		return nil, conflict(name, "Pipe %s already exists.", name)
	}
	if len(t) >= maxPipes {
		return nil, quotaExceeded(name)
	}
	s.routeSeq++
	now := s.clock.Now()
	p := &pipe{
		name: name, arn: pipeArn(key, name), key: key, set: set, created: now, modified: now,
		desired: stateRunning, tags: map[string]string{}, stats: newStats(),
		routeID: "pipes/" + key.account + "/" + key.region + "/" + name + "#" + strconv.FormatUint(s.routeSeq, 10),
	}
	if in.DesiredState != nil {
		p.desired = *in.DesiredState
	}
	for k, v := range in.Tags {
		p.tags[k] = v
	}
	set.in.Tags = nil
	p.set = set
	t[name] = p
	// The answer says CREATING, as AWS's does; the pipe has already
	// settled where it rests, so the next call sees RUNNING (or why not).
	s.settleLocked(p, stateCreateFailed)
	return p.stateOutputAs(p.desired, stateCreating), nil
}

func (s *Service) describePipe(c *call) (any, *awsjson.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.findLocked(c)
	if err != nil {
		return nil, err
	}
	in := p.set.in
	out := describeOutput{
		Arn: p.arn, Name: p.name, Description: in.Description, DesiredState: p.desired, CurrentState: p.current,
		Source: *in.Source, SourceParameters: in.SourceParameters, Enrichment: in.Enrichment,
		EnrichmentParameters: in.EnrichmentParameters, Target: *in.Target, TargetParameters: in.TargetParameters,
		RoleArn: *in.RoleArn, Tags: p.tags, CreationTime: ts(p.created), LastModifiedTime: ts(p.modified),
		LogConfiguration: in.LogConfiguration, KmsKeyIdentifier: in.KmsKeyIdentifier,
	}
	if p.reason != "" {
		out.StateReason = &p.reason
	}
	return out, nil
}

// updatePipe changes what the request gives and keeps the rest. A member
// of SourceParameters, EnrichmentParameters or TargetParameters given is
// replaced whole, its members left out back at their defaults, as AWS
// documents; an empty FilterCriteria removes the filters, an empty
// Enrichment the enrichment.
func (s *Service) updatePipe(c *call) (any, *awsjson.Error) {
	name := c.vars["Name"]
	if err := checkName(name); err != nil {
		return nil, err
	}
	var in pipeInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	// UpdatePipe has neither member: a raw request's are ignored.
	in.Source, in.Tags = nil, nil
	if err := checkMembers(&in, false); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, apiErr := s.findLocked(c)
	if apiErr != nil {
		return nil, apiErr
	}
	merged := merge(p.set.in, in)
	set, apiErr := validate(merged, p.key)
	if apiErr != nil {
		return nil, apiErr
	}
	if in.DesiredState != nil {
		p.desired = *in.DesiredState
	}
	p.set, p.modified = set, s.clock.Now()
	s.stopLocked(p)
	s.settleLocked(p, stateUpdateFailed)
	return p.stateOutputAs(p.desired, stateUpdating), nil
}

// merge applies an UpdatePipe body to a pipe's configuration.
func merge(old, in pipeInput) pipeInput {
	out := old
	if in.Description != nil {
		out.Description = in.Description
	}
	if in.Enrichment != nil {
		out.Enrichment = in.Enrichment
	}
	if in.EnrichmentParameters != nil {
		out.EnrichmentParameters = in.EnrichmentParameters
	}
	if in.Target != nil {
		out.Target = in.Target
	}
	out.RoleArn = in.RoleArn
	if len(in.LogConfiguration) > 0 {
		out.LogConfiguration = in.LogConfiguration
	}
	if in.KmsKeyIdentifier != nil {
		out.KmsKeyIdentifier = in.KmsKeyIdentifier
	}
	if sp := in.SourceParameters; sp != nil {
		var cur sourceParameters
		if out.SourceParameters != nil {
			cur = *out.SourceParameters
		}
		if sp.FilterCriteria != nil {
			cur.FilterCriteria = sp.FilterCriteria
			if len(sp.FilterCriteria.Filters) == 0 {
				cur.FilterCriteria = nil
			}
		}
		if sp.SqsQueueParameters != nil {
			cur.SqsQueueParameters = sp.SqsQueueParameters
		}
		mergeRaw(&cur.KinesisStreamParameters, sp.KinesisStreamParameters)
		mergeRaw(&cur.DynamoDBStreamParameters, sp.DynamoDBStreamParameters)
		mergeRaw(&cur.ActiveMQBrokerParameters, sp.ActiveMQBrokerParameters)
		mergeRaw(&cur.RabbitMQBrokerParameters, sp.RabbitMQBrokerParameters)
		mergeRaw(&cur.ManagedStreamingKafkaParameters, sp.ManagedStreamingKafkaParameters)
		mergeRaw(&cur.SelfManagedKafkaParameters, sp.SelfManagedKafkaParameters)
		out.SourceParameters = &cur
	}
	if tp := in.TargetParameters; tp != nil {
		var cur targetParameters
		if out.TargetParameters != nil && (in.Target == nil || *in.Target == *old.Target) {
			cur = *out.TargetParameters
		}
		if tp.InputTemplate != nil {
			cur.InputTemplate = tp.InputTemplate
		}
		if tp.LambdaFunctionParameters != nil {
			cur.LambdaFunctionParameters = tp.LambdaFunctionParameters
		}
		if tp.StepFunctionStateMachineParameters != nil {
			cur.StepFunctionStateMachineParameters = tp.StepFunctionStateMachineParameters
		}
		if tp.SqsQueueParameters != nil {
			cur.SqsQueueParameters = tp.SqsQueueParameters
		}
		if tp.HttpParameters != nil {
			cur.HttpParameters = tp.HttpParameters
		}
		if tp.EventBridgeEventBusParameters != nil {
			cur.EventBridgeEventBusParameters = tp.EventBridgeEventBusParameters
		}
		mergeRaw(&cur.KinesisStreamParameters, tp.KinesisStreamParameters)
		mergeRaw(&cur.EcsTaskParameters, tp.EcsTaskParameters)
		mergeRaw(&cur.BatchJobParameters, tp.BatchJobParameters)
		mergeRaw(&cur.RedshiftDataParameters, tp.RedshiftDataParameters)
		mergeRaw(&cur.SageMakerPipelineParameters, tp.SageMakerPipelineParameters)
		mergeRaw(&cur.CloudWatchLogsParameters, tp.CloudWatchLogsParameters)
		mergeRaw(&cur.TimestreamParameters, tp.TimestreamParameters)
		out.TargetParameters = &cur
	}
	return out
}

func mergeRaw(dst *json.RawMessage, given json.RawMessage) {
	if len(given) > 0 {
		*dst = given
	}
}

// deletePipe stops the pipe and forgets it. Messages it holds in flight
// return to the source when their visibility timeout ends.
func (s *Service) deletePipe(c *call) (any, *awsjson.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.findLocked(c)
	if err != nil {
		return nil, err
	}
	s.stopLocked(p)
	delete(s.tenants[p.key], p.name)
	return p.stateOutputAs(desiredDeleted, stateDeleting), nil
}

func (s *Service) startPipe(c *call) (any, *awsjson.Error) {
	return s.setDesired(c, stateRunning)
}

func (s *Service) stopPipe(c *call) (any, *awsjson.Error) {
	return s.setDesired(c, stateStopped)
}

// setDesired starts or stops a pipe. Asking a pipe for the state it is
// already in changes nothing; a failed pipe tries again.
func (s *Service) setDesired(c *call, desired string) (any, *awsjson.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.findLocked(c)
	if err != nil {
		return nil, err
	}
	if p.desired == desired && p.current == desired {
		return p.stateOutput(), nil
	}
	p.desired, p.modified = desired, s.clock.Now()
	transit, failed := stateStarting, stateStartFailed
	if desired == stateStopped {
		transit, failed = stateStopping, stateStopFailed
		s.stopLocked(p)
	}
	s.settleLocked(p, failed)
	return p.stateOutputAs(p.desired, transit), nil
}

// listPipes lists the caller's pipes by name, filtered by the request's
// prefixes and states.
func (s *Service) listPipes(c *call) (any, *awsjson.Error) {
	var v violations
	limit := 100
	if l := c.param("Limit"); l != "" {
		n, err := strconv.Atoi(l)
		switch {
		case err != nil:
			return nil, validation("The value of Limit is not an integer: %q.", l)
		case n < 1:
			v.add(&l, "limit", awsjson.MinValue(1))
		case n > 100:
			v.add(&l, "limit", awsjson.MaxValue(100))
		}
		limit = n
	}
	namePrefix, sourcePrefix, targetPrefix := c.param("NamePrefix"), c.param("SourcePrefix"), c.param("TargetPrefix")
	if len(namePrefix) > maxNameLength || namePrefix != "" && !namePattern.MatchString(namePrefix) {
		v.add(&namePrefix, "namePrefix", awsjson.Pattern(`[\.\-_A-Za-z0-9]+`))
	}
	desired, current := c.param("DesiredState"), c.param("CurrentState")
	if desired != "" && desired != stateRunning && desired != stateStopped {
		v.add(&desired, "desiredState", awsjson.Enum(stateRunning, stateStopped))
	}
	if current != "" && !contains(pipeStates, current) {
		v.add(&current, "currentState", awsjson.Enum(pipeStates...))
	}
	token := c.param("NextToken")
	if len(token) > 2048 {
		v.addSecret("nextToken", lengthBetween(1, 2048))
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	after := ""
	if token != "" {
		raw, err := base64.RawURLEncoding.DecodeString(token)
		name, ok := strings.CutPrefix(string(raw), "after:")
		if err != nil || !ok {
			return nil, validation("The NextToken is not valid.")
		}
		after = name
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := func(p *pipe) bool {
		return strings.HasPrefix(p.name, namePrefix) && strings.HasPrefix(*p.set.in.Source, sourcePrefix) &&
			strings.HasPrefix(*p.set.in.Target, targetPrefix) &&
			(desired == "" || p.desired == desired) && (current == "" || p.current == current)
	}
	items, next, _ := awsjson.ListPage(s.tenants[c.tenantKey()], keep, func(names []string) ([]string, *string, error) {
		page, more := awsjson.Page(names, after, limit)
		if !more || len(page) == 0 {
			return page, nil, nil
		}
		// The token names the last pipe of the page, so a page never
		// repeats or skips one when pipes come and go between calls.
		tok := base64.RawURLEncoding.EncodeToString([]byte("after:" + page[len(page)-1]))
		return page, &tok, nil
	}, func(p *pipe) summary {
		out := summary{
			Name: p.name, Arn: p.arn, DesiredState: p.desired, CurrentState: p.current,
			CreationTime: ts(p.created), LastModifiedTime: ts(p.modified),
			Source: *p.set.in.Source, Target: *p.set.in.Target, Enrichment: p.set.in.Enrichment,
		}
		if p.reason != "" {
			out.StateReason = &p.reason
		}
		return out
	})
	return struct {
		Pipes     []summary `json:"Pipes"`
		NextToken *string   `json:"NextToken,omitempty"`
	}{items, next}, nil
}
