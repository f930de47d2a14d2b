package arm

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/armpath"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

// customTopicType is the topic type of basic (custom) topics in the
// regional and topic-type event subscription lists.
const customTopicType = "Microsoft.EventGrid.Topics"

// listed is one entry of a list: its name (for $filter) and its JSON.
type listed struct {
	name string
	json any
}

func (h *Handler) listTopics(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	var items []listed
	for _, t := range h.Store.Topics() {
		if inScope(t, tg) {
			items = append(items, listed{t.Name, t.JSON(h.Hooks.TopicEndpoint(t))})
		}
	}
	writePage(w, r, items)
}

func (h *Handler) listEventTypes(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	if h.findTopic(w, tg) != nil {
		// Custom topics declare no event types.
		writePage(w, r, nil)
	}
}

func (h *Handler) listTopicSubscriptions(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	t := h.findTopic(w, tg)
	if t == nil {
		return
	}
	var items []listed
	for _, sub := range h.Store.Subscriptions(t.ID) {
		items = append(items, listed{sub.Name, sub.JSON(t, tg.ScopeForm)})
	}
	writePage(w, r, items)
}

// listGlobalSubscriptions serves the lists by Azure subscription or
// resource group. Without a location or topic type they hold only event
// subscriptions on the Azure subscription or group itself, which GridBridge
// does not support, so they are empty; with one they hold the topics'
// event subscriptions that match.
func (h *Handler) listGlobalSubscriptions(w http.ResponseWriter, r *http.Request, tg armpath.Target) {
	var items []listed
	if tg.Location != "" || tg.TopicType != "" {
		if tg.TopicType == "" || strings.EqualFold(tg.TopicType, customTopicType) {
			for _, t := range h.Store.Topics() {
				if !inScope(t, tg) || tg.Location != "" && normalLocation(t.Location) != normalLocation(tg.Location) {
					continue
				}
				for _, sub := range h.Store.Subscriptions(t.ID) {
					items = append(items, listed{sub.Name, sub.JSON(t, true)})
				}
			}
		}
	}
	writePage(w, r, items)
}

// inScope reports whether t is under the path's Azure subscription and,
// when the path has one, resource group.
func inScope(t *resource.Topic, tg armpath.Target) bool {
	return strings.EqualFold(t.SubscriptionID, tg.SubscriptionID) &&
		(tg.ResourceGroup == "" || strings.EqualFold(t.ResourceGroup, tg.ResourceGroup))
}

// normalLocation compares "West US 2" with "westus2", as ARM does.
func normalLocation(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "")) }

// writePage answers a list: {"value":[…],"nextLink":…}. $filter of the
// form contains(name,'x') narrows it (the CLI sends that); $top sets the
// page size, and nextLink is an absolute URL carrying $skiptoken, which
// the SDK pagers follow verbatim. Without $top everything is one page.
func writePage(w http.ResponseWriter, r *http.Request, items []listed) {
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
	page := map[string]any{"value": values}
	if end < len(items) {
		q.Set("$skiptoken", strconv.Itoa(end))
		page["nextLink"] = absoluteURL(r, q.Encode())
	}
	writeJSON(w, http.StatusOK, page)
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
