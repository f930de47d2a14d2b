// Package basicarm serves the Azure Resource Manager API of Event Grid basic
// topics and their event subscriptions, answering as armeventgrid/v2 and
// @azure/arm-eventgrid expect: every long-running operation finishes in
// its request (PUT and event-subscription PATCH answer 201 with
// provisioningState Succeeded, DELETE 204, POST actions 200), any
// api-version is accepted, and errors use ARM's {"error":{code,message}}.
// Endpoints lists every path and method; compat/azure/arm routes them
// and writes the answers.
package basicarm
