package armmodel

import (
	"net/http"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// Resource types as the service returns them in "type".
const (
	TypeNamespace         = "Microsoft.EventGrid/namespaces"
	TypeTopic             = "Microsoft.EventGrid/namespaces/topics"
	TypeEventSubscription = "Microsoft.EventGrid/namespaces/topics/eventsubscriptions"
)

// ProvisioningSucceeded is the only state GridBridge reports: every change
// is applied within the request, so a Go poller finishes after one request.
const ProvisioningSucceeded = "Succeeded"

// ValidateName applies the namespace, topic and subscription name rule:
// 3 to 50 letters, digits and hyphens [SPEC].
func ValidateName(kind, name string) *arm.Error {
	if arm.ValidName(name, 3, 50) {
		return nil
	}
	return &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeInvalidResourceName,
		Message: "The " + kind + " name '" + name + "' is invalid: it must be 3 to 50 characters long and contain only letters, digits and hyphens."}
}

// SystemData is the ARM systemData block.
type SystemData = arm.SystemData

// NewSystemData stamps a resource created at now.
func NewSystemData(now time.Time) *SystemData { return arm.NewSystemData(now) }

// canonical returns the member of allowed that equals v ignoring case: ARM
// enums arrive in any casing from templates and the CLI, and the Go SDK
// wants the canonical spelling back.
func canonical(v string, allowed ...string) (string, bool) {
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return a, true
		}
	}
	return "", false
}
