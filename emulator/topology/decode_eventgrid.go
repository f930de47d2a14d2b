package topology

// Defaults of the eventgrid section: the ones GridBridge's testkit uses, so
// a test reaches topology resources with the testkit's own helpers.
const (
	DefaultSubscriptionID = "00000000-0000-0000-0000-000000000000"
	DefaultResourceGroup  = "gridbridge"
	DefaultLocation       = "westus"
)

// Event Grid's schema names, as ARM spells them.
const (
	schemaEventGrid   = "EventGridSchema"
	schemaCloudEvents = "CloudEventSchemaV1_0"
	schemaCustomInput = "CustomEventSchema" // a topic's inputSchema
	schemaCustomOut   = "CustomInputSchema" // a subscription's eventDeliverySchema
)

func (d *decoder) eventGrid(top *object) *EventGrid {
	sec := top.mapping("eventgrid", []string{"subscriptionId", "resourceGroup", "location", "topics", "domains", "systemTopics", "namespaces"}, false)
	if sec == nil {
		return nil
	}
	eg := &EventGrid{SubscriptionID: DefaultSubscriptionID, ResourceGroup: DefaultResourceGroup, Location: DefaultLocation}
	if sec.has("subscriptionId") {
		eg.SubscriptionID = sec.checkedText("subscriptionId", checkSegment)
	}
	if sec.has("resourceGroup") {
		eg.ResourceGroup = sec.checkedText("resourceGroup", checkSegment)
	}
	if sec.has("location") && sec.require("location") {
		eg.Location = sec.text("location")
	}
	topics := newUniqueNames("topic name", true)
	eg.Topics = decodeEach(sec.list("topics"), topics, "name", d.topic, func(t Topic) string { return t.Name })
	// Domains share the topics' name space (their endpoints are host names
	// in Azure).
	eg.Domains = decodeEach(sec.list("domains"), topics, "name", d.domain, func(dm Domain) string { return dm.Name })
	eg.SystemTopics = decodeEach(sec.list("systemTopics"), newUniqueNames("system topic name", true), "name", d.systemTopic,
		func(st SystemTopic) string { return st.Name })
	eg.Namespaces = decodeEach(sec.list("namespaces"), newUniqueNames("namespace name", true), "name", d.namespace,
		func(ns Namespace) string { return ns.Name })
	return eg
}

func (d *decoder) topic(it item) (Topic, *object) {
	o, src, name, ok := d.namedResource(it, []string{"name", "inputSchema", "inputSchemaMapping", "keys", "subscriptions"}, false, checkTopicName)
	if !ok {
		return Topic{}, nil
	}
	return d.topicFields(o, src, name), o
}

func (d *decoder) domain(it item) (Domain, *object) {
	o, src, name, ok := d.namedResource(it, []string{"name", "inputSchema", "inputSchemaMapping", "keys", "subscriptions",
		"autoCreateTopicWithFirstSubscription", "autoDeleteTopicWithLastSubscription", "topics"}, false, checkTopicName)
	if !ok {
		return Domain{}, nil
	}
	dm := Domain{Topic: d.topicFields(o, src, name)}
	if o.has("autoCreateTopicWithFirstSubscription") {
		v := o.boolean("autoCreateTopicWithFirstSubscription")
		dm.AutoCreateTopics = &v
	}
	if o.has("autoDeleteTopicWithLastSubscription") {
		v := o.boolean("autoDeleteTopicWithLastSubscription")
		dm.AutoDeleteTopics = &v
	}
	names := newUniqueNames("domain topic name", true)
	for _, tit := range o.list("topics") {
		to, src, name, ok := d.namedResource(tit, []string{"name", "subscriptions"}, false, armName(3, 50))
		if !ok {
			continue
		}
		dt := DomainTopic{Source: src, Name: name}
		names.add(to, "name", dt.Name)
		dt.Subscriptions = d.eventSubscriptions(to)
		dm.Topics = append(dm.Topics, dt)
	}
	return dm, o
}

