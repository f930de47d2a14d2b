package schema

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

// decodeCloudEvents reads a CloudEvents 1.0 request in structured mode
// (one event, application/cloudevents+json), batch mode
// (application/cloudevents-batch+json) or binary mode (ce-* headers).
func decodeCloudEvents(t Topic, req Request) ([]*egevent.Event, *Error) {
	if req.Header.Get("ce-specversion") != "" {
		raw, err := binaryCloudEvent(req)
		if err != nil {
			return nil, err
		}
		return cloudEventsFrom(t, req, []json.RawMessage{raw})
	}
	mt := mediaType(req.Header)
	single := false
	switch mt {
	case "application/cloudevents-batch+json":
	case "application/cloudevents+json":
		single = true
	case "application/json", "":
		// Not what the SDKs send; accepted by shape, leniently.
		single = firstByte(req.Body) == '{'
	default:
		return nil, badRequest("This resource is configured to receive event in 'CloudEventV10' schema. The content type '%s' is not supported: use application/cloudevents+json, application/cloudevents-batch+json or binary mode (ce-* headers).", mt)
	}
	if !single {
		elems, err := splitArray(req.Body, req.MaxEventBytes)
		if err != nil {
			return nil, err
		}
		return cloudEventsFrom(t, req, elems)
	}
	if firstByte(req.Body) != '{' {
		return nil, badRequest("Unexpected token when reading JSON. Expected: StartObject for content type %s.", mt)
	}
	if req.MaxEventBytes > 0 && len(req.Body) > req.MaxEventBytes {
		return nil, tooLarge(0, len(req.Body), req.MaxEventBytes)
	}
	return cloudEventsFrom(t, req, []json.RawMessage{req.Body})
}

func cloudEventsFrom(t Topic, req Request, elems []json.RawMessage) ([]*egevent.Event, *Error) {
	events := make([]*egevent.Event, 0, len(elems))
	for i, raw := range elems {
		ev, err := cloudEvent(t, raw, i)
		if err != nil {
			return nil, err
		}
		ev.PublishedAt = req.Now
		events = append(events, ev)
	}
	return events, nil
}

// cloudEvent validates one structured CloudEvent: id, source, type and
// specversion "1.0" are required (the data-plane swagger's CloudEventEvent).
func cloudEvent(t Topic, raw []byte, i int) (*egevent.Event, *Error) {
	m, err := object(raw, i)
	if err != nil {
		return nil, err
	}
	spec, err := requiredString(m, "specversion", i)
	if err != nil {
		return nil, err
	}
	if spec != "1.0" {
		return nil, badRequest("The specversion '%s' of the event at index %d is not supported; it must be '1.0'.", spec, i)
	}
	ev := &egevent.Event{Schema: egevent.CloudEventSchemaV10, Raw: raw, Topic: t.ID, TopicName: t.Name}
	if ev.ID, err = requiredString(m, "id", i); err != nil {
		return nil, err
	}
	source, err := requiredString(m, "source", i)
	if err != nil {
		return nil, err
	}
	if t.Domain {
		if err := t.domainTopic(ev, source, "source", i); err != nil {
			return nil, err
		}
	}
	if ev.Type, err = requiredString(m, "type", i); err != nil {
		return nil, err
	}
	if ev.Subject, _, err = optionalString(m, "subject", i); err != nil {
		return nil, err
	}
	when, present, err := optionalString(m, "time", i)
	if err != nil {
		return nil, err
	}
	if present {
		var ok bool
		if ev.Time, ok = ParseTime(when); !ok {
			return nil, badRequest("The time '%s' of the event at index %d is not a valid RFC 3339 timestamp.", when, i)
		}
	}
	return ev, nil
}

// binaryCloudEvent turns a binary-mode request into the structured form:
// every ce-* header becomes an attribute (values are percent-decoded, as
// the CloudEvents HTTP binding encodes them), Content-Type becomes
// datacontenttype, and the body becomes data (JSON media types), a string
// (text) or data_base64 (anything else).
func binaryCloudEvent(req Request) (json.RawMessage, *Error) {
	if req.MaxEventBytes > 0 && len(req.Body) > req.MaxEventBytes {
		return nil, tooLarge(0, len(req.Body), req.MaxEventBytes)
	}
	m := make(map[string]any)
	for name, values := range req.Header {
		lower := strings.ToLower(name)
		if !strings.HasPrefix(lower, "ce-") || len(lower) == 3 || len(values) == 0 {
			continue
		}
		v := values[0]
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		m[strings.TrimPrefix(lower, "ce-")] = v
	}
	ct := req.Header.Get("Content-Type")
	if ct != "" {
		m["datacontenttype"] = ct
	}
	if len(req.Body) > 0 {
		switch mt := mediaType(req.Header); {
		case isJSONMediaType(mt):
			if !json.Valid(req.Body) {
				return nil, badRequest("The body of the binary-mode event is not valid JSON although its content type is %s.", mt)
			}
			m["data"] = json.RawMessage(req.Body)
		case strings.HasPrefix(mt, "text/"):
			m["data"] = string(req.Body)
		default:
			m["data_base64"] = base64.StdEncoding.EncodeToString(req.Body)
		}
	}
	raw, err := marshalNoEscape(m)
	if err != nil {
		return nil, badRequest("The binary-mode event could not be read: %v.", err)
	}
	return raw, nil
}

func isJSONMediaType(mt string) bool {
	return mt == "application/json" || mt == "text/json" || strings.HasSuffix(mt, "+json")
}
