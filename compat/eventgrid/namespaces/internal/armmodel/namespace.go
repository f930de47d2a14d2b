package armmodel

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// Namespace is a namespace resource as stored and returned.
type Namespace struct {
	ID         string              `json:"id"`
	Name       string              `json:"name"`
	Type       string              `json:"type"`
	Location   string              `json:"location"`
	Tags       map[string]string   `json:"tags"`
	SKU        SKU                 `json:"sku"`
	Identity   json.RawMessage     `json:"identity,omitempty"`
	Properties NamespaceProperties `json:"properties"`
	SystemData *SystemData         `json:"systemData,omitempty"`
}

// SKU is the namespace pricing tier.
type SKU struct {
	Name     string `json:"name"`
	Capacity int    `json:"capacity"`
}

// NamespaceProperties is what GridBridge stores of properties. MQTT and
// networking settings are kept and echoed, not enforced.
type NamespaceProperties struct {
	ProvisioningState          string              `json:"provisioningState"`
	TopicsConfiguration        TopicsConfiguration `json:"topicsConfiguration"`
	TopicSpacesConfiguration   json.RawMessage     `json:"topicSpacesConfiguration,omitempty"`
	IsZoneRedundant            bool                `json:"isZoneRedundant"`
	PublicNetworkAccess        string              `json:"publicNetworkAccess"`
	InboundIPRules             json.RawMessage     `json:"inboundIpRules,omitempty"`
	MinimumTLSVersionAllowed   string              `json:"minimumTlsVersionAllowed"`
	PrivateEndpointConnections json.RawMessage     `json:"privateEndpointConnections,omitempty"`
}

// TopicsConfiguration carries the data-plane host name, without a scheme:
// clients connect to "https://" + Hostname.
type TopicsConfiguration struct {
	Hostname      string          `json:"hostname"`
	CustomDomains json.RawMessage `json:"customDomains,omitempty"`
}

type namespaceBody struct {
	Location   *string             `json:"location"`
	Tags       map[string]string   `json:"tags"`
	SKU        *skuBody            `json:"sku"`
	Identity   json.RawMessage     `json:"identity"`
	Properties *namespacePropsBody `json:"properties"`
}

type skuBody struct {
	Name     *string `json:"name"`
	Capacity *int    `json:"capacity"`
}

type namespacePropsBody struct {
	TopicsConfiguration *struct {
		CustomDomains json.RawMessage `json:"customDomains"`
	} `json:"topicsConfiguration"`
	TopicSpacesConfiguration   json.RawMessage `json:"topicSpacesConfiguration"`
	IsZoneRedundant            *bool           `json:"isZoneRedundant"`
	PublicNetworkAccess        *string         `json:"publicNetworkAccess"`
	InboundIPRules             json.RawMessage `json:"inboundIpRules"`
	MinimumTLSVersionAllowed   *string         `json:"minimumTlsVersionAllowed"`
	PrivateEndpointConnections json.RawMessage `json:"privateEndpointConnections"`
}

// NewNamespace reads a PUT body into a namespace with every default filled;
// the caller sets ID, Name and SystemData.
func NewNamespace(body []byte) (Namespace, *arm.Error) {
	var req namespaceBody
	if err := decode(body, &req); err != nil {
		return Namespace{}, err
	}
	if req.Location == nil || strings.TrimSpace(*req.Location) == "" {
		return Namespace{}, &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeLocationRequired,
			Message: "The location property is required for this definition."}
	}
	n := Namespace{
		Type: TypeNamespace, Location: *req.Location, Tags: map[string]string{},
		SKU: SKU{Name: "Standard", Capacity: 1},
		Properties: NamespaceProperties{
			ProvisioningState: ProvisioningSucceeded, PublicNetworkAccess: "Enabled", MinimumTLSVersionAllowed: "1.2",
		},
	}
	if err := n.apply(req.Tags, req.SKU, req.Identity, req.Properties); err != nil {
		return Namespace{}, err
	}
	if p := req.Properties; p != nil && p.IsZoneRedundant != nil {
		n.Properties.IsZoneRedundant = *p.IsZoneRedundant
	}
	return n, nil
}

