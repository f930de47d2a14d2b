package resource

import (
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// TopicID is the ARM id of a topic, spelled as ARM spells it.
func TopicID(subscriptionID, resourceGroup, name string) string {
	return "/subscriptions/" + subscriptionID + "/resourceGroups/" + resourceGroup +
		"/providers/Microsoft.EventGrid/topics/" + name
}

// Key is the case-insensitive identity of an ARM id or name: ARM ids
// compare without regard to case.
func Key(s string) string { return strings.ToLower(s) }

// CheckTopicName applies Azure's topic name rules: 3 to 50 characters,
// letters, digits and hyphens, not starting with a reserved prefix.
func CheckTopicName(name string) *arm.Error {
	if !arm.ValidName(name, 3, 50) {
		return arm.BadRequest("Topic name must be between 3 and 50 characters in length and use alphanumeric characters and hyphens only; got '%s'.", name)
	}
	for _, reserved := range []string{"microsoft", "eventgrid", "system"} {
		if strings.HasPrefix(strings.ToLower(name), reserved) {
			return arm.BadRequest("Topic name '%s' must not start with the reserved prefixes Microsoft, EventGrid or System.", name)
		}
	}
	return nil
}

// CheckSubscriptionName applies the event subscription name rules: 3 to 64
// characters, letters, digits and hyphens (UNCONFIRMED: not in the docs read).
func CheckSubscriptionName(name string) *arm.Error {
	if !arm.ValidName(name, 3, 64) {
		return arm.BadRequest("Event subscription name must be between 3 and 64 characters in length and use alphanumeric characters and hyphens only; got '%s'.", name)
	}
	return nil
}
