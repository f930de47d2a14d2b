package resource

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// Endpoint types of event subscription destinations (ARM EndpointType).
const (
	EndpointWebHook       = "WebHook"
	EndpointAzureFunction = "AzureFunction"
)

func endpointTypes() []string {
	return []string{EndpointWebHook, "EventHub", "StorageQueue", "HybridConnection", "ServiceBusQueue",
		"ServiceBusTopic", EndpointAzureFunction, "MonitorAlert", "NamespaceTopic"}
}

// Destination is an event subscription's destination. The members
// GridBridge acts on are typed; every other property is kept as sent and
// echoed.
type Destination struct {
	EndpointType string
	// EndpointURL is a WebHook's URL, query included. ARM never returns it
	// on GET: only getFullUrl does.
	EndpointURL string
	// MaxEventsPerBatch and PreferredBatchSizeInKilobytes are 0 when unset.
	MaxEventsPerBatch             int
	PreferredBatchSizeInKilobytes int
	DeliveryAttributeMappings     []DeliveryAttribute
	Other                         map[string]json.RawMessage
}

// DeliveryAttribute is one custom delivery property (EG-26).
type DeliveryAttribute struct {
	Name        string
	Type        string // "Static" or "Dynamic"
	Value       string // Static
	IsSecret    bool   // Static
	SourceField string // Dynamic: dotted path into the delivered event
}

// batches reports whether the destination type takes batching settings.
func (d *Destination) batches() bool {
	return d.EndpointType == EndpointWebHook || d.EndpointType == EndpointAzureFunction
}

// EventsPerBatch is maxEventsPerBatch with its default of 1. Destination
// types that take no batching settings (Storage Queue: one message per
// event) always get 1, whatever a request sent.
func (d *Destination) EventsPerBatch() int {
	if d.MaxEventsPerBatch > 0 && d.batches() {
		return d.MaxEventsPerBatch
	}
	return 1
}

// BatchKilobytes is preferredBatchSizeInKilobytes with its default of 64.
func (d *Destination) BatchKilobytes() int {
	if d.PreferredBatchSizeInKilobytes > 0 {
		return d.PreferredBatchSizeInKilobytes
	}
	return 64
}

// ResourceID is the Azure resource an Azure-resource destination names.
func (d *Destination) ResourceID() string {
	var s string
	_ = json.Unmarshal(d.Other["resourceId"], &s)
	return s
}

type destinationJSON struct {
	EndpointType *string                    `json:"endpointType"`
	Properties   map[string]json.RawMessage `json:"properties"`
}

