// Package arm is what GridBridge's Azure Resource Manager faces share:
// ARM's error type and codes, the endpoint table that routes a request by
// method and path template, the adapter that writes what a handler returns,
// and the body, name, key and systemData helpers. The faces
// (compat/resourcemanager for subscriptions, tenants, resource groups and
// providers; compat/eventgrid/basicarm for topics and their event
// subscriptions; compat/eventgrid/namespaces for namespaces) hold only their
// resources' rules and a table of endpoints.
//
// Every long-running operation finishes in its request: a face answers PUT
// with 200 or 201 and provisioningState Succeeded and no polling headers,
// so a Go Begin… plus PollUntilDone makes exactly one request.
package arm
