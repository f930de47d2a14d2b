package resource

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// ResourceType says which Event Grid resource a Topic value stands for. Domains,
// domain topics and system topics carry event subscriptions exactly as
// basic topics do, so they share Topic, the store and the subscription
// machinery; Type keeps their lists, ids and JSON apart.
type ResourceType int

// The resource types of Topic.
const (
	TypeTopic       ResourceType = iota // Microsoft.EventGrid/topics
	TypeDomain                          // Microsoft.EventGrid/domains
	TypeDomainTopic                     // Microsoft.EventGrid/domains/topics
	TypeSystemTopic                     // Microsoft.EventGrid/systemTopics
)

// ARMType is the resource type ARM writes in "type".
func (k ResourceType) ARMType() string {
	switch k {
	case TypeDomain:
		return "Microsoft.EventGrid/domains"
	case TypeDomainTopic:
		return "Microsoft.EventGrid/domains/topics"
	case TypeSystemTopic:
		return "Microsoft.EventGrid/systemTopics"
	}
	return "Microsoft.EventGrid/topics"
}

// TopicTypeName is the topic type of the regional and topic-type event
// subscription lists.
func (k ResourceType) TopicTypeName() string {
	switch k {
	case TypeDomain:
		return "Microsoft.EventGrid.Domains"
	case TypeDomainTopic:
		return "Microsoft.EventGrid.Domains.Topics"
	case TypeSystemTopic:
		return SystemTopicTypeStorage
	}
	return "Microsoft.EventGrid.Topics"
}

// DomainID is the ARM id of a domain.
func DomainID(subscriptionID, resourceGroup, name string) string {
	return "/subscriptions/" + subscriptionID + "/resourceGroups/" + resourceGroup +
		"/providers/Microsoft.EventGrid/domains/" + name
}

// DomainTopicID is the ARM id of a domain topic.
func DomainTopicID(domainID, name string) string { return domainID + "/topics/" + name }

// SystemTopicID is the ARM id of a system topic.
func SystemTopicID(subscriptionID, resourceGroup, name string) string {
	return "/subscriptions/" + subscriptionID + "/resourceGroups/" + resourceGroup +
		"/providers/Microsoft.EventGrid/systemTopics/" + name
}

// CheckDomainTopicName applies the domain topic name rules: 3 to 50
// characters, letters, digits and hyphens (the same as topics', without
// the reserved prefixes).
func CheckDomainTopicName(name string) *arm.Error {
	if !arm.ValidName(name, 3, 50) {
		return arm.BadRequest("Domain topic name must be between 3 and 50 characters in length and use alphanumeric characters and hyphens only; got '%s'.", name)
	}
	return nil
}

// DomainSettings are what a domain has beyond a topic.
type DomainSettings struct {
	// AutoCreateTopics: the first event subscription on a domain topic
	// that does not exist creates it (default true).
	AutoCreateTopics bool
	// AutoDeleteTopics: deleting a domain topic's last event subscription
	// deletes the domain topic (default true).
	AutoDeleteTopics bool
}

type domainFlagsJSON struct {
	Properties *struct {
		AutoCreate *bool `json:"autoCreateTopicWithFirstSubscription"`
		AutoDelete *bool `json:"autoDeleteTopicWithLastSubscription"`
	} `json:"properties"`
}

// applyDomainFlags reads the two domain flags of a PUT or PATCH body into s;
// absent flags keep s.
func applyDomainFlags(body []byte, s *DomainSettings) *arm.Error {
	var w domainFlagsJSON
	if err := json.Unmarshal(body, &w); err != nil {
		return arm.BadContent(err)
	}
	if p := w.Properties; p != nil {
		if p.AutoCreate != nil {
			s.AutoCreateTopics = *p.AutoCreate
		}
		if p.AutoDelete != nil {
			s.AutoDeleteTopics = *p.AutoDelete
		}
	}
	return nil
}

// DomainFromPut builds the domain a PUT describes: a topic's properties
// (input schema and mapping, network settings, keys) plus the domain
// flags, both true unless the body says otherwise.
func DomainFromPut(id, subscriptionID, resourceGroup, name string, body []byte, existing *Topic, now time.Time) (*Topic, *arm.Error) {
	t, err := TopicFromPut(id, subscriptionID, resourceGroup, name, body, existing, now)
	if err != nil {
		return nil, err
	}
	t.Type = TypeDomain
	t.DomainSettings = DomainSettings{AutoCreateTopics: true, AutoDeleteTopics: true}
	if err := applyDomainFlags(body, &t.DomainSettings); err != nil {
		return nil, err
	}
	return t, nil
}

// DomainPatched applies a PATCH (DomainUpdateParameters) to domain t.
func (t *Topic) DomainPatched(body []byte, now time.Time) (*Topic, *arm.Error) {
	n, err := t.Patched(body, now)
	if err != nil {
		return nil, err
	}
	if err := applyDomainFlags(body, &n.DomainSettings); err != nil {
		return nil, err
	}
	return n, nil
}

// NewDomainTopic is domain d's topic name: it publishes in d's schema.
func NewDomainTopic(d *Topic, name string, now time.Time) *Topic {
	return &Topic{
		ID: DomainTopicID(d.ID, name), SubscriptionID: d.SubscriptionID, ResourceGroup: d.ResourceGroup,
		Name: name, Location: d.Location, Type: TypeDomainTopic, DomainID: d.ID,
		InputSchema: d.InputSchema, InputSchemaMapping: d.InputSchemaMapping,
		CreatedAt: now, LastModifiedAt: now,
	}
}

