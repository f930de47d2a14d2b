package topology

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// armAPIVersion is the api-version of every ARM request; GridBridge accepts
// any, and this one covers topics and namespaces alike.
const armAPIVersion = "?api-version=2025-02-15"

// GridBridge-only request headers. ARM has no way to choose a key's value
// or to skip a webhook's validation handshake, so the topology asks the
// Event Grid face for them with these headers; Azure ignores them.
const (
	headerKey1           = "X-GridBridge-Key1"
	headerKey2           = "X-GridBridge-Key2"
	headerSkipValidation = "X-GridBridge-Skip-Validation"
)

// codeURLValidation is the ARM error code of a failed validation handshake.
const codeURLValidation = "Url validation"

// armGroup is the resource-group path every Event Grid resource lives under.
func armGroup(eg *EventGrid) string {
	return "/subscriptions/" + url.PathEscape(eg.SubscriptionID) + "/resourceGroups/" + url.PathEscape(eg.ResourceGroup) +
		"/providers/Microsoft.EventGrid"
}

func armHeader(keys Keys) http.Header {
	h := http.Header{"Content-Type": {"application/json"}}
	if keys.Key1 != "" {
		h.Set(headerKey1, keys.Key1)
	}
	if keys.Key2 != "" {
		h.Set(headerKey2, keys.Key2)
	}
	return h
}

type armTopic struct {
	Location   string             `json:"location"`
	Properties armTopicProperties `json:"properties"`
}

type armTopicProperties struct {
	InputSchema        string          `json:"inputSchema"`
	InputSchemaMapping json.RawMessage `json:"inputSchemaMapping,omitempty"`
}

func (a *applier) topic(eg *EventGrid, t Topic) error {
	path := armGroup(eg) + "/topics/" + url.PathEscape(t.Name)
	what := "topic " + quote(t.Name)
	body := mustJSON(armTopic{Location: eg.Location, Properties: armTopicProperties{InputSchema: t.InputSchema, InputSchemaMapping: t.InputSchemaMapping}})
	if err := a.put(t.Source, what, path, armHeader(t.Keys), body); err != nil {
		return err
	}
	if err := a.checkKeys(t.Source, what, path, t.Keys); err != nil {
		return err
	}
	for _, s := range t.Subscriptions {
		if err := a.eventSubscription(eg, "topic "+quote(t.Name), s, path); err != nil {
			return err
		}
	}
	return nil
}

type armSubscription struct {
	Properties armSubscriptionProperties `json:"properties"`
}

type armSubscriptionProperties struct {
	Destination           json.RawMessage `json:"destination"`
	Filter                json.RawMessage `json:"filter,omitempty"`
	EventDeliverySchema   string          `json:"eventDeliverySchema,omitempty"`
	RetryPolicy           *armRetryPolicy `json:"retryPolicy,omitempty"`
	DeadLetterDestination *armDeadLetter  `json:"deadLetterDestination,omitempty"`
}

type armRetryPolicy struct {
	MaxDeliveryAttempts      int64 `json:"maxDeliveryAttempts,omitempty"`
	EventTimeToLiveInMinutes int64 `json:"eventTimeToLiveInMinutes,omitempty"`
}

type armDeadLetter struct {
	EndpointType string `json:"endpointType"`
	Properties   struct {
		ResourceID        string `json:"resourceId"`
		BlobContainerName string `json:"blobContainerName"`
	} `json:"properties"`
}

func (a *applier) eventSubscription(eg *EventGrid, of string, s EventSubscription, topicPath string) error {
	p := armSubscriptionProperties{Destination: s.Destination, Filter: s.Filter, EventDeliverySchema: s.EventDeliverySchema}
	if s.Webhook != "" {
		p.Destination = mustJSON(map[string]any{"endpointType": "WebHook", "properties": map[string]string{"endpointUrl": s.Webhook}})
	}
	if rp := s.RetryPolicy; rp != nil {
		p.RetryPolicy = &armRetryPolicy{MaxDeliveryAttempts: rp.MaxDeliveryAttempts, EventTimeToLiveInMinutes: rp.EventTimeToLiveInMinutes}
	}
	if dl := s.DeadLetter; dl != nil {
		p.DeadLetterDestination = &armDeadLetter{EndpointType: "StorageBlob"}
		p.DeadLetterDestination.Properties.ResourceID = "/subscriptions/" + eg.SubscriptionID + "/resourceGroups/" + eg.ResourceGroup +
			"/providers/Microsoft.Storage/storageAccounts/" + dl.Account
		p.DeadLetterDestination.Properties.BlobContainerName = dl.Container
	}
	header := http.Header{"Content-Type": {"application/json"}}
	if s.SkipValidation {
		header.Set(headerSkipValidation, "true")
	}
	what := "event subscription " + quote(s.Name) + " of " + of
	err := a.put(s.Source, what, topicPath+"/eventSubscriptions/"+url.PathEscape(s.Name), header, mustJSON(armSubscription{Properties: p}))
	var api *APIError
	if errors.As(err, &api) && s.SkipValidation && strings.EqualFold(api.Code, codeURLValidation) {
		// With the header honoured there is no handshake to fail.
		return &HookMissingError{File: a.file, Line: s.Line, Field: s.Field, Resource: what, Hook: headerSkipValidation,
			Detail: "skipValidation is set, yet the emulator ran the validation handshake and it failed: " + api.Message}
	}
	return err
}

