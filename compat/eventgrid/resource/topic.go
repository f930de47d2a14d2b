package resource

import (
	"encoding/json"
	"time"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
)

// Topic input schemas as ARM spells them.
const (
	InputEventGrid   = "EventGridSchema"
	InputCustom      = "CustomEventSchema"
	InputCloudEvents = "CloudEventSchemaV1_0"
)

// Topic is a Microsoft.EventGrid/topics resource. A stored Topic is never
// modified: an update stores a new value, so readers need no lock.
type Topic struct {
	// Type is what the value stands for: a basic topic (the zero value),
	// a domain, a domain topic or a system topic.
	Type           ResourceType
	ID             string
	SubscriptionID string
	ResourceGroup  string
	Name           string
	Location       string
	Tags           map[string]*string
	// Identity, Sku, Kind and ExtendedLocation are echoed as sent (the CLI
	// sends sku and kind); identity.type is stored in canonical casing.
	Identity, Sku, Kind, ExtendedLocation json.RawMessage

	InputSchema        string
	InputSchemaMapping *schema.InputMapping
	TopicSettings
	DomainSettings      // domains only
	SystemTopicSettings // system topics only
	// DomainID is a domain topic's domain.
	DomainID         string
	Key1, Key2       string
	MetricResourceID string
	CreatedAt        time.Time
	LastModifiedAt   time.Time
}

// TopicSettings are the topic properties a PATCH may change.
type TopicSettings struct {
	PublicNetworkAccess      string
	InboundIPRules           []InboundIPRule
	DisableLocalAuth         bool
	DataResidencyBoundary    string
	MinimumTLSVersionAllowed string
	EventTypeInfo            json.RawMessage
}

// InboundIPRule is one entry of properties.inboundIpRules.
type InboundIPRule struct {
	IPMask string `json:"ipMask,omitempty"`
	Action string `json:"action,omitempty"`
}

// Key is the topic's store key.
func (t *Topic) Key() string { return Key(t.ID) }

// EventSchema is the topic's input schema as the event model names it.
func (t *Topic) EventSchema() egevent.Schema {
	switch t.InputSchema {
	case InputCloudEvents:
		return egevent.CloudEventSchemaV10
	case InputCustom:
		return egevent.CustomInputSchema
	}
	return egevent.EventGridSchema
}

// AccessKeys lists key1 and key2.
func (t *Topic) AccessKeys() []string { return []string{t.Key1, t.Key2} }

// settingsJSON is the wire form of TopicSettings, shared by PUT and PATCH.
type settingsJSON struct {
	PublicNetworkAccess      *string         `json:"publicNetworkAccess"`
	InboundIPRules           []InboundIPRule `json:"inboundIpRules"`
	DisableLocalAuth         *bool           `json:"disableLocalAuth"`
	DataResidencyBoundary    *string         `json:"dataResidencyBoundary"`
	MinimumTLSVersionAllowed *string         `json:"minimumTlsVersionAllowed"`
	EventTypeInfo            json.RawMessage `json:"eventTypeInfo"`
}

// apply merges the members present in w into s, in canonical casing.
func (w *settingsJSON) apply(s *TopicSettings) *arm.Error {
	var err *arm.Error
	if w.PublicNetworkAccess != nil {
		if s.PublicNetworkAccess, err = canonical("properties.publicNetworkAccess", *w.PublicNetworkAccess, "Enabled", "Disabled", "SecuredByPerimeter"); err != nil {
			return err
		}
	}
	if w.InboundIPRules != nil {
		rules := make([]InboundIPRule, len(w.InboundIPRules))
		for i, r := range w.InboundIPRules {
			rules[i] = r
			if r.Action != "" {
				if rules[i].Action, err = canonical("properties.inboundIpRules.action", r.Action, "Allow"); err != nil {
					return err
				}
			}
		}
		s.InboundIPRules = rules
	}
	if w.DisableLocalAuth != nil {
		s.DisableLocalAuth = *w.DisableLocalAuth
	}
	if w.DataResidencyBoundary != nil {
		if s.DataResidencyBoundary, err = canonical("properties.dataResidencyBoundary", *w.DataResidencyBoundary, "WithinGeopair", "WithinRegion"); err != nil {
			return err
		}
	}
	if w.MinimumTLSVersionAllowed != nil {
		if s.MinimumTLSVersionAllowed, err = canonical("properties.minimumTlsVersionAllowed", *w.MinimumTLSVersionAllowed, "1.0", "1.1", "1.2"); err != nil {
			return err
		}
	}
	if len(w.EventTypeInfo) > 0 && string(w.EventTypeInfo) != "null" {
		s.EventTypeInfo = w.EventTypeInfo
	}
	return nil
}