type domainTopicJSON struct {
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	SystemData arm.SystemData `json:"systemData"`
	Properties struct {
		ProvisioningState string `json:"provisioningState"`
	} `json:"properties"`
}

func (t *Topic) domainTopicJSON() any {
	out := domainTopicJSON{ID: t.ID, Name: t.Name, Type: t.Type.ARMType(), SystemData: arm.SystemDataAt(t.CreatedAt, t.LastModifiedAt)}
	out.Properties.ProvisioningState = "Succeeded"
	return out
}

// SystemTopicTypeStorage is the only system topic type GridBridge serves:
// a storage account's blob events.
const SystemTopicTypeStorage = "Microsoft.Storage.StorageAccounts"

// SystemTopicSettings are a system topic's source and type.
type SystemTopicSettings struct {
	// Source is the ARM id of the storage account.
	Source    string
	TopicType string
}

// StorageAccountName returns the account a storage account ARM id names,
// or "" when id is not one.
func StorageAccountName(id string) string {
	parts := strings.Split(strings.Trim(id, "/"), "/")
	// subscriptions/{s}/resourceGroups/{rg}/providers/Microsoft.Storage/storageAccounts/{a}
	if len(parts) != 8 || !strings.EqualFold(parts[0], "subscriptions") || !strings.EqualFold(parts[2], "resourceGroups") ||
		!strings.EqualFold(parts[4], "providers") || !strings.EqualFold(parts[5], "Microsoft.Storage") ||
		!strings.EqualFold(parts[6], "storageAccounts") || parts[7] == "" {
		return ""
	}
	return parts[7]
}

type systemTopicPutJSON struct {
	Location   *string            `json:"location"`
	Tags       map[string]*string `json:"tags"`
	Identity   json.RawMessage    `json:"identity"`
	Properties *struct {
		Source    *string `json:"source"`
		TopicType *string `json:"topicType"`
	} `json:"properties"`
}

// SystemTopicFromPut builds the system topic a PUT describes. Only storage
// accounts are sources; source and topic type cannot change.
func SystemTopicFromPut(id, subscriptionID, resourceGroup, name string, body []byte, existing *Topic, now time.Time) (*Topic, *arm.Error) {
	var w systemTopicPutJSON
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, arm.BadContent(err)
	}
	if w.Location == nil || *w.Location == "" {
		return nil, arm.BadRequest("The 'location' property is required for a system topic.")
	}
	if w.Properties == nil || w.Properties.Source == nil || *w.Properties.Source == "" {
		return nil, arm.BadRequest("properties.source is required: the ARM id of the resource whose events the system topic carries.")
	}
	if w.Properties.TopicType == nil || *w.Properties.TopicType == "" {
		return nil, arm.BadRequest("properties.topicType is required.")
	}
	if !strings.EqualFold(*w.Properties.TopicType, SystemTopicTypeStorage) {
		return nil, arm.BadRequest("The topic type '%s' is not supported by GridBridge; system topics support %s.", *w.Properties.TopicType, SystemTopicTypeStorage)
	}
	if StorageAccountName(*w.Properties.Source) == "" {
		return nil, arm.BadRequest("The source '%s' is not the resource id of a storage account (/subscriptions/{id}/resourceGroups/{group}/providers/Microsoft.Storage/storageAccounts/{account}).", *w.Properties.Source)
	}
	t := &Topic{
		ID: id, SubscriptionID: subscriptionID, ResourceGroup: resourceGroup, Name: name,
		Location: *w.Location, Tags: w.Tags, Type: TypeSystemTopic, InputSchema: InputEventGrid,
		SystemTopicSettings: SystemTopicSettings{Source: *w.Properties.Source, TopicType: SystemTopicTypeStorage},
		CreatedAt:           now, LastModifiedAt: now,
	}
	var err *arm.Error
	if t.Identity, err = canonicalIdentity("identity", w.Identity, topicIdentityTypes()...); err != nil {
		return nil, err
	}
	if existing != nil {
		if !strings.EqualFold(existing.Source, t.Source) {
			return nil, arm.BadRequest("The source of system topic '%s' cannot be changed.", name)
		}
		t.ID, t.Name, t.Source, t.CreatedAt, t.MetricResourceID = existing.ID, existing.Name, existing.Source, existing.CreatedAt, existing.MetricResourceID
	}
	return t, nil
}

type systemTopicJSON struct {
	trackedJSON
	SystemData arm.SystemData `json:"systemData"`
	Properties struct {
		ProvisioningState string `json:"provisioningState"`
		Source            string `json:"source"`
		TopicType         string `json:"topicType"`
		MetricResourceID  string `json:"metricResourceId"`
	} `json:"properties"`
}

func (t *Topic) systemTopicJSON() any {
	out := systemTopicJSON{trackedJSON: t.tracked(), SystemData: arm.SystemDataAt(t.CreatedAt, t.LastModifiedAt)}
	out.Properties.ProvisioningState = "Succeeded"
	out.Properties.Source, out.Properties.TopicType, out.Properties.MetricResourceID = t.Source, t.TopicType, t.MetricResourceID
	return out
}
