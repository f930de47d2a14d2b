package filter

// Event is an event as a filter sees it, whatever schema it was published in.
type Event interface {
	// EventType is eventType (Event Grid schema) or type (CloudEvents).
	EventType() string
	// Subject is the subject, "" when the event has none.
	Subject() string
	// Lookup returns the value at a dotted key such as "data.key1.key2" or
	// "id", "topic", "eventType", "subject", "dataVersion" (Event Grid schema)
	// or "type", "source", an extension attribute, "data.x" (CloudEvents).
	// ok=false when the key is absent. The value is what encoding/json
	// produces: string, float64, bool, nil, []any or map[string]any.
	Lookup(key string) (value any, ok bool)
}
