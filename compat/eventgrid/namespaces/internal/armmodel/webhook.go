package armmodel

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/push"
)

// Destination is a push subscription's destination, keyed by endpointType.
type Destination struct {
	EndpointType string             `json:"endpointType"`
	Properties   *WebHookProperties `json:"properties,omitempty"`
}

// WebHookProperties are a webhook destination's settings.
type WebHookProperties struct {
	EndpointURL                            string                     `json:"endpointUrl,omitempty"`
	EndpointBaseURL                        string                     `json:"endpointBaseUrl,omitempty"`
	MaxEventsPerBatch                      *int                       `json:"maxEventsPerBatch,omitempty"`
	PreferredBatchSizeInKilobytes          *int                       `json:"preferredBatchSizeInKilobytes,omitempty"`
	AzureActiveDirectoryTenantID           *string                    `json:"azureActiveDirectoryTenantId,omitempty"`
	AzureActiveDirectoryApplicationIDOrURI *string                    `json:"azureActiveDirectoryApplicationIdOrUri,omitempty"`
	DeliveryAttributeMappings              []DeliveryAttributeMapping `json:"deliveryAttributeMappings,omitempty"`
	MinimumTLSVersionAllowed               *string                    `json:"minimumTlsVersionAllowed,omitempty"`
}

// DeliveryAttributeMapping is one custom delivery header.
type DeliveryAttributeMapping struct {
	Name       string             `json:"name"`
	Type       string             `json:"type"`
	Properties *MappingProperties `json:"properties,omitempty"`
}

// MappingProperties hold a static value or a dynamic source field.
type MappingProperties struct {
	Value       *string `json:"value,omitempty"`
	IsSecret    *bool   `json:"isSecret,omitempty"`
	SourceField *string `json:"sourceField,omitempty"`
}

// DeliveryWithResourceIdentity is a destination reached with the namespace's
// managed identity; GridBridge delivers to it the same way.
type DeliveryWithResourceIdentity struct {
	Identity    json.RawMessage `json:"identity,omitempty"`
	Destination *Destination    `json:"destination,omitempty"`
}

// Limits of webhook destinations (Azure's namespace docs).
const (
	maxDeliveryAttributes  = 10
	maxAttributeValueBytes = 4096
)

// WebhookTarget is a validated webhook destination.
type WebhookTarget struct {
	URL string
	// MaxEventsPerBatch is 1 unless batching is configured.
	MaxEventsPerBatch int
	// PreferredBatchBytes is 0 unless preferredBatchSizeInKilobytes is set.
	PreferredBatchBytes int
	// Batched is true when either batch setting is present: bodies are
	// then arrays.
	Batched    bool
	Attributes []push.Attribute
}

// validate checks a destination and canonicalises its enums. Only webhooks
// can be delivered to offline; an Event Hubs destination is refused rather
// than accepted and silently never delivered.
func (d *Destination) validate() (*WebhookTarget, *arm.Error) {
	kind, ok := canonical(d.EndpointType, "WebHook")
	if !ok {
		if _, known := canonical(d.EndpointType, "EventHub", "MonitorAlert", "NamespaceTopic", "AzureFunction",
			"HybridConnection", "ServiceBusQueue", "ServiceBusTopic", "StorageQueue"); known {
			return nil, arm.BadRequest("The destination endpointType '%s' is not supported by GridBridge for namespace push subscriptions: use WebHook.", d.EndpointType)
		}
		return nil, arm.BadRequest("The destination endpointType '%s' is invalid.", d.EndpointType)
	}
	d.EndpointType = kind
	p := d.Properties
	if p == nil || p.EndpointURL == "" {
		return nil, arm.BadRequest("The WebHook destination must specify endpointUrl.")
	}
	u, err := url.Parse(p.EndpointURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, arm.BadRequest("The endpointUrl '%s' is not an absolute http or https URL.", p.EndpointURL)
	}
	base := *u
	base.RawQuery, base.Fragment, base.User = "", "", nil
	p.EndpointBaseURL = base.String()
	t := &WebhookTarget{URL: p.EndpointURL, MaxEventsPerBatch: 1}
	if n := p.MaxEventsPerBatch; n != nil {
		if *n < 1 || *n > 5000 {
			return nil, arm.BadRequest("The maxEventsPerBatch value %d is out of range: it must be between 1 and 5000.", *n)
		}
		t.MaxEventsPerBatch, t.Batched = *n, true
	}
	if kb := p.PreferredBatchSizeInKilobytes; kb != nil {
		if *kb < 1 || *kb > 1024 {
			return nil, arm.BadRequest("The preferredBatchSizeInKilobytes value %d is out of range: it must be between 1 and 1024.", *kb)
		}
		t.PreferredBatchBytes, t.Batched = *kb*1024, true
	}
	attrs, aerr := validateMappings(p.DeliveryAttributeMappings)
	if aerr != nil {
		return nil, aerr
	}
	t.Attributes = attrs
	return t, nil
}

func validateMappings(ms []DeliveryAttributeMapping) ([]push.Attribute, *arm.Error) {
	if len(ms) > maxDeliveryAttributes {
		return nil, arm.BadRequest("A subscription can have at most %d delivery attribute mappings; the request has %d.", maxDeliveryAttributes, len(ms))
	}
	seen := map[string]bool{}
	out := make([]push.Attribute, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		if strings.TrimSpace(m.Name) == "" {
			return nil, arm.BadRequest("Delivery attribute mapping number %d must have a name.", i+1)
		}
		if seen[strings.ToLower(m.Name)] {
			return nil, arm.BadRequest("The delivery attribute '%s' is mapped twice.", m.Name)
		}
		seen[strings.ToLower(m.Name)] = true
		kind, ok := canonical(m.Type, "Static", "Dynamic")
		if !ok {
			return nil, arm.BadRequest("The delivery attribute '%s' has type '%s': use Static or Dynamic.", m.Name, m.Type)
		}
		m.Type = kind
		p := m.Properties
		attr := push.Attribute{Name: m.Name, Static: kind == "Static"}
		switch {
		case attr.Static && (p == nil || p.Value == nil):
			return nil, arm.BadRequest("The static delivery attribute '%s' must specify a value.", m.Name)
		case attr.Static:
			if len(*p.Value) > maxAttributeValueBytes {
				return nil, arm.BadRequest("The value of delivery attribute '%s' is longer than %d bytes.", m.Name, maxAttributeValueBytes)
			}
			attr.Value = *p.Value
			attr.Secret = p.IsSecret != nil && *p.IsSecret
		case p == nil || p.SourceField == nil || *p.SourceField == "":
			return nil, arm.BadRequest("The dynamic delivery attribute '%s' must specify a sourceField.", m.Name)
		default:
			attr.SourceField = *p.SourceField
		}
		out = append(out, attr)
	}
	return out, nil
}

// hideSecrets returns a copy of p in which secret static values are left
// out, as GET shows them (EG-26); getDeliveryAttributes shows them.
func (p *WebHookProperties) hideSecrets() *WebHookProperties {
	if p == nil {
		return nil
	}
	c := *p
	c.DeliveryAttributeMappings = make([]DeliveryAttributeMapping, len(p.DeliveryAttributeMappings))
	for i, m := range p.DeliveryAttributeMappings {
		if m.Properties != nil && m.Properties.IsSecret != nil && *m.Properties.IsSecret {
			props := *m.Properties
			props.Value = nil
			m.Properties = &props
		}
		c.DeliveryAttributeMappings[i] = m
	}
	if len(c.DeliveryAttributeMappings) == 0 {
		c.DeliveryAttributeMappings = nil
	}
	return &c
}