type armDomainProperties struct {
	armTopicProperties
	AutoCreate *bool `json:"autoCreateTopicWithFirstSubscription,omitempty"`
	AutoDelete *bool `json:"autoDeleteTopicWithLastSubscription,omitempty"`
}

func (a *applier) domain(eg *EventGrid, dm Domain) error {
	path := armGroup(eg) + "/domains/" + url.PathEscape(dm.Name)
	what := "domain " + quote(dm.Name)
	body := mustJSON(map[string]any{"location": eg.Location, "properties": armDomainProperties{
		armTopicProperties: armTopicProperties{InputSchema: dm.InputSchema, InputSchemaMapping: dm.InputSchemaMapping},
		AutoCreate:         dm.AutoCreateTopics, AutoDelete: dm.AutoDeleteTopics,
	}})
	if err := a.put(dm.Source, what, path, armHeader(dm.Keys), body); err != nil {
		return err
	}
	if err := a.checkKeys(dm.Source, what, path, dm.Keys); err != nil {
		return err
	}
	for _, s := range dm.Subscriptions {
		if err := a.eventSubscription(eg, what, s, path); err != nil {
			return err
		}
	}
	for _, dt := range dm.Topics {
		topicPath := path + "/topics/" + url.PathEscape(dt.Name)
		topicWhat := "topic " + quote(dt.Name) + " of " + what
		if err := a.put(dt.Source, topicWhat, topicPath, http.Header{"Content-Type": {"application/json"}}, []byte("{}")); err != nil {
			return err
		}
		for _, s := range dt.Subscriptions {
			if err := a.eventSubscription(eg, topicWhat, s, topicPath); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *applier) systemTopic(eg *EventGrid, st SystemTopic) error {
	path := armGroup(eg) + "/systemTopics/" + url.PathEscape(st.Name)
	what := "system topic " + quote(st.Name)
	source := "/subscriptions/" + eg.SubscriptionID + "/resourceGroups/" + eg.ResourceGroup +
		"/providers/Microsoft.Storage/storageAccounts/" + st.Account
	body := mustJSON(map[string]any{"location": eg.Location, "properties": map[string]string{
		"source": source, "topicType": "Microsoft.Storage.StorageAccounts"}})
	if err := a.put(st.Source, what, path, http.Header{"Content-Type": {"application/json"}}, body); err != nil {
		return err
	}
	for _, s := range st.Subscriptions {
		if err := a.eventSubscription(eg, what, s, path); err != nil {
			return err
		}
	}
	return nil
}

// put sends an ARM PUT and turns a refusal into an *APIError.
func (a *applier) put(src Source, what, path string, header http.Header, body []byte) error {
	ans, err := a.send(http.MethodPut, path+armAPIVersion, header, body)
	if err != nil {
		return err
	}
	if !ans.ok() {
		return a.refused(src, what, "PUT", ans)
	}
	return nil
}

// checkKeys reads fixed keys back through listKeys: an emulator without the
// key headers would otherwise leave generated keys in place silently, and
// every publish with the file's keys would fail later, far from the cause.
func (a *applier) checkKeys(src Source, what, path string, want Keys) error {
	if !want.fixed() {
		return nil
	}
	ans, err := a.send(http.MethodPost, path+"/listKeys"+armAPIVersion, nil, nil)
	if err != nil {
		return err
	}
	if !ans.ok() {
		return a.refused(src, what, "POST listKeys", ans)
	}
	var got struct {
		Key1 string `json:"key1"`
		Key2 string `json:"key2"`
	}
	_ = json.Unmarshal(ans.body, &got)
	if want.Key1 != "" && got.Key1 != want.Key1 || want.Key2 != "" && got.Key2 != want.Key2 {
		return &HookMissingError{File: a.file, Line: src.Line, Field: src.Field, Resource: what,
			Hook: headerKey1 + "/" + headerKey2, Detail: "keys are fixed in the file, but the emulator generated its own"}
	}
	return nil
}

// quote writes a resource name in messages.
func quote(name string) string { return `"` + name + `"` }