func decodeDestination(field string, raw json.RawMessage) (*Destination, *arm.Error) {
	var w destinationJSON
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, arm.BadRequest("%s must be an object with endpointType and properties.", field)
	}
	if w.EndpointType == nil {
		return nil, arm.BadRequest("%s.endpointType is required.", field)
	}
	typ, err := canonical(field+".endpointType", *w.EndpointType, endpointTypes()...)
	if err != nil {
		return nil, err
	}
	d := &Destination{EndpointType: typ, Other: make(map[string]json.RawMessage)}
	for k, v := range w.Properties {
		d.Other[k] = v
	}
	delete(d.Other, "endpointBaseUrl") // read-only
	if raw, ok := pop(d.Other, "endpointUrl"); ok {
		if err := json.Unmarshal(raw, &d.EndpointURL); err != nil {
			return nil, arm.BadRequest("%s.properties.endpointUrl must be a string.", field)
		}
	}
	if raw, ok := pop(d.Other, "maxEventsPerBatch"); ok {
		if d.MaxEventsPerBatch, err = integer(field+".properties.maxEventsPerBatch", raw); err != nil {
			return nil, err
		}
		if d.MaxEventsPerBatch < 1 { // 0 is a value Azure refuses, not "unset"
			return nil, arm.BadRequest("maxEventsPerBatch must be between 1 and %d; got %d.", MaxEventsPerBatchLimit, d.MaxEventsPerBatch)
		}
	}
	if raw, ok := pop(d.Other, "preferredBatchSizeInKilobytes"); ok {
		if d.PreferredBatchSizeInKilobytes, err = integer(field+".properties.preferredBatchSizeInKilobytes", raw); err != nil {
			return nil, err
		}
		if d.PreferredBatchSizeInKilobytes < 1 {
			return nil, arm.BadRequest("preferredBatchSizeInKilobytes must be between 1 and %d; got %d.", MaxPreferredBatchKB, d.PreferredBatchSizeInKilobytes)
		}
	}
	if raw, ok := pop(d.Other, "deliveryAttributeMappings"); ok {
		if d.DeliveryAttributeMappings, err = decodeAttributes(field+".properties.deliveryAttributeMappings", raw); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// pop removes and returns a member that is present and not null.
func pop(m map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	raw, ok := m[key]
	delete(m, key)
	return raw, ok && string(raw) != "null"
}

type attributeJSON struct {
	Name       string  `json:"name,omitempty"`
	Type       *string `json:"type"`
	Properties *struct {
		Value       *string `json:"value,omitempty"`
		IsSecret    *bool   `json:"isSecret,omitempty"`
		SourceField *string `json:"sourceField,omitempty"`
	} `json:"properties,omitempty"`
}

func decodeAttributes(field string, raw json.RawMessage) ([]DeliveryAttribute, *arm.Error) {
	var ws []attributeJSON
	if err := json.Unmarshal(raw, &ws); err != nil {
		return nil, arm.BadRequest("%s must be an array of {name, type, properties}.", field)
	}
	out := make([]DeliveryAttribute, len(ws))
	for i, w := range ws {
		if w.Type == nil {
			return nil, arm.BadRequest("%s[%d].type is required (Static or Dynamic).", field, i)
		}
		typ, err := canonical(field+".type", *w.Type, "Static", "Dynamic")
		if err != nil {
			return nil, err
		}
		a := DeliveryAttribute{Name: w.Name, Type: typ}
		if p := w.Properties; p != nil {
			if p.Value != nil {
				a.Value = *p.Value
			}
			if p.IsSecret != nil {
				a.IsSecret = *p.IsSecret
			}
			if p.SourceField != nil {
				a.SourceField = *p.SourceField
			}
		}
		out[i] = a
	}
	return out, nil
}

// hiddenValue is what ARM shows instead of a secret delivery attribute.
const hiddenValue = "Hidden"

// keepStoredSecrets carries over what a client could not have sent back:
// the CLI's update GETs the subscription and PATCHes it back, so the
// WebHook URL arrives absent (GET shows null) and secret values arrive as
// "Hidden" (W-EG-4.5). UNCONFIRMED that the service does the same.
func (d *Destination) keepStoredSecrets(prev *Destination) {
	if prev == nil || prev.EndpointType != d.EndpointType {
		return
	}
	if d.EndpointType == EndpointWebHook && d.EndpointURL == "" {
		d.EndpointURL = prev.EndpointURL
	}
	for i, a := range d.DeliveryAttributeMappings {
		if a.Type != "Static" || a.Value != hiddenValue {
			continue
		}
		for _, p := range prev.DeliveryAttributeMappings {
			if strings.EqualFold(p.Name, a.Name) && p.Type == "Static" && p.IsSecret {
				d.DeliveryAttributeMappings[i].Value = p.Value
			}
		}
	}
}

// json writes the destination. masked hides the WebHook URL (endpointUrl
// null, endpointBaseUrl without the query) and secret attribute values, as
// ARM does on every response but getFullUrl and getDeliveryAttributes.
func (d *Destination) json(masked bool) any {
	props := make(map[string]any, len(d.Other)+5)
	for k, v := range d.Other {
		props[k] = v
	}
	if d.EndpointType == EndpointWebHook {
		props["endpointUrl"] = d.EndpointURL
		if masked {
			props["endpointUrl"] = nil
			props["endpointBaseUrl"] = BaseURL(d.EndpointURL)
		}
	}
	if d.batches() {
		props["maxEventsPerBatch"] = d.EventsPerBatch()
		props["preferredBatchSizeInKilobytes"] = d.BatchKilobytes()
	}
	if d.DeliveryAttributeMappings != nil {
		props["deliveryAttributeMappings"] = attributesJSON(d.DeliveryAttributeMappings, masked)
	}
	return struct {
		EndpointType string         `json:"endpointType"`
		Properties   map[string]any `json:"properties"`
	}{d.EndpointType, props}
}

func attributesJSON(attrs []DeliveryAttribute, masked bool) []any {
	out := make([]any, len(attrs))
	for i, a := range attrs {
		props := map[string]any{}
		switch a.Type {
		case "Static":
			props["value"] = a.Value
			if masked && a.IsSecret {
				props["value"] = hiddenValue
			}
			props["isSecret"] = a.IsSecret
		case "Dynamic":
			props["sourceField"] = a.SourceField
		}
		out[i] = map[string]any{"name": a.Name, "type": a.Type, "properties": props}
	}
	return out
}

// BaseURL is a URL without its query and fragment: ARM's endpointBaseUrl.
func BaseURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		base, _, _ := strings.Cut(raw, "?")
		return base
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u.String()
}
