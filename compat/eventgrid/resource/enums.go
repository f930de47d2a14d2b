package resource

import (
	"encoding/json"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// canonical returns the allowed spelling of value, matched without regard
// to case: clients (the CLI above all) send enums in any casing, and the Go
// SDK matches discriminators case-sensitively on the way back, so output
// always uses the canonical spelling (W-EG-4.4).
func canonical(field, value string, allowed ...string) (string, *arm.Error) {
	for _, a := range allowed {
		if strings.EqualFold(a, value) {
			return a, nil
		}
	}
	return "", arm.BadRequest("The value '%s' of %s is not valid. Allowed values: %s.", value, field, strings.Join(allowed, ", "))
}

// canonicalPtr is canonical for an optional field: nil stays nil.
func canonicalPtr(field string, value *string, allowed ...string) (string, *arm.Error) {
	if value == nil {
		return "", nil
	}
	return canonical(field, *value, allowed...)
}

// canonicalIdentity rewrites the "type" of an identity object to its
// canonical spelling and keeps every other member as sent.
func canonicalIdentity(field string, raw json.RawMessage, allowed ...string) (json.RawMessage, *arm.Error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, arm.BadRequest("%s must be an object.", field)
	}
	if t, ok := m["type"]; ok {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return nil, arm.BadRequest("%s.type must be a string.", field)
		}
		c, err := canonical(field+".type", s, allowed...)
		if err != nil {
			return nil, err
		}
		m["type"], _ = json.Marshal(c)
	}
	out, _ := json.Marshal(m)
	return out, nil
}

// Identity types of topics and event subscriptions.
func topicIdentityTypes() []string {
	return []string{"None", "SystemAssigned", "UserAssigned", "SystemAssigned, UserAssigned"}
}

func subscriptionIdentityTypes() []string { return []string{"SystemAssigned", "UserAssigned"} }
