package topology

import "encoding/json"

func (d *decoder) namespace(it item) (Namespace, *object) {
	o, src, name, ok := d.namedResource(it, []string{"name", "keys", "topics"}, false, armName(3, 50))
	if !ok {
		return Namespace{}, nil
	}
	ns := Namespace{Source: src, Name: name}
	ns.Keys = d.keys(o)
	ns.Topics = decodeEach(o.list("topics"), newUniqueNames("namespace topic name", true), "name", d.namespaceTopic,
		func(t NamespaceTopic) string { return t.Name })
	return ns, o
}

func (d *decoder) namespaceTopic(it item) (NamespaceTopic, *object) {
	o, src, name, ok := d.namedResource(it, []string{"name", "eventRetentionInDays", "keys", "subscriptions"}, false, armName(3, 50))
	if !ok {
		return NamespaceTopic{}, nil
	}
	t := NamespaceTopic{Source: src, Name: name}
	t.EventRetentionInDays = o.intRange("eventRetentionInDays", 1, 7)
	t.Keys = d.keys(o)
	t.Subscriptions = decodeEach(o.list("subscriptions"), newUniqueNames("event subscription name", true), "name", d.namespaceSubscription,
		func(s NamespaceSubscription) string { return s.Name })
	return t, o
}

// namespaceSubscription reads a namespace event subscription. The short
// forms: nothing (a queue with the defaults), queue: {…} (a queue with
// those settings), webhook: URL with an optional push: {…} (push delivery);
// or deliveryConfiguration as ARM takes it.
func (d *decoder) namespaceSubscription(it item) (NamespaceSubscription, *object) {
	o, src, name, ok := d.namedResource(it, []string{"name", "webhook", "queue", "push",
		"deliveryConfiguration", "eventDeliverySchema", "filtersConfiguration", "skipValidation"}, false, armName(3, 50))
	if !ok {
		return NamespaceSubscription{}, nil
	}
	s := NamespaceSubscription{Source: src, Name: name}
	s.DeliveryConfiguration = d.deliveryConfiguration(o)
	if o.has("eventDeliverySchema") {
		s.EventDeliverySchema = o.text("eventDeliverySchema")
	}
	if o.has("filtersConfiguration") {
		s.FiltersConfiguration = o.jsonObject("filtersConfiguration")
	}
	if o.has("skipValidation") {
		s.SkipValidation = o.boolean("skipValidation")
		if !o.has("webhook") && !o.has("deliveryConfiguration") {
			o.problem("skipValidation", "applies only to a push subscription")
		}
	}
	return s, o
}

func (d *decoder) deliveryConfiguration(o *object) json.RawMessage {
	for _, short := range []string{"webhook", "queue", "push"} {
		if o.has("deliveryConfiguration") && o.has(short) {
			o.problem(short, "cannot be set together with deliveryConfiguration")
			return nil
		}
	}
	switch {
	case o.has("deliveryConfiguration"):
		return o.jsonObject("deliveryConfiguration")
	case o.has("queue") && (o.has("webhook") || o.has("push")):
		o.problem("queue", "cannot be set together with webhook or push: a subscription is a queue or pushes")
		return nil
	case o.has("push") && !o.has("webhook"):
		o.problem("push", "needs webhook, the URL to push to")
		return nil
	case o.has("webhook"):
		url := o.checkedText("webhook", checkHTTPURL)
		push := map[string]json.RawMessage{}
		if o.has("push") && json.Unmarshal(o.jsonObject("push"), &push) != nil {
			return nil // the problem is reported
		}
		if _, set := push["destination"]; set {
			o.problem("push", "must not hold a destination: webhook is the destination")
			return nil
		}
		dest, _ := json.Marshal(map[string]any{"endpointType": "WebHook", "properties": map[string]string{"endpointUrl": url}})
		push["destination"] = dest
		out, _ := json.Marshal(map[string]any{"deliveryMode": "Push", "push": push})
		return out
	}
	queue := json.RawMessage(`{}`)
	if o.has("queue") {
		queue = o.jsonObject("queue")
	}
	out, _ := json.Marshal(map[string]any{"deliveryMode": "Queue", "queue": queue})
	return out
}