// Patch merges a PATCH body (NamespaceUpdateParameters) into n.
func (n *Namespace) Patch(body []byte) *arm.Error {
	var req namespaceBody
	if err := decode(body, &req); err != nil {
		return err
	}
	c := *n
	if err := c.apply(req.Tags, req.SKU, req.Identity, req.Properties); err != nil {
		return err
	}
	*n = c
	return nil
}

func (n *Namespace) apply(tags map[string]string, sku *skuBody, identity json.RawMessage, p *namespacePropsBody) *arm.Error {
	if tags != nil {
		n.Tags = tags
	}
	if sku != nil {
		if sku.Name != nil {
			name, ok := canonical(*sku.Name, "Standard")
			if !ok {
				return arm.BadRequest("The sku name '%s' is not supported: the only namespace sku is Standard.", *sku.Name)
			}
			n.SKU.Name = name
		}
		if sku.Capacity != nil {
			if *sku.Capacity < 1 || *sku.Capacity > 40 {
				return arm.BadRequest("The sku capacity %d is out of range: it must be between 1 and 40.", *sku.Capacity)
			}
			n.SKU.Capacity = *sku.Capacity
		}
	}
	if len(identity) > 0 && string(identity) != "null" {
		n.Identity = identity
	}
	if p == nil {
		return nil
	}
	if p.TopicsConfiguration != nil && len(p.TopicsConfiguration.CustomDomains) > 0 {
		n.Properties.TopicsConfiguration.CustomDomains = p.TopicsConfiguration.CustomDomains
	}
	if len(p.TopicSpacesConfiguration) > 0 {
		n.Properties.TopicSpacesConfiguration = p.TopicSpacesConfiguration
	}
	if len(p.InboundIPRules) > 0 {
		n.Properties.InboundIPRules = p.InboundIPRules
	}
	if len(p.PrivateEndpointConnections) > 0 {
		n.Properties.PrivateEndpointConnections = p.PrivateEndpointConnections
	}
	if p.PublicNetworkAccess != nil {
		v, ok := canonical(*p.PublicNetworkAccess, "Enabled", "Disabled", "SecuredByPerimeter")
		if !ok {
			return arm.BadRequest("The publicNetworkAccess value '%s' is not supported: use Enabled or Disabled.", *p.PublicNetworkAccess)
		}
		n.Properties.PublicNetworkAccess = v
	}
	if p.MinimumTLSVersionAllowed != nil {
		v, ok := canonical(*p.MinimumTLSVersionAllowed, "1.0", "1.1", "1.2")
		if !ok {
			return arm.BadRequest("The minimumTlsVersionAllowed value '%s' is not supported: use 1.0, 1.1 or 1.2.", *p.MinimumTLSVersionAllowed)
		}
		n.Properties.MinimumTLSVersionAllowed = v
	}
	return nil
}

// Keys is the listKeys and regenerateKey answer.
type Keys struct {
	Key1 string `json:"key1"`
	Key2 string `json:"key2"`
}

// KeyName reads a regenerateKey body: {"keyName":"key1"|"key2"}.
func KeyName(body []byte) (string, *arm.Error) {
	var req struct {
		KeyName *string `json:"keyName"`
	}
	if err := decode(body, &req); err != nil {
		return "", err
	}
	if req.KeyName == nil {
		return "", arm.BadRequest("The keyName property is required: key1 or key2.")
	}
	name, ok := canonical(*req.KeyName, "key1", "key2")
	if !ok {
		return "", arm.BadRequest("The keyName '%s' is invalid: use key1 or key2.", *req.KeyName)
	}
	return name, nil
}

// List is an ARM list answer. There is never a second page, so nextLink is
// absent and Go pagers stop after one request.
type List[T any] struct {
	Value []T `json:"value"`
}
