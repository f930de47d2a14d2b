// Package cloudevent reads the CloudEvents 1.0 events a namespace topic
// accepts (structured, batch and binary mode), validates them as strictly as
// the Go SDK later decodes them, and keeps each one in structured JSON exactly
// as published: receives, pushes and dead letters hand back the same bytes.
package cloudevent

import (
	"encoding/json"
	"sync"
)

// Event is one accepted CloudEvent. It is immutable once built and shared by
// every subscription that takes it.
type Event struct {
	ID      string
	Source  string
	Type    string
	Subject string
	// JSON is the event in structured mode, attribute values as published.
	JSON json.RawMessage

	decodeOnce sync.Once
	fields     map[string]any
}

// Fields is the event decoded by encoding/json, for filters and dynamic
// delivery attributes. It is decoded on first use only: most subscriptions
// filter on the type alone.
func (e *Event) Fields() map[string]any {
	e.decodeOnce.Do(func() {
		// JSON was validated as an object when the event was accepted.
		_ = json.Unmarshal(e.JSON, &e.fields)
	})
	return e.fields
}
