package basicarm

import (
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

// systemTopicEndpoints are the rows of system topics; their event
// subscriptions are the rows Endpoints adds for every scope.
func (h *Handler) systemTopicEndpoints(at func(handlerAt) arm.Handler) []arm.Endpoint {
	return append(listedEverywhere("systemTopics", at(h.listOfType(resource.TypeSystemTopic))), arm.Resource{
		Get: at(h.getTopic), Put: at(h.putSystemTopic), Patch: at(h.patchWith((*resource.Topic).Patched)), Delete: at(h.deleteSystemTopic),
	}.At(systemTopicPath)...)
}

// putSystemTopic creates or replaces a system topic of a storage account
// the emulator was given (--azure-storage); one system topic per source,
// as in Azure. 201 with provisioningState Succeeded.
func (h *Handler) putSystemTopic(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	if !arm.ValidName(tg.SystemTopic, 3, 128) {
		return arm.Response{}, arm.BadRequest("System topic name must be between 3 and 128 characters in length and use alphanumeric characters and hyphens only; got '%s'.", tg.SystemTopic)
	}
	return h.put(r, tg, tg.SystemTopic, resource.SystemTopicFromPut, func(t, existing *resource.Topic) (arm.Response, *arm.Error) {
		for _, other := range h.Store.TopicsOfType(resource.TypeSystemTopic) {
			if other.Key() != t.Key() && strings.EqualFold(other.Source, t.Source) {
				return arm.Response{}, arm.BadRequest("Only one system topic is allowed per source: '%s' already has system topic '%s'.", t.Source, other.ID)
			}
		}
		if err := h.Hooks.CheckSystemTopicSource(t); err != nil {
			return arm.Response{}, err
		}
		if existing == nil {
			t.MetricResourceID = h.Hooks.NewID()
		}
		h.Store.PutTopic(t)
		h.Hooks.SystemTopicsChanged()
		return arm.Created(h.topicJSON(t)), nil
	})
}

// deleteSystemTopic removes the system topic and its event subscriptions;
// 204 whether or not it existed.
func (h *Handler) deleteSystemTopic(_ *arm.Request, tg target) (arm.Response, *arm.Error) {
	h.topicWrites.Lock()
	t, subs := h.Store.DeleteTopic(tg.scopeID())
	h.topicWrites.Unlock()
	if t == nil {
		return arm.NoContent(), nil
	}
	if len(subs) > 0 {
		h.Hooks.SubscriptionsRemoved(t, subs, ReasonTopicDeleted)
	}
	h.Hooks.SystemTopicsChanged()
	return arm.NoContent(), nil
}

// autoCreateSystemTopic makes the system topic of a storage account that an
// event subscription names as its scope, as Azure does (named
// <account>-<id>, in the account's resource group and the first location
// GridBridge knows).
func (h *Handler) autoCreateSystemTopic(tg target) (*resource.Topic, bool, *arm.Error) {
	h.topicWrites.Lock()
	defer h.topicWrites.Unlock()
	if t := h.lookup(tg); t != nil {
		return t, false, nil
	}
	name := tg.StorageAccount + "-" + strings.ReplaceAll(h.Hooks.NewID(), "-", "")[:8]
	now := h.Hooks.Now()
	t := &resource.Topic{
		Type: resource.TypeSystemTopic, ID: resource.SystemTopicID(tg.SubscriptionID, tg.ResourceGroup, name),
		SubscriptionID: tg.SubscriptionID, ResourceGroup: tg.ResourceGroup, Name: name, Location: "global",
		InputSchema: resource.InputEventGrid, MetricResourceID: h.Hooks.NewID(),
		SystemTopicSettings: resource.SystemTopicSettings{Source: storageAccountID(tg), TopicType: resource.SystemTopicTypeStorage},
		CreatedAt:           now, LastModifiedAt: now,
	}
	if err := h.Hooks.CheckSystemTopicSource(t); err != nil {
		return nil, false, err
	}
	h.Store.PutTopic(t)
	h.Hooks.SystemTopicsChanged()
	return t, true, nil
}
