package filter

import (
	"strings"
	"unicode/utf8"
)

// Schema says which envelope a JSONEvent has.
type Schema int

const (
	// EventGridSchema events carry eventType, subject, id, topic, dataVersion, data.
	EventGridSchema Schema = iota
	// CloudEventSchema events are CloudEvents 1.0: type, source, id, subject,
	// extension attributes, data.
	CloudEventSchema
)

// JSONEvent presents an event decoded by encoding/json as an Event.
type JSONEvent struct {
	fields map[string]any
	schema Schema
}

// NewJSONEvent wraps a decoded event. Build it once per event and share it
// across subscriptions: Match then allocates nothing.
func NewJSONEvent(fields map[string]any, schema Schema) *JSONEvent {
	return &JSONEvent{fields: fields, schema: schema}
}

// EventType returns eventType or, for CloudEvents, type.
func (e *JSONEvent) EventType() string {
	if e.schema == CloudEventSchema {
		return e.stringField("type")
	}
	return e.stringField("eventType")
}

// Subject returns subject, "" when absent or not a string (a CloudEvent may
// omit it; the subject filters then see "").
func (e *JSONEvent) Subject() string { return e.stringField("subject") }

func (e *JSONEvent) stringField(name string) string {
	v, _ := field(e.fields, name)
	s, _ := v.(string)
	return s
}

// Lookup walks a dotted key through nested objects. Each segment matches a
// property exactly or, failing that, ignoring case: the docs write envelope
// keys as ID, Subject, EventType and data keys as Data.Key1, while events
// spell them id, subject, eventType, data.key1. Dots cannot be escaped
// [filtering doc, Limitations], so a property whose name contains a dot is
// unreachable, as in Azure.
func (e *JSONEvent) Lookup(key string) (any, bool) {
	obj := e.fields
	for {
		dot := strings.IndexByte(key, '.')
		if dot < 0 {
			return field(obj, key)
		}
		v, ok := field(obj, key[:dot])
		if !ok {
			return nil, false
		}
		if obj, ok = v.(map[string]any); !ok {
			return nil, false
		}
		key = key[dot+1:]
	}
}

// field finds a property by name: exactly; else, for an ASCII name, spelled
// with a lower-case first letter ("Key1" finds "key1", "AppEventTypeDetail"
// finds "appEventTypeDetail") or all in lower case; else ignoring case, the
// smallest matching name winning. Every step is deterministic, and the probes
// spare the common cases a scan of the whole object. Probing with string(b)
// on a stack buffer does not allocate.
func field(obj map[string]any, name string) (any, bool) {
	if v, ok := obj[name]; ok {
		return v, true
	}
	if len(obj) == 0 || name == "" {
		return nil, false
	}
	var lowerBuf, firstBuf [probeMax]byte
	if lower, ok := appendLowerASCII(lowerBuf[:0], name); ok {
		first := append(append(firstBuf[:0], lower[0]), name[1:]...)
		if first[0] != name[0] {
			if v, ok := obj[string(first)]; ok {
				return v, true
			}
		}
		if string(lower) != string(first) && string(lower) != name {
			if v, ok := obj[string(lower)]; ok {
				return v, true
			}
		}
	}
	var (
		best  string
		value any
		found bool
	)
	for k, v := range obj {
		if strings.EqualFold(k, name) && (!found || k < best) {
			best, value, found = k, v, true
		}
	}
	return value, found
}

// probeMax is the longest name field probes for before scanning.
const probeMax = 48

// appendLowerASCII appends name in lower case; ok is false when name is not
// ASCII or longer than probeMax.
func appendLowerASCII(b []byte, name string) ([]byte, bool) {
	if len(name) > probeMax {
		return nil, false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf {
			return nil, false
		}
		b = append(b, byte(lowerASCII(rune(c))))
	}
	return b, true
}
