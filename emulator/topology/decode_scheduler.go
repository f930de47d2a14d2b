package topology

import (
	"encoding/json"
	"slices"
	"strings"
)

// defaultScheduleGroup exists in every account and is never created.
const defaultScheduleGroup = "default"

// scheduler reads eventbridge.scheduler: schedule groups, each with its
// schedules. Schedules of the default group go under a group named
// "default", which is not created.
func (d *decoder) scheduler(sec *object) []ScheduleGroup {
	sch := sec.mapping("scheduler", []string{"groups"}, false)
	if sch == nil {
		return nil
	}
	var out []ScheduleGroup
	groups := newUniqueNames("schedule group name", false)
	for _, it := range sch.list("groups") {
		o, src, name, ok := d.namedResource(it, []string{"name", "tags", "schedules"}, true, checkScheduleName)
		if !ok {
			continue
		}
		g := ScheduleGroup{Source: src, Name: name}
		groups.add(o, "name", g.Name)
		if o.has("tags") {
			if g.Name == defaultScheduleGroup {
				o.problem("tags", "cannot be set on the default schedule group, which GridBridge does not create")
			}
			path, line := o.field("tags")
			g.Tags = d.textMap(o.value("tags"), path, line)
		}
		names := newUniqueNames("schedule name", false)
		for _, sit := range o.list("schedules") {
			members, so, src, name, ok := d.awsNamed(sit, scheduleShape())
			if !ok {
				continue
			}
			s := Schedule{Source: src, Name: name, Members: members}
			delete(s.Members, "Name") // the name is the request's path
			if _, ok := members["FlexibleTimeWindow"]; !ok {
				// Required by the API; a file means "at the time" when it says nothing.
				s.Members["FlexibleTimeWindow"] = json.RawMessage(`{"Mode":"OFF"}`)
			}
			names.add(so, "name", s.Name)
			g.Schedules = append(g.Schedules, s)
		}
		out = append(out, g)
	}
	return out
}

// checkScheduleName is Scheduler's name pattern for schedules and groups.
func checkScheduleName(s string) string {
	if s == "" || len(s) > 64 || strings.Trim(s, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_.") != "" {
		return "must be 1-64 letters, digits, hyphens, underscores or dots"
	}
	return ""
}

func checkScheduleExpression(s string) string {
	for _, p := range []string{"at(", "rate(", "cron("} {
		if strings.HasPrefix(s, p) && strings.HasSuffix(s, ")") {
			return ""
		}
	}
	return "must be at(…), rate(…) or cron(…), e.g. rate(5 minutes)"
}

// scheduleShape is a CreateSchedule request, Name included, GroupName
// filled in by Apply. Dates are not offered: a file has no clock to be
// relative to.
func scheduleShape() []member {
	return []member{
		{name: "Name", kind: textMember, required: true, check: checkScheduleName},
		{name: "ScheduleExpression", kind: textMember, required: true, check: checkScheduleExpression},
		{name: "ScheduleExpressionTimezone", kind: textMember},
		{name: "Description", kind: textMember},
		{name: "State", kind: textMember},
		{name: "ActionAfterCompletion", kind: textMember},
		{name: "KmsKeyArn", kind: textMember, check: checkARN},
		{name: "FlexibleTimeWindow", kind: structMember, shape: []member{
			{name: "Mode", kind: textMember, required: true},
			{name: "MaximumWindowInMinutes", kind: intMember},
		}},
		{name: "Target", kind: structMember, required: true, shape: slices.Concat([]member{
			{name: "Arn", kind: textMember, required: true, check: checkARN},
			{name: "RoleArn", kind: textMember, required: true, check: checkARN},
			{name: "Input", kind: inputMember},
		}, deliveryMembers(), []member{
			{name: "EventBridgeParameters", kind: structMember, shape: []member{
				{name: "DetailType", kind: textMember, required: true},
				{name: "Source", kind: textMember, required: true},
			}},
			{name: "EcsParameters", kind: rawMember},
			{name: "KinesisParameters", kind: rawMember},
			{name: "SageMakerPipelineParameters", kind: rawMember},
		})},
	}
}
