// Package schema reads events as publishers send them to an Event Grid basic
// topic (Event Grid schema, CloudEvents 1.0 structured, batch and binary
// mode, custom schema with an input mapping) and writes them as a webhook
// receives them in a subscription's delivery schema. It is pure: no HTTP
// handling, no clock, no state.
package schema
