package basicarm

import (
	"strings"
	"time"

	"encoding/json"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

func topicNotFound(tg target) *arm.Error {
	return resource.NotFound(tg.scopeName(), tg.ResourceGroup)
}

// scopeID is the ARM id of what holds the event subscriptions a path
// names: a basic topic, a domain, a domain topic or a system topic.
func (tg target) scopeID() string {
	switch {
	case tg.Domain != "" && tg.Topic != "":
		return resource.DomainTopicID(resource.DomainID(tg.SubscriptionID, tg.ResourceGroup, tg.Domain), tg.Topic)
	case tg.Domain != "":
		return resource.DomainID(tg.SubscriptionID, tg.ResourceGroup, tg.Domain)
	case tg.SystemTopic != "":
		return resource.SystemTopicID(tg.SubscriptionID, tg.ResourceGroup, tg.SystemTopic)
	}
	return resource.TopicID(tg.SubscriptionID, tg.ResourceGroup, tg.Topic)
}

// lookup returns what holds the path's event subscriptions, or nil: the
// system topic of a storage account scope, else the resource of scopeID.
func (h *Handler) lookup(tg target) *resource.Topic {
	if tg.StorageAccount == "" {
		return h.Store.Topic(tg.scopeID())
	}
	source := storageAccountID(tg)
	for _, t := range h.Store.TopicsOfType(resource.TypeSystemTopic) {
		if strings.EqualFold(t.Source, source) {
			return t
		}
	}
	return nil
}

func storageAccountID(tg target) string {
	return "/subscriptions/" + tg.SubscriptionID + "/resourceGroups/" + tg.ResourceGroup +
		"/providers/Microsoft.Storage/storageAccounts/" + tg.StorageAccount
}

// scopeName names it as ARM's not-found messages do.
func (tg target) scopeName() string {
	switch {
	case tg.Domain != "" && tg.Topic != "":
		return "Microsoft.EventGrid/domains/" + tg.Domain + "/topics/" + tg.Topic
	case tg.Domain != "":
		return "Microsoft.EventGrid/domains/" + tg.Domain
	case tg.SystemTopic != "":
		return "Microsoft.EventGrid/systemTopics/" + tg.SystemTopic
	case tg.StorageAccount != "":
		return "Microsoft.Storage/storageAccounts/" + tg.StorageAccount
	}
	return "Microsoft.EventGrid/topics/" + tg.Topic
}

// findTopic returns the topic (or domain, domain topic, system topic) a
// path names, or a 404.
func (h *Handler) findTopic(tg target) (*resource.Topic, *arm.Error) {
	t := h.lookup(tg)
	if t == nil {
		return nil, topicNotFound(tg)
	}
	return t, nil
}

func (h *Handler) topicJSON(t *resource.Topic) any { return t.JSON(h.Hooks.TopicEndpoint(t)) }

// putTopic creates or replaces a topic and answers 201 with
// provisioningState Succeeded: the Go SDK accepts nothing else, not even
// 200 for an update (W-EG-8.1).
func (h *Handler) putTopic(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	return h.putKeyed(r, tg, tg.Topic, "Topic", resource.TopicFromPut)
}

// fromPut builds a topic, a domain or a system topic from its PUT body
// (resource.TopicFromPut, resource.DomainFromPut, resource.SystemTopicFromPut).
type fromPut func(id, subscriptionID, resourceGroup, name string, body []byte, existing *resource.Topic, now time.Time) (*resource.Topic, *arm.Error)

// putKeyed is the PUT of a resource with access keys (a topic or a domain,
// kind names it in the conflict message): new keys and metric id on
// creation, the client's fixed keys if it asks for them, and a 409 when
// another resource group already holds the name.
func (h *Handler) putKeyed(r *arm.Request, tg target, name, kind string, build fromPut) (arm.Response, *arm.Error) {
	if err := resource.CheckTopicName(name); err != nil {
		return arm.Response{}, err
	}
	return h.put(r, tg, name, build, func(t, existing *resource.Topic) (arm.Response, *arm.Error) {
		if existing == nil {
			t.Key1, t.Key2, t.MetricResourceID = h.Hooks.NewKey(), h.Hooks.NewKey(), h.Hooks.NewID()
		}
		keys, err := arm.FixedKeys(r.Request, [2]string{t.Key1, t.Key2})
		if err != nil {
			return arm.Response{}, err
		}
		t.Key1, t.Key2 = keys[0], keys[1]
		if holder := h.Store.PutTopic(t); holder != nil {
			return arm.Response{}, arm.Conflict("%s with the specified name already exists. Choose a different %s name. (GridBridge plays a single region: '%s' holds the name.)", kind, strings.ToLower(kind), holder.ID)
		}
		return arm.Created(h.topicJSON(t)), nil
	})
}

// put is the part every PUT of a topic-like resource shares: read the
// body, then, holding topicWrites, build the resource at tg's scope from
// it and what is stored there (build refuses a bad body) and let store
// check and keep it.
func (h *Handler) put(r *arm.Request, tg target, name string, build fromPut,
	store func(t, existing *resource.Topic) (arm.Response, *arm.Error)) (arm.Response, *arm.Error) {
	body, err := r.ReadBody()
	if err != nil {
		return arm.Response{}, err
	}
	h.topicWrites.Lock()
	defer h.topicWrites.Unlock()
	id := tg.scopeID()
	existing := h.Store.Topic(id)
	t, err := build(id, tg.SubscriptionID, tg.ResourceGroup, name, body, existing, h.Hooks.Now())
	if err != nil {
		return arm.Response{}, err
	}
	return store(t, existing)
}

func (h *Handler) getTopic(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	t, err := h.findTopic(tg)
	if err != nil {
		return arm.Response{}, err
	}
	return arm.OK(h.topicJSON(t)), nil
}

// patchWith answers a PATCH with patched applied to the resource (a
// topic's or system topic's TopicUpdateParameters, a domain's
// DomainUpdateParameters): 200 with the result.
func (h *Handler) patchWith(patched func(t *resource.Topic, body []byte, now time.Time) (*resource.Topic, *arm.Error)) handlerAt {
	return func(r *arm.Request, tg target) (arm.Response, *arm.Error) {
		body, err := r.ReadBody()
		if err != nil {
			return arm.Response{}, err
		}
		h.topicWrites.Lock()
		defer h.topicWrites.Unlock()
		t, err := h.findTopic(tg)
		if err != nil {
			return arm.Response{}, err
		}
		n, err := patched(t, body, h.Hooks.Now())
		if err != nil {
			return arm.Response{}, err
		}
		h.Store.PutTopic(n)
		return arm.OK(h.topicJSON(n)), nil
	}
}

// deleteTopic removes the topic and its event subscriptions; 204 whether
// or not it existed (DELETE is idempotent in ARM; 200 would fail the Go
// SDK).
func (h *Handler) deleteTopic(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	h.topicWrites.Lock()
	t, subs := h.Store.DeleteTopic(resource.TopicID(tg.SubscriptionID, tg.ResourceGroup, tg.Topic))
	h.topicWrites.Unlock()
	if t != nil && len(subs) > 0 {
		h.Hooks.SubscriptionsRemoved(t, subs, ReasonTopicDeleted)
	}
	return arm.NoContent(), nil
}

func (h *Handler) listKeys(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	t, err := h.findTopic(tg)
	if err != nil {
		return arm.Response{}, err
	}
	return arm.OK(t.KeysJSON()), nil
}

// regenerateKey replaces key1 or key2 and answers 200 with both keys (the
// Go poller takes a 200 body as the result).
func (h *Handler) regenerateKey(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	body, rerr := r.ReadBody()
	if rerr != nil {
		return arm.Response{}, rerr
	}
	var req struct {
		KeyName string `json:"keyName"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return arm.Response{}, arm.BadContent(err)
	}
	h.topicWrites.Lock()
	defer h.topicWrites.Unlock()
	t, err := h.findTopic(tg)
	if err != nil {
		return arm.Response{}, err
	}
	n := *t
	switch resource.Key(req.KeyName) {
	case "key1":
		n.Key1 = h.Hooks.NewKey()
	case "key2":
		n.Key2 = h.Hooks.NewKey()
	default:
		return arm.Response{}, arm.BadRequest("The keyName '%s' is not valid: it must be key1 or key2.", req.KeyName)
	}
	n.LastModifiedAt = h.Hooks.Now()
	h.Store.PutTopic(&n)
	return arm.OK(n.KeysJSON()), nil
}
