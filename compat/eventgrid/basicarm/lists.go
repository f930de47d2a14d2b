package basicarm

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

// listed is one entry of a list: its name (for $filter) and its JSON.
type listed struct {
	name string
	json any
}

// listOfType lists the tracked resources of one type (topics, domains or
// system topics) in the request's scope.
func (h *Handler) listOfType(typ resource.ResourceType) handlerAt {
	return func(r *arm.Request, tg target) (arm.Response, *arm.Error) {
		var items []listed
		for _, t := range h.Store.TopicsOfType(typ) {
			if inScope(t, tg) {
				items = append(items, listed{t.Name, h.topicJSON(t)})
			}
		}
		return page(r.Request, items), nil
	}
}

func (h *Handler) listEventTypes(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	if _, err := h.findTopic(tg); err != nil {
		return arm.Response{}, err
	}
	// Custom topics declare no event types.
	return page(r.Request, nil), nil
}

func (h *Handler) listTopicSubscriptions(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	t, err := h.findTopic(tg)
	if err != nil {
		return arm.Response{}, err
	}
	var items []listed
	for _, sub := range h.Store.Subscriptions(t.ID) {
		items = append(items, listed{sub.Name, sub.JSON(t, tg.ScopeForm)})
	}
	return page(r.Request, items), nil
}

// listGlobalSubscriptions serves the lists by Azure subscription or
// resource group. Without a location or topic type they hold only event
// subscriptions on the Azure subscription or group itself, which GridBridge
// does not support, so they are empty; with one they hold the topics'
// event subscriptions that match.
func (h *Handler) listGlobalSubscriptions(r *arm.Request, tg target) (arm.Response, *arm.Error) {
	var items []listed
	if tg.Location != "" || tg.TopicType != "" {
		for _, t := range h.Store.Topics() {
			if tg.TopicType != "" && !strings.EqualFold(tg.TopicType, t.Type.TopicTypeName()) ||
				!inScope(t, tg) || tg.Location != "" && normalLocation(t.Location) != normalLocation(tg.Location) {
				continue
			}
			for _, sub := range h.Store.Subscriptions(t.ID) {
				items = append(items, listed{sub.Name, sub.JSON(t, true)})
			}
		}
	}
	return page(r.Request, items), nil
}

// inScope reports whether t is under the path's Azure subscription and,
// when the path has one, resource group.
func inScope(t *resource.Topic, tg target) bool {
	return strings.EqualFold(t.SubscriptionID, tg.SubscriptionID) &&
		(tg.ResourceGroup == "" || strings.EqualFold(t.ResourceGroup, tg.ResourceGroup))
}

// normalLocation compares "West US 2" with "westus2", as ARM does.
func normalLocation(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "")) }

// page answers a list: {"value":[…],"nextLink":…}. $filter of the
// form contains(name,'x') narrows it (the CLI sends that); $top sets the
// page size, and nextLink is an absolute URL carrying $skiptoken, which
// the SDK pagers follow verbatim. Without $top everything is one page.
func page(r *http.Request, items []listed) arm.Response {
	q := r.URL.Query()
	if sub, ok := containsFilter(q.Get("$filter")); ok {
		kept := items[:0:0]
		for _, it := range items {
			if strings.Contains(strings.ToLower(it.name), sub) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	start, _ := strconv.Atoi(q.Get("$skiptoken"))
	if start < 0 || start > len(items) {
		start = len(items)
	}
	end := len(items)
	if top, err := strconv.Atoi(q.Get("$top")); err == nil && top > 0 && start+top < end {
		end = start + top
	}
	values := make([]any, 0, end-start)
	for _, it := range items[start:end] {
		values = append(values, it.json)
	}
	body := map[string]any{"value": values}
	if end < len(items) {
		q.Set("$skiptoken", strconv.Itoa(end))
		body["nextLink"] = absoluteURL(r, q.Encode())
	}
	return arm.OK(body)
}

// containsFilter reads "contains(name,'x')" in any casing and spacing and
// returns x lower-cased. Other filters are ignored (the list is not
// narrowed).
func containsFilter(f string) (string, bool) {
	s := strings.TrimSpace(f)
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "contains(") || !strings.HasSuffix(lower, ")") {
		return "", false
	}
	field, value, ok := strings.Cut(s[len("contains("):len(s)-1], ",")
	value = strings.TrimSpace(value)
	if !ok || !strings.EqualFold(strings.TrimSpace(field), "name") || len(value) < 2 || value[0] != '\'' || value[len(value)-1] != '\'' {
		return "", false
	}
	return strings.ToLower(value[1 : len(value)-1]), true
}

func absoluteURL(r *http.Request, rawQuery string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + r.URL.EscapedPath() + "?" + rawQuery
}
