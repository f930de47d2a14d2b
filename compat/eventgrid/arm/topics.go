package arm

import (
	"encoding/json"
	"net/http"

	"github.com/gridbridge/gridbridge/compat/eventgrid/armpath"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

func (h *Handler) topic(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	switch {
	case tg.Action == "" && r.Method == http.MethodPut:
		h.putTopic(w, r, tg)
	case tg.Action == "" && r.Method == http.MethodGet:
		h.getTopic(w, tg)
	case tg.Action == "" && r.Method == http.MethodPatch:
		h.patchTopic(w, r, tg)
	case tg.Action == "" && r.Method == http.MethodDelete:
		h.deleteTopic(w, tg)
	case tg.Action == "listKeys" && r.Method == http.MethodPost:
		h.listKeys(w, tg)
	case tg.Action == "regenerateKey" && r.Method == http.MethodPost:
		h.regenerateKey(w, r, tg)
	default:
		methodNotAllowed(w, r)
	}
}

func topicNotFound(tg armpath.Target) *resource.Error {
	return resource.NotFound("Microsoft.EventGrid/topics/"+tg.Topic, tg.ResourceGroup)
}

// findTopic returns the topic a path names, or answers 404.
func (h *Handler) findTopic(w http.ResponseWriter, tg armpath.Target) *resource.Topic {
	t := h.Store.Topic(resource.TopicID(tg.SubscriptionID, tg.ResourceGroup, tg.Topic))
	if t == nil {
		writeError(w, topicNotFound(tg))
	}
	return t
}

// putTopic creates or replaces a topic and answers 201 with
// provisioningState Succeeded: the Go SDK accepts nothing else, not even
// 200 for an update (reference §8, trap 1).
func (h *Handler) putTopic(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	if err := resource.CheckTopicName(tg.Topic); err != nil {
		writeError(w, err)
		return
	}
	body, err := readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	h.topicWrites.Lock()
	defer h.topicWrites.Unlock()
	id := resource.TopicID(tg.SubscriptionID, tg.ResourceGroup, tg.Topic)
	existing := h.Store.Topic(id)
	t, err := resource.TopicFromPut(id, tg.SubscriptionID, tg.ResourceGroup, tg.Topic, body, existing, h.Hooks.Now())
	if err != nil {
		writeError(w, err)
		return
	}
	if existing == nil {
		t.Key1, t.Key2, t.MetricResourceID = h.Hooks.NewKey(), h.Hooks.NewKey(), h.Hooks.NewID()
	}
	if err := fixedKeys(r, t); err != nil {
		writeError(w, err)
		return
	}
	if holder := h.Store.PutTopic(t); holder != nil {
		writeError(w, &resource.Error{Status: http.StatusConflict, Code: resource.CodeConflict,
			Message: "Topic with the specified name already exists. Choose a different topic name. (GridBridge plays a single region: '" + holder.ID + "' holds the name.)"})
		return
	}
	writeJSON(w, http.StatusCreated, t.JSON(h.Hooks.TopicEndpoint(t)))
}

func (h *Handler) getTopic(w http.ResponseWriter, tg armpath.Target) {
	if t := h.findTopic(w, tg); t != nil {
		writeJSON(w, http.StatusOK, t.JSON(h.Hooks.TopicEndpoint(t)))
	}
}

// patchTopic applies TopicUpdateParameters and answers 200 with the topic.
func (h *Handler) patchTopic(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	body, err := readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	h.topicWrites.Lock()
	defer h.topicWrites.Unlock()
	t := h.findTopic(w, tg)
	if t == nil {
		return
	}
	n, err := t.Patched(body, h.Hooks.Now())
	if err != nil {
		writeError(w, err)
		return
	}
	h.Store.PutTopic(n)
	writeJSON(w, http.StatusOK, n.JSON(h.Hooks.TopicEndpoint(n)))
}

// deleteTopic removes the topic and its event subscriptions; 204 whether
// or not it existed (DELETE is idempotent in ARM; 200 would fail the Go
// SDK).
func (h *Handler) deleteTopic(w http.ResponseWriter, tg armpath.Target) {
	h.topicWrites.Lock()
	t, subs := h.Store.DeleteTopic(resource.TopicID(tg.SubscriptionID, tg.ResourceGroup, tg.Topic))
	h.topicWrites.Unlock()
	if t != nil && len(subs) > 0 {
		h.Hooks.SubscriptionsRemoved(t, subs, ReasonTopicDeleted)
	}
	writeNoContent(w)
}

func (h *Handler) listKeys(w http.ResponseWriter, tg armpath.Target) {
	if t := h.findTopic(w, tg); t != nil {
		writeJSON(w, http.StatusOK, t.KeysJSON())
	}
}

// regenerateKey replaces key1 or key2 and answers 200 with both keys (the
// Go poller takes a 200 body as the result).
func (h *Handler) regenerateKey(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	body, rerr := readBody(r)
	if rerr != nil {
		writeError(w, rerr)
		return
	}
	var req struct {
		KeyName string `json:"keyName"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, resource.BadContent(err))
		return
	}
	h.topicWrites.Lock()
	defer h.topicWrites.Unlock()
	t := h.findTopic(w, tg)
	if t == nil {
		return
	}
	n := *t
	switch resource.Key(req.KeyName) {
	case "key1":
		n.Key1 = h.Hooks.NewKey()
	case "key2":
		n.Key2 = h.Hooks.NewKey()
	default:
		writeError(w, resource.Invalid("The keyName '%s' is not valid: it must be key1 or key2.", req.KeyName))
		return
	}
	n.LastModifiedAt = h.Hooks.Now()
	h.Store.PutTopic(&n)
	writeJSON(w, http.StatusOK, n.KeysJSON())
}
