package schema

import (
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

// decodeEventGrid reads an Event Grid schema request: a JSON array of events
// with id, subject, eventType and eventTime (W-EG-2.5).
func decodeEventGrid(t Topic, req Request) ([]*egevent.Event, *Error) {
	if mt := mediaType(req.Header); strings.HasPrefix(mt, "application/cloudevents") {
		return nil, badRequest("This resource is configured to receive event in 'EventGridEvent' schema. The JSON received does not conform to the expected schema (content type %s).", mt)
	}
	elems, err := splitArray(req.Body, req.MaxEventBytes)
	if err != nil {
		return nil, err
	}
	events := make([]*egevent.Event, 0, len(elems))
	for i, raw := range elems {
		ev, err := eventGridEvent(t, raw, i)
		if err != nil {
			return nil, err
		}
		ev.PublishedAt = req.Now
		events = append(events, ev)
	}
	return events, nil
}

func eventGridEvent(t Topic, raw []byte, i int) (*egevent.Event, *Error) {
	m, err := object(raw, i)
	if err != nil {
		return nil, err
	}
	ev := &egevent.Event{Schema: egevent.EventGridSchema, Raw: raw, Topic: t.ID, TopicName: t.Name}
	if ev.ID, err = requiredString(m, "id", i); err != nil {
		return nil, err
	}
	if ev.Type, err = requiredString(m, "eventType", i); err != nil {
		return nil, err
	}
	// subject is required but may be empty.
	subject, present, err := optionalString(m, "subject", i)
	if err != nil {
		return nil, err
	}
	if !present {
		return nil, badRequest("Required property 'subject' was not set on the event at index %d.", i)
	}
	ev.Subject = subject
	when, err := requiredString(m, "eventTime", i)
	if err != nil {
		return nil, err
	}
	var ok bool
	if ev.Time, ok = ParseTime(when); !ok {
		return nil, badRequest("The eventTime '%s' of the event at index %d is not a valid date-time.", when, i)
	}
	if ev.DataVersion, _, err = optionalString(m, "dataVersion", i); err != nil {
		return nil, err
	}
	if topic, present, err := optionalString(m, "topic", i); err != nil {
		return nil, err
	} else if t.Domain {
		if err := t.domainTopic(ev, topic, "topic", i); err != nil {
			return nil, err
		}
	} else if present && topic != "" && !strings.EqualFold(topic, t.ID) {
		return nil, badRequest("The topic '%s' of the event at index %d does not match the topic it was published to ('%s'). Leave topic out or set it to the topic's resource id.", topic, i, t.ID)
	}
	if mv, present, err := optionalString(m, "metadataVersion", i); err != nil {
		return nil, err
	} else if present && mv != "1" {
		return nil, badRequest("The metadataVersion '%s' of the event at index %d is not supported; it must be '1' or absent.", mv, i)
	}
	return ev, nil
}
