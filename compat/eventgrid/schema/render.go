package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

// Render writes ev as a subscription with the given delivery schema
// receives it: one event, never wrapped in an array (the webhook builds the
// request body from a batch).
//
//   - Event Grid input: Event Grid delivery stamps topic, metadataVersion
//     "1" and dataVersion (W-EG-3.1: consumers reject events without
//     them); CloudEvents delivery maps the fields as W-EG-7.2 lists them.
//   - CloudEvents input is delivered as published (W-EG-7.4).
//   - Custom input: delivered as published for CustomInputSchema, or in the
//     mapped Event Grid envelope (data = the whole object), or that envelope
//     as a CloudEvent (W-EG-7.1, W-EG-7.3).
func Render(ev *egevent.Event, delivery egevent.Schema) ([]byte, error) {
	switch ev.Schema {
	case egevent.EventGridSchema:
		env, err := eventGridEnvelope(ev)
		if err != nil {
			return nil, err
		}
		return renderEnvelope(env, delivery, ev.Schema)
	case egevent.CloudEventSchemaV10:
		if delivery != egevent.CloudEventSchemaV10 {
			return nil, fmt.Errorf("a CloudEvents topic cannot deliver in %s", delivery)
		}
		return compact(ev.Raw)
	case egevent.CustomInputSchema:
		if delivery == egevent.CustomInputSchema || delivery == "" {
			return compact(ev.Raw)
		}
		data, err := compact(ev.Raw)
		if err != nil {
			return nil, err
		}
		return renderEnvelope(&eventGridJSON{
			ID: ev.ID, Topic: ev.Topic, Subject: ev.Subject, Data: data, EventType: ev.Type,
			EventTime: eventTimeText(ev.Time), MetadataVersion: "1", DataVersion: ev.DataVersion,
		}, delivery, ev.Schema)
	}
	return nil, fmt.Errorf("unknown input schema %q", ev.Schema)
}

func renderEnvelope(env *eventGridJSON, delivery, input egevent.Schema) ([]byte, error) {
	switch delivery {
	case egevent.EventGridSchema, "":
		return env.render()
	case egevent.CloudEventSchemaV10:
		return cloudEventFrom(env).render()
	}
	return nil, fmt.Errorf("a topic with %s input cannot deliver in %s", input, delivery)
}

// eventGridJSON is an Event Grid schema event, written with its members in
// the order the service writes them: id, topic, subject, data, eventType,
// eventTime, metadataVersion, dataVersion (data left out when absent).
type eventGridJSON struct {
	ID              string
	Topic           string
	Subject         string
	Data            json.RawMessage
	EventType       string
	EventTime       string
	MetadataVersion string
	DataVersion     string
}

func (e *eventGridJSON) render() ([]byte, error) {
	w := newJSONWriter(len(e.Data) + len(e.ID) + len(e.Topic) + len(e.Subject) + len(e.EventType) + len(e.DataVersion) + 128)
	w.str("id", e.ID)
	w.str("topic", e.Topic)
	w.str("subject", e.Subject)
	if err := w.raw("data", e.Data); err != nil {
		return nil, err
	}
	w.str("eventType", e.EventType)
	w.str("eventTime", e.EventTime)
	w.str("metadataVersion", e.MetadataVersion)
	w.str("dataVersion", e.DataVersion)
	return w.close(), nil
}

// eventGridEnvelope re-reads a published Event Grid event, keeping
// eventTime as the publisher wrote it and data byte for byte. The event was
// validated on publish, so only data and eventTime need finding.
func eventGridEnvelope(ev *egevent.Event) (*eventGridJSON, error) {
	env := &eventGridJSON{
		ID: ev.ID, Topic: ev.Topic, Subject: ev.Subject, EventType: ev.Type,
		MetadataVersion: "1", DataVersion: ev.DataVersion,
	}
	var when []byte
	ok := EachMember(ev.Raw, func(key, value []byte) {
		switch {
		case keyIs(key, "data"):
			env.Data = value
		case keyIs(key, "eventTime"):
			when = value
		}
	})
	if !ok {
		return nil, fmt.Errorf("event %s is not a JSON object", ev.ID)
	}
	env.EventTime = unquote(when)
	return env, nil
}

// unquote is a JSON string's text ("" for anything else), as
// encoding/json reads it; strings without escapes (nearly all) are sliced.
func unquote(quoted []byte) string {
	if len(quoted) >= 2 && quoted[0] == '"' && bytes.IndexByte(quoted, '\\') < 0 && utf8.Valid(quoted) {
		return string(quoted[1 : len(quoted)-1])
	}
	var s string
	_ = json.Unmarshal(quoted, &s)
	return s
}

// cloudEventJSON is a CloudEvent converted from an Event Grid event.
type cloudEventJSON struct {
	ID              string
	Source          string
	SpecVersion     string
	Type            string
	Subject         string // left out when ""
	Time            string // left out when ""
	DataContentType string // left out when ""
	DataSchema      string // left out when ""
	Data            json.RawMessage
}

func (c *cloudEventJSON) render() ([]byte, error) {
	w := newJSONWriter(len(c.Data) + len(c.ID) + len(c.Source) + len(c.Type) + len(c.Subject) + 160)
	w.str("id", c.ID)
	w.str("source", c.Source)
	w.str("specversion", c.SpecVersion)
	w.str("type", c.Type)
	w.optional("subject", c.Subject)
	w.optional("time", c.Time)
	w.optional("datacontenttype", c.DataContentType)
	w.optional("dataschema", c.DataSchema)
	if err := w.raw("data", c.Data); err != nil {
		return nil, err
	}
	return w.close(), nil
}

// cloudEventFrom maps Event Grid fields to CloudEvents attributes:
// source = topic, type = eventType, time = eventTime. datacontenttype
// "application/json" and dataschema "#<dataVersion>" are UNCONFIRMED
// details of the service's conversion.
func cloudEventFrom(env *eventGridJSON) *cloudEventJSON {
	ce := &cloudEventJSON{
		ID: env.ID, Source: env.Topic, SpecVersion: "1.0", Type: env.EventType,
		Subject: env.Subject, Time: env.EventTime, Data: env.Data,
	}
	if len(env.Data) > 0 {
		ce.DataContentType = "application/json"
	}
	if env.DataVersion != "" {
		ce.DataSchema = "#" + env.DataVersion
	}
	return ce
}

// marshalNoEscape writes JSON without escaping <, > and &, as the service's
// serializer does (URLs in events keep their '&').
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func compact(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
