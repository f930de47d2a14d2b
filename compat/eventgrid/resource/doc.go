// Package resource holds GridBridge's model of Event Grid basic topics and
// their event subscriptions: reading them from ARM request bodies (with
// Azure's validation and enum casing rules), writing them as ARM returns
// them (secrets masked, defaults filled in), and an in-memory store. It does
// no HTTP and no delivery.
package resource
