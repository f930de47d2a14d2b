// Package egevent holds the one shape every Event Grid package shares for an
// accepted event: the publish handler produces it, filters read it, delivery
// and dead-lettering turn it into bytes.
package egevent

import (
	"encoding/json"
	"time"
)

// Schema names an input or delivery schema as ARM spells it.
type Schema string

// The schemas of Event Grid topics and event subscriptions.
const (
	EventGridSchema     Schema = "EventGridSchema"
	CloudEventSchemaV10 Schema = "CloudEventSchemaV1_0"
	CustomInputSchema   Schema = "CustomInputSchema"
	// CustomInputSchema events are delivered in the topic's schema unless the
	// subscription asks for another; the subscription field is then empty.
)

// Event is one event a topic accepted, as it was published. It is the Meta of
// every engine.Item an Event Grid route carries.
type Event struct {
	// ID, Type and Subject are the event's identity and routing fields in
	// any schema (Event Grid id/eventType/subject, CloudEvents id/type/subject,
	// or the mapped custom fields).
	ID      string
	Type    string
	Subject string
	// Time is the event's own time (eventTime / time).
	Time time.Time
	// DataVersion is the Event Grid dataVersion ("" for CloudEvents).
	DataVersion string
	// Schema is the topic's input schema: how Raw is shaped.
	Schema Schema
	// Raw is the event exactly as published (one element of the request array).
	Raw json.RawMessage
	// Decoded is Raw decoded with encoding/json, or nil: the publish path
	// leaves it nil and filters decode Raw only when an advanced filter
	// looks a key up, so a queued event does not hold a decoded copy.
	Decoded map[string]any
	// Topic is the topic's ARM resource id (lower-case subscription and
	// resource-group segments as Azure writes them in events).
	Topic string
	// TopicName is the topic's short name.
	TopicName string
	// PublishedAt is when the emulator accepted the event (its clock).
	PublishedAt time.Time
}