func (d *decoder) systemTopic(it item) (SystemTopic, *object) {
	o, src, name, ok := d.namedResource(it, []string{"name", "account", "subscriptions"}, false, armName(3, 128))
	if !ok {
		return SystemTopic{}, nil
	}
	st := SystemTopic{Source: src, Name: name}
	if o.require("account") {
		st.Account = o.checkedText("account", checkStorageAccount)
	}
	st.Subscriptions = d.eventSubscriptions(o)
	return st, o
}

// eventSubscriptions reads the subscriptions list of o.
func (d *decoder) eventSubscriptions(o *object) []EventSubscription {
	return decodeEach(o.list("subscriptions"), newUniqueNames("event subscription name", true), "name", d.eventSubscription,
		func(s EventSubscription) string { return s.Name })
}

// topicFields reads what topics and domains share besides their name.
func (d *decoder) topicFields(o *object, src Source, name string) Topic {
	t := Topic{Source: src, Name: name, InputSchema: schemaEventGrid}
	if o.has("inputSchema") {
		t.InputSchema = o.choice("inputSchema", schemaEventGrid, schemaCloudEvents, schemaCustomInput)
	}
	if o.has("inputSchemaMapping") {
		t.InputSchemaMapping = o.jsonObject("inputSchemaMapping")
		if t.InputSchema != schemaCustomInput {
			o.problem("inputSchemaMapping", "applies only to a topic whose inputSchema is %s", schemaCustomInput)
		}
	}
	t.Keys = d.keys(o)
	t.Subscriptions = d.eventSubscriptions(o)
	return t
}

// keys reads an optional keys field: {key1, key2}, each base64.
func (d *decoder) keys(o *object) Keys {
	k := o.mapping("keys", []string{"key1", "key2"}, false)
	if k == nil {
		return Keys{}
	}
	return Keys{Key1: k.checkedText("key1", checkKey), Key2: k.checkedText("key2", checkKey)}
}

func (d *decoder) eventSubscription(it item) (EventSubscription, *object) {
	o, src, name, ok := d.namedResource(it, []string{"name", "webhook", "destination", "eventDeliverySchema",
		"filter", "retryPolicy", "deadLetter", "skipValidation"}, false, armName(3, 64))
	if !ok {
		return EventSubscription{}, nil
	}
	s := EventSubscription{Source: src, Name: name}
	switch {
	case o.has("webhook") && o.has("destination"):
		o.problem("destination", "cannot be set together with webhook (webhook is the short form of a WebHook destination)")
	case o.has("webhook"):
		s.Webhook = o.checkedText("webhook", checkHTTPURL)
	case o.has("destination"):
		s.Destination = o.jsonObject("destination")
	default:
		d.add(o.line, it.path, "needs webhook (an http(s) URL) or destination (an ARM destination object)")
	}
	if o.has("eventDeliverySchema") {
		s.EventDeliverySchema = o.choice("eventDeliverySchema", schemaEventGrid, schemaCloudEvents, schemaCustomOut)
	}
	if o.has("filter") {
		s.Filter = o.jsonObject("filter")
	}
	if rp := o.mapping("retryPolicy", []string{"maxDeliveryAttempts", "eventTimeToLiveInMinutes"}, false); rp != nil {
		// Azure's limits: 1 to 30 attempts, 1 minute to 1 day.
		s.RetryPolicy = &RetryPolicy{
			MaxDeliveryAttempts:      rp.intRange("maxDeliveryAttempts", 1, 30),
			EventTimeToLiveInMinutes: rp.intRange("eventTimeToLiveInMinutes", 1, 1440),
		}
	}
	if dl := o.mapping("deadLetter", []string{"account", "container"}, false); dl != nil {
		s.DeadLetter = &DeadLetter{}
		if dl.require("account") {
			s.DeadLetter.Account = dl.checkedText("account", checkStorageAccount)
		}
		if dl.require("container") {
			s.DeadLetter.Container = dl.checkedText("container", checkContainer)
		}
	}
	if o.has("skipValidation") {
		s.SkipValidation = o.boolean("skipValidation")
		if !o.has("webhook") {
			o.problem("skipValidation", "applies only to a webhook subscription")
		}
	}
	return s, o
}
