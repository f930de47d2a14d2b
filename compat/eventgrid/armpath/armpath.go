// Package armpath reads the ARM URLs of Event Grid basic topics and their
// event subscriptions. ARM matches path segments such as "resourceGroups"
// and "providers/Microsoft.EventGrid" case-insensitively and ignores empty
// segments, and so does this package; clients (Go, JS, the CLI) differ in
// the casing they send.
package armpath

import (
	"net/url"
	"strings"
)

// Kind says which resource or collection a path addresses.
type Kind int

// The kinds of path GridBridge serves.
const (
	// Provider is /subscriptions/{s}/providers/Microsoft.EventGrid, with
	// Action "register" for the registration POST.
	Provider Kind = iota + 1
	// Topics is a topic collection, by subscription or by resource group.
	Topics
	// Topic is one topic; Action is "listKeys" or "regenerateKey" for the
	// POST actions.
	Topic
	// TopicEventTypes is the eventTypes collection of a topic.
	TopicEventTypes
	// TopicSubscriptions is the event-subscription collection of a topic,
	// in either URL form.
	TopicSubscriptions
	// Subscription is one event subscription of a topic, in either URL
	// form; Action is "getFullUrl" or "getDeliveryAttributes" for the POSTs.
	Subscription
	// GlobalSubscriptions lists event subscriptions by Azure subscription or
	// resource group, optionally narrowed by Location and TopicType.
	GlobalSubscriptions
)

// Target is a parsed ARM path.
type Target struct {
	Kind           Kind
	SubscriptionID string
	ResourceGroup  string // "" when the path has none
	Topic          string
	EventSub       string
	Action         string // canonical spelling, e.g. "listKeys"
	Location       string
	TopicType      string
	// ScopeForm is true when an event subscription is addressed as an
	// extension resource (…/topics/{t}/providers/Microsoft.EventGrid/eventSubscriptions/{n})
	// rather than nested (…/topics/{t}/eventSubscriptions/{n}).
	ScopeForm bool
}

// Parse reads an escaped URL path. It reports false for every path
// GridBridge's basic-topic face does not serve (other providers, domains,
// namespaces, …), so other handlers can claim them.
func Parse(escapedPath string) (Target, bool) {
	segs, ok := segments(escapedPath)
	if !ok || len(segs) < 4 || !is(segs[0], "subscriptions") {
		return Target{}, false
	}
	t := Target{SubscriptionID: segs[1]}
	rest := segs[2:]
	if len(rest) >= 2 && is(rest[0], "resourceGroups") {
		t.ResourceGroup = rest[1]
		rest = rest[2:]
	}
	if len(rest) < 2 || !is(rest[0], "providers") || !is(rest[1], "Microsoft.EventGrid") {
		return Target{}, false
	}
	return t.provider(rest[2:])
}

// provider reads what follows providers/Microsoft.EventGrid.
func (t Target) provider(rest []string) (Target, bool) {
	switch {
	case len(rest) == 0 && t.ResourceGroup == "":
		t.Kind = Provider
		return t, true
	case len(rest) == 1 && t.ResourceGroup == "" && is(rest[0], "register"):
		t.Kind, t.Action = Provider, "register"
		return t, true
	case len(rest) >= 1 && is(rest[0], "topics"):
		return t.topics(rest[1:])
	}
	return t.globalSubscriptions(rest)
}

func (t Target) topics(rest []string) (Target, bool) {
	if len(rest) == 0 {
		t.Kind = Topics
		return t, true
	}
	if t.ResourceGroup == "" {
		return Target{}, false
	}
	t.Topic, rest = rest[0], rest[1:]
	switch {
	case len(rest) == 0:
		t.Kind = Topic
		return t, true
	case len(rest) == 1 && is(rest[0], "listKeys"):
		t.Kind, t.Action = Topic, "listKeys"
		return t, true
	case len(rest) == 1 && is(rest[0], "regenerateKey"):
		t.Kind, t.Action = Topic, "regenerateKey"
		return t, true
	case is(rest[0], "eventSubscriptions"):
		return t.subscription(rest[1:])
	case len(rest) >= 3 && is(rest[0], "providers") && is(rest[1], "Microsoft.EventGrid"):
		switch {
		case len(rest) == 3 && is(rest[2], "eventTypes"):
			t.Kind = TopicEventTypes
			return t, true
		case is(rest[2], "eventSubscriptions"):
			t.ScopeForm = true
			return t.subscription(rest[3:])
		}
	}
	return Target{}, false
}

func (t Target) subscription(rest []string) (Target, bool) {
	switch len(rest) {
	case 0:
		t.Kind = TopicSubscriptions
		return t, true
	case 1:
		t.Kind, t.EventSub = Subscription, rest[0]
		return t, true
	case 2:
		for _, action := range []string{"getFullUrl", "getDeliveryAttributes"} {
			if is(rest[1], action) {
				t.Kind, t.EventSub, t.Action = Subscription, rest[0], action
				return t, true
			}
		}
	}
	return Target{}, false
}

// globalSubscriptions reads [locations/{l}/][topicTypes/{tt}/]eventSubscriptions.
func (t Target) globalSubscriptions(rest []string) (Target, bool) {
	if len(rest) >= 3 && is(rest[0], "locations") {
		t.Location, rest = rest[1], rest[2:]
	}
	if len(rest) >= 3 && is(rest[0], "topicTypes") {
		t.TopicType, rest = rest[1], rest[2:]
	}
	if len(rest) == 1 && is(rest[0], "eventSubscriptions") {
		t.Kind = GlobalSubscriptions
		return t, true
	}
	return Target{}, false
}

// segments splits an escaped path, drops empty segments (ARM collapses
// "//") and unescapes each one.
func segments(escapedPath string) ([]string, bool) {
	var out []string
	for _, s := range strings.Split(escapedPath, "/") {
		if s == "" {
			continue
		}
		u, err := url.PathUnescape(s)
		if err != nil || u == "" {
			return nil, false
		}
		out = append(out, u)
	}
	return out, true
}

func is(seg, want string) bool { return strings.EqualFold(seg, want) }
