package resource

import (
	"encoding/json"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
)

// trackedJSON is what ARM writes first for a topic, a domain and a system
// topic (tracked resources): id, name, type, location, tags and identity.
// Embedded, its fields stay first on the wire.
type trackedJSON struct {
	ID       string             `json:"id"`
	Name     string             `json:"name"`
	Type     string             `json:"type"`
	Location string             `json:"location"`
	Tags     map[string]*string `json:"tags,omitempty"`
	Identity json.RawMessage    `json:"identity,omitempty"`
}

func (t *Topic) tracked() trackedJSON {
	return trackedJSON{ID: t.ID, Name: t.Name, Type: t.Type.ARMType(), Location: t.Location, Tags: t.Tags, Identity: t.Identity}
}

type topicJSON struct {
	trackedJSON
	Sku              json.RawMessage `json:"sku,omitempty"`
	Kind             json.RawMessage `json:"kind,omitempty"`
	ExtendedLocation json.RawMessage `json:"extendedLocation,omitempty"`
	SystemData       arm.SystemData  `json:"systemData"`
	Properties       topicPropsJSON  `json:"properties"`
}

type topicPropsJSON struct {
	ProvisioningState        string               `json:"provisioningState"`
	Endpoint                 string               `json:"endpoint"`
	InputSchema              string               `json:"inputSchema"`
	InputSchemaMapping       *schema.InputMapping `json:"inputSchemaMapping,omitempty"`
	MetricResourceID         string               `json:"metricResourceId"`
	PublicNetworkAccess      string               `json:"publicNetworkAccess"`
	InboundIPRules           []InboundIPRule      `json:"inboundIpRules"`
	DisableLocalAuth         bool                 `json:"disableLocalAuth"`
	DataResidencyBoundary    string               `json:"dataResidencyBoundary"`
	MinimumTLSVersionAllowed string               `json:"minimumTlsVersionAllowed,omitempty"`
	EventTypeInfo            json.RawMessage      `json:"eventTypeInfo,omitempty"`
	// Domains only.
	AutoCreateTopicWithFirstSubscription *bool      `json:"autoCreateTopicWithFirstSubscription,omitempty"`
	AutoDeleteTopicWithLastSubscription  *bool      `json:"autoDeleteTopicWithLastSubscription,omitempty"`
	PrivateEndpointConnections           []struct{} `json:"privateEndpointConnections"`
}

// JSON returns the topic as ARM returns it from PUT, GET and list, with
// endpoint the topic's publish URL. GridBridge finishes every operation in
// the request, so provisioningState is always Succeeded.
func (t *Topic) JSON(endpoint string) any {
	switch t.Type {
	case TypeDomainTopic:
		return t.domainTopicJSON()
	case TypeSystemTopic:
		return t.systemTopicJSON()
	}
	rules := t.InboundIPRules
	if rules == nil {
		rules = []InboundIPRule{}
	}
	out := topicJSON{
		trackedJSON: t.tracked(), Sku: t.Sku, Kind: t.Kind, ExtendedLocation: t.ExtendedLocation,
		SystemData: arm.SystemDataAt(t.CreatedAt, t.LastModifiedAt),
		Properties: topicPropsJSON{
			ProvisioningState: "Succeeded", Endpoint: endpoint, InputSchema: t.InputSchema,
			InputSchemaMapping: t.InputSchemaMapping, MetricResourceID: t.MetricResourceID,
			PublicNetworkAccess: t.PublicNetworkAccess, InboundIPRules: rules,
			DisableLocalAuth: t.DisableLocalAuth, DataResidencyBoundary: t.DataResidencyBoundary,
			MinimumTLSVersionAllowed: t.MinimumTLSVersionAllowed, EventTypeInfo: t.EventTypeInfo,
			PrivateEndpointConnections: []struct{}{},
		},
	}
	if t.Type == TypeDomain {
		autoCreate, autoDelete := t.AutoCreateTopics, t.AutoDeleteTopics
		out.Properties.AutoCreateTopicWithFirstSubscription = &autoCreate
		out.Properties.AutoDeleteTopicWithLastSubscription = &autoDelete
	}
	return out
}

// KeysJSON is the body of listKeys and regenerateKey.
func (t *Topic) KeysJSON() any {
	return struct {
		Key1 string `json:"key1"`
		Key2 string `json:"key2"`
	}{t.Key1, t.Key2}
}
