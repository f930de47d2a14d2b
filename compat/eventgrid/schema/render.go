package schema

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

// Render writes ev as a subscription with the given delivery schema
// receives it: one event, never wrapped in an array (the webhook builds the
// request body from a batch).
//
//   - Event Grid input: Event Grid delivery stamps topic, metadataVersion
//     "1" and dataVersion (reference §3.1: consumers reject events without
//     them); CloudEvents delivery maps the fields as §7.2 lists them.
//   - CloudEvents input is delivered as published (§7.4).
//   - Custom input: delivered as published for CustomInputSchema, or in the
//     mapped Event Grid envelope (data = the whole object), or that envelope
//     as a CloudEvent (§7.1, §7.3).
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
		return marshalNoEscape(env)
	case egevent.CloudEventSchemaV10:
		return marshalNoEscape(cloudEventFrom(env))
	}
	return nil, fmt.Errorf("a topic with %s input cannot deliver in %s", input, delivery)
}

// eventGridJSON is an Event Grid schema event in the order the service
// writes its members.
type eventGridJSON struct {
	ID              string          `json:"id"`
	Topic           string          `json:"topic"`
	Subject         string          `json:"subject"`
	Data            json.RawMessage `json:"data,omitempty"`
	EventType       string          `json:"eventType"`
	EventTime       string          `json:"eventTime"`
	MetadataVersion string          `json:"metadataVersion"`
	DataVersion     string          `json:"dataVersion"`
}

// eventGridEnvelope re-reads a published Event Grid event, keeping
// eventTime as the publisher wrote it and data byte for byte.
func eventGridEnvelope(ev *egevent.Event) (*eventGridJSON, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(ev.Raw, &m); err != nil {
		return nil, err
	}
	var when string
	_ = json.Unmarshal(m["eventTime"], &when) // validated on publish
	return &eventGridJSON{
		ID: ev.ID, Topic: ev.Topic, Subject: ev.Subject, Data: m["data"], EventType: ev.Type,
		EventTime: when, MetadataVersion: "1", DataVersion: ev.DataVersion,
	}, nil
}

// cloudEventJSON is a CloudEvent converted from an Event Grid event.
type cloudEventJSON struct {
	ID              string          `json:"id"`
	Source          string          `json:"source"`
	SpecVersion     string          `json:"specversion"`
	Type            string          `json:"type"`
	Subject         string          `json:"subject,omitempty"`
	Time            string          `json:"time,omitempty"`
	DataContentType string          `json:"datacontenttype,omitempty"`
	DataSchema      string          `json:"dataschema,omitempty"`
	Data            json.RawMessage `json:"data,omitempty"`
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
