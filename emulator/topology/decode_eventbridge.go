package topology

import (
	"encoding/json"
	"slices"
)

// Defaults of the eventbridge section: what GridBridge assumes for a caller
// whose credentials name no account or region.
const (
	DefaultRegion  = "us-east-1"
	DefaultAccount = "000000000000"
)

// defaultBus is the bus every account has; it is never created.
const defaultBus = "default"

// maxTargetsPerRule is AWS's limit; a sixth target is refused.
const maxTargetsPerRule = 5

func (d *decoder) eventBridge(top *object) *EventBridge {
	sec := top.mapping("eventbridge", []string{"region", "account", "buses", "v2", "scheduler", "pipes"}, false)
	if sec == nil {
		return nil
	}
	eb := &EventBridge{Region: DefaultRegion, Account: DefaultAccount}
	if sec.has("region") {
		eb.Region = sec.checkedText("region", checkRegion)
	}
	if sec.has("account") {
		eb.Account = sec.checkedText("account", checkAccount)
	}
	eb.Buses = decodeEach(sec.list("buses"), newUniqueNames("bus name", false), "name", d.bus, func(b Bus) string { return b.Name })
	if v2 := sec.mapping("v2", []string{"buses"}, false); v2 != nil {
		eb.V2Buses = d.v2Buses(v2)
	}
	eb.ScheduleGroups = d.scheduler(sec)
	eb.Pipes = d.pipes(sec, eb.Account)
	return eb
}

func (d *decoder) bus(it item) (Bus, *object) {
	o, src, name, ok := d.namedResource(it, []string{"name", "description", "rules"}, true, checkBusName)
	if !ok {
		return Bus{}, nil
	}
	b := Bus{Source: src, Name: name}
	if o.has("description") {
		b.Description = o.text("description")
		if b.Name == defaultBus {
			o.problem("description", "cannot be set on the default bus, which GridBridge does not create")
		}
	}
	b.Rules = decodeEach(o.list("rules"), newUniqueNames("rule name", false), "name",
		func(it item) (Rule, *object) { return d.rule(it, b.Name) }, func(r Rule) string { return r.Name })
	return b, o
}

func (d *decoder) rule(it item, bus string) (Rule, *object) {
	o, src, name, ok := d.namedResource(it, []string{"name", "description", "state", "eventPattern",
		"scheduleExpression", "roleArn", "targets"}, true, awsName(64))
	if !ok {
		return Rule{}, nil
	}
	r := Rule{Source: src, Name: name}
	if o.has("description") {
		r.Description = o.text("description")
	}
	if o.has("state") {
		r.State = o.choice("state", "ENABLED", "DISABLED", "ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS")
	}
	if o.has("eventPattern") {
		r.EventPattern = o.jsonText("eventPattern", true)
	}
	if o.has("scheduleExpression") {
		r.ScheduleExpression = o.checkedText("scheduleExpression", checkSchedule)
		if bus != defaultBus && bus != "" {
			o.problem("scheduleExpression", "is supported only on the default bus (AWS refuses a schedule on bus %q)", bus)
		}
	}
	if !o.has("eventPattern") && !o.has("scheduleExpression") {
		d.add(o.line, it.path, "needs eventPattern or scheduleExpression (or both)")
	}
	if o.has("roleArn") {
		r.RoleArn = o.checkedText("roleArn", checkARN)
	}
	targets := o.list("targets")
	if len(targets) > maxTargetsPerRule {
		o.problem("targets", "has %d targets; a rule has at most %d", len(targets), maxTargetsPerRule)
	}
	r.Targets = decodeEach(targets, newUniqueNames("target id", false), "id", d.target, func(t Target) string { return t.ID })
	return r, o
}

func (d *decoder) target(it item) (Target, *object) {
	members, o := d.awsStruct(it.node, it.path, it.line, targetShape())
	if o == nil {
		return Target{}, nil
	}
	t := Target{Source: Source{Line: o.line, Field: it.path}, Members: members}
	_ = json.Unmarshal(members["Id"], &t.ID)
	_ = json.Unmarshal(members["Arn"], &t.Arn)
	inputs := 0
	for _, m := range []string{"input", "inputPath", "inputTransformer"} {
		if o.has(m) {
			inputs++
		}
	}
	if inputs > 1 {
		d.add(o.line, it.path, "input, inputPath and inputTransformer exclude each other; set one")
	}
	return t, o
}

// targetShape is a PutTargets target, member for member.
func targetShape() []member {
	return slices.Concat([]member{
		{name: "Id", kind: textMember, required: true, check: awsName(64)},
		{name: "Arn", kind: textMember, required: true, check: checkARN},
		{name: "RoleArn", kind: textMember, check: checkARN},
		{name: "Input", kind: jsonTextMember},
		{name: "InputPath", kind: textMember},
		{name: "InputTransformer", kind: structMember, shape: []member{
			{name: "InputPathsMap", kind: textMapMember},
			{name: "InputTemplate", kind: textMember, required: true},
		}},
	}, deliveryMembers(), []member{
		{name: "HttpParameters", kind: structMember, shape: []member{
			{name: "PathParameterValues", kind: textListMember},
			{name: "HeaderParameters", kind: textMapMember},
			{name: "QueryStringParameters", kind: textMapMember},
		}},
		{name: "KinesisParameters", kind: structMember, shape: []member{
			{name: "PartitionKeyPath", kind: textMember, required: true},
		}},
		{name: "RunCommandParameters", kind: rawMember},
		{name: "EcsParameters", kind: rawMember},
		{name: "BatchParameters", kind: rawMember},
		{name: "RedshiftDataParameters", kind: rawMember},
		{name: "SageMakerPipelineParameters", kind: rawMember},
		{name: "AppSyncParameters", kind: rawMember},
	})
}

// deliveryMembers are the target members EventBridge rules and Scheduler
// schedules declare alike: retry limits, dead-letter queue, SQS FIFO group.
func deliveryMembers() []member {
	return []member{
		{name: "RetryPolicy", kind: structMember, shape: []member{
			{name: "MaximumRetryAttempts", kind: intMember},
			{name: "MaximumEventAgeInSeconds", kind: intMember},
		}},
		{name: "DeadLetterConfig", kind: structMember, shape: []member{
			{name: "Arn", kind: textMember, required: true, check: checkARN},
		}},
		{name: "SqsParameters", kind: structMember, shape: []member{
			{name: "MessageGroupId", kind: textMember},
		}},
	}
}
