package topology

// Retention limits of an event bus v2: one hour to 365 days.
const (
	minV2Retention = 3600
	maxV2Retention = 365 * 24 * 3600
)

func (d *decoder) v2Buses(v2 *object) []V2Bus {
	var out []V2Bus
	buses := newUniqueNames("v2 bus name", false)
	// Subscriber names are unique in the account and region, not per bus.
	subscribers := newUniqueNames("subscriber name", false)
	for _, it := range v2.list("buses") {
		o, src, name, ok := d.namedResource(it, []string{"name", "description", "retentionPeriodInSeconds", "subscribers"}, true, awsName(256))
		if !ok {
			continue
		}
		b := V2Bus{Source: src, Name: name}
		buses.add(o, "name", b.Name)
		if o.has("description") {
			b.Description = o.text("description")
		}
		b.RetentionPeriodInSeconds = o.intRange("retentionPeriodInSeconds", minV2Retention, maxV2Retention)
		for _, sit := range o.list("subscribers") {
			members, so, src, name, ok := d.awsNamed(sit, subscriberShape())
			if !ok {
				continue
			}
			s := Subscriber{Source: src, Name: name, Members: members}
			subscribers.add(so, "name", s.Name)
			b.Subscribers = append(b.Subscribers, s)
		}
		out = append(out, b)
	}
	return out
}

// subscriberShape is a CreateSubscriber request without EventBusArn, which
// Apply fills with the bus the subscriber is declared under.
func subscriberShape() []member {
	return []member{
		{name: "Name", kind: textMember, required: true, check: awsName(64)},
		{name: "Description", kind: textMember},
		{name: "InvokeConfiguration", kind: structMember, required: true, shape: []member{
			{name: "TargetArn", kind: textMember, required: true, check: checkARNOrURL},
			{name: "RoleArn", kind: textMember, check: checkARN},
			{name: "InvocationTimeoutSeconds", kind: intMember},
			{name: "MaxBatchSize", kind: intMember},
			{name: "Input", kind: textMember},
			{name: "Transformer", kind: structMember, shape: []member{
				{name: "InputPathsMap", kind: textMapMember},
				{name: "InputTemplate", kind: textMember, required: true},
			}},
		}},
		{name: "FilterConfiguration", kind: structMember, shape: []member{
			{name: "Filters", kind: structListMember, required: true, shape: []member{
				{name: "Scope", kind: textMember, required: true},
				{name: "Pattern", kind: jsonObjectMember, required: true},
			}},
		}},
		{name: "RetryPolicy", kind: structMember, shape: []member{
			{name: "MaxRetryAttempts", kind: intMember},
			{name: "MaxEventAgeInSeconds", kind: intMember},
		}},
		{name: "OnFailureConfiguration", kind: structMember, shape: []member{
			{name: "Arn", kind: textMember, required: true, check: checkARN},
		}},
	}
}
