package resourcemanager

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// WriteUnserved answers a request no face of the emulator serves in ARM's
// error shape, code in x-ms-error-code as well as in the body. A path under
// a resource provider GridBridge does not emulate (Microsoft.ServiceBus,
// Microsoft.Storage …) gets NoRegisteredProviderFound naming the provider
// and what GridBridge does instead; an unknown Microsoft.EventGrid resource
// type gets InvalidResourceType; anything else the status, code and
// message given.
func WriteUnserved(w http.ResponseWriter, r *http.Request, status int, code, message string) {
	if ns, typ, ok := providerOf(r.URL.EscapedPath()); ok && r.Method != http.MethodOptions {
		switch {
		case !strings.EqualFold(ns, eventGridNamespace):
			code = "NoRegisteredProviderFound"
			message = fmt.Sprintf("GridBridge does not emulate the resource provider %s: it serves %s (topics, domains, system topics, namespaces and their event subscriptions) and Resource Manager's subscriptions, tenants, resource groups and providers.%s",
				ns, eventGridNamespace, providerHint(ns))
		case typ != "" && status == http.StatusNotFound:
			code = "InvalidResourceType"
			message = fmt.Sprintf("The resource type '%s' could not be found in the namespace '%s' on GridBridge, which serves topics, domains, systemTopics, namespaces and eventSubscriptions, with their child resources.", typ, ns)
		}
	}
	w.Header().Set("x-ms-request-id", uuid.NewString())
	arm.WriteError(w, &arm.Error{Status: status, Code: code, Message: message})
}

const eventGridNamespace = "Microsoft.EventGrid"

// providerOf finds the resource provider namespace and the first resource
// type a Resource Manager path names (…/providers/<namespace>/<type>/…);
// ok is false for paths outside ARM or naming no provider.
func providerOf(escapedPath string) (namespace, resourceType string, ok bool) {
	segs := strings.Split(strings.Trim(escapedPath, "/"), "/")
	if len(segs) == 0 || !isARMRoot(segs[0]) {
		return "", "", false
	}
	for i := len(segs) - 2; i >= 0; i-- { // the innermost provider: extension resources nest
		if strings.EqualFold(segs[i], "providers") {
			if i+2 < len(segs) {
				resourceType = segs[i+2]
			}
			return segs[i+1], resourceType, segs[i+1] != ""
		}
	}
	return "", "", false
}

func isARMRoot(seg string) bool {
	switch strings.ToLower(seg) {
	case "subscriptions", "providers", "tenants":
		return true
	}
	return false
}

// providerHint says what GridBridge does with the providers an Event Grid
// resource most often points at.
func providerHint(namespace string) string {
	switch strings.ToLower(namespace) {
	case "microsoft.servicebus", "microsoft.eventhub", "microsoft.relay", "microsoft.web":
		return " An event subscription whose destination is one of its resources is accepted, and each delivery is recorded in the journal (GET /_emulator/deliveries) and counted as delivered, without being sent."
	case "microsoft.storage":
		return " Storage accounts are the --azure-storage connection strings (Azurite): dead-letter destinations, Storage Queue destinations and system topics name them by resource id."
	}
	return ""
}