type topicPutJSON struct {
	Location         *string            `json:"location"`
	Tags             map[string]*string `json:"tags"`
	Identity         json.RawMessage    `json:"identity"`
	Sku              json.RawMessage    `json:"sku"`
	Kind             json.RawMessage    `json:"kind"`
	ExtendedLocation json.RawMessage    `json:"extendedLocation"`
	Properties       *struct {
		InputSchema        *string         `json:"inputSchema"`
		InputSchemaMapping json.RawMessage `json:"inputSchemaMapping"`
		settingsJSON
	} `json:"properties"`
}

// TopicFromPut builds the topic a PUT describes. existing is the stored
// topic of that id, or nil for a create; its keys, creation time and input
// schema carry over (the input schema cannot change, W-EG-4.4).
func TopicFromPut(id, subscriptionID, resourceGroup, name string, body []byte, existing *Topic, now time.Time) (*Topic, *arm.Error) {
	var w topicPutJSON
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, arm.BadContent(err)
	}
	if w.Location == nil || *w.Location == "" {
		return nil, arm.BadRequest("The 'location' property is required for a topic.")
	}
	t := &Topic{
		ID: id, SubscriptionID: subscriptionID, ResourceGroup: resourceGroup, Name: name,
		Location: *w.Location, Tags: w.Tags, Sku: w.Sku, Kind: w.Kind, ExtendedLocation: w.ExtendedLocation,
		InputSchema:    InputEventGrid,
		TopicSettings:  TopicSettings{PublicNetworkAccess: "Enabled", DataResidencyBoundary: "WithinGeopair"},
		CreatedAt:      now,
		LastModifiedAt: now,
	}
	var err *arm.Error
	if t.Identity, err = canonicalIdentity("identity", w.Identity, topicIdentityTypes()...); err != nil {
		return nil, err
	}
	if p := w.Properties; p != nil {
		if t.InputSchema, err = canonicalPtr("properties.inputSchema", p.InputSchema, InputEventGrid, InputCustom, InputCloudEvents); err != nil {
			return nil, err
		}
		if t.InputSchema == "" {
			t.InputSchema = InputEventGrid
		}
		if len(p.InputSchemaMapping) > 0 && string(p.InputSchemaMapping) != "null" {
			var m schema.InputMapping
			if err := json.Unmarshal(p.InputSchemaMapping, &m); err != nil {
				return nil, arm.BadRequest("properties.inputSchemaMapping is not valid: %v.", err)
			}
			t.InputSchemaMapping = &m
		}
		if err := p.settingsJSON.apply(&t.TopicSettings); err != nil {
			return nil, err
		}
	}
	if t.InputSchemaMapping != nil && t.InputSchema != InputCustom {
		return nil, arm.BadRequest("properties.inputSchemaMapping can only be set when properties.inputSchema is CustomEventSchema.")
	}
	if existing != nil {
		if existing.InputSchema != t.InputSchema {
			return nil, arm.BadRequest("The inputSchema of topic '%s' cannot be changed from %s to %s.", name, existing.InputSchema, t.InputSchema)
		}
		t.ID, t.Name = existing.ID, existing.Name
		t.Key1, t.Key2, t.MetricResourceID, t.CreatedAt = existing.Key1, existing.Key2, existing.MetricResourceID, existing.CreatedAt
	}
	return t, nil
}

type topicPatchJSON struct {
	Tags       map[string]*string `json:"tags"`
	Identity   json.RawMessage    `json:"identity"`
	Sku        json.RawMessage    `json:"sku"`
	Properties *settingsJSON      `json:"properties"`
}

// Patched applies a PATCH (TopicUpdateParameters) to t and returns the new
// topic. A present tags object replaces every tag.
func (t *Topic) Patched(body []byte, now time.Time) (*Topic, *arm.Error) {
	var w topicPatchJSON
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, arm.BadContent(err)
	}
	n := *t
	n.InboundIPRules = append([]InboundIPRule(nil), t.InboundIPRules...)
	if w.Tags != nil {
		n.Tags = w.Tags
	}
	if len(w.Identity) > 0 && string(w.Identity) != "null" {
		var err *arm.Error
		if n.Identity, err = canonicalIdentity("identity", w.Identity, topicIdentityTypes()...); err != nil {
			return nil, err
		}
	}
	if len(w.Sku) > 0 && string(w.Sku) != "null" {
		n.Sku = w.Sku
	}
	if w.Properties != nil {
		if err := w.Properties.apply(&n.TopicSettings); err != nil {
			return nil, err
		}
	}
	n.LastModifiedAt = now
	return &n, nil
}
