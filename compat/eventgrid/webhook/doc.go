// Package webhook delivers Event Grid events to webhooks the way the service
// does (headers, body shapes, outcome names) and runs the two endpoint
// validation handshakes: the Event Grid SubscriptionValidationEvent and the
// CloudEvents OPTIONS abuse-protection check.
package webhook
