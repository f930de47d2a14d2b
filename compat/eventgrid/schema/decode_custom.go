package schema

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

// decodeCustom reads a custom-schema request: a JSON array of objects. The
// topic's input mapping supplies each event's id, type, subject, time and
// dataVersion (W-EG-7.1); the object itself is kept unchanged.
func decodeCustom(t Topic, req Request) ([]*egevent.Event, *Error) {
	elems, err := splitArray(req.Body, req.MaxEventBytes)
	if err != nil {
		return nil, err
	}
	events := make([]*egevent.Event, 0, len(elems))
	for i, raw := range elems {
		m, err := object(raw, i)
		if err != nil {
			return nil, err
		}
		ev, err := mapCustomEvent(t, m, i, req)
		if err != nil {
			return nil, err
		}
		ev.Raw = raw
		events = append(events, ev)
	}
	return events, nil
}

func mapCustomEvent(t Topic, m map[string]json.RawMessage, i int, req Request) (*egevent.Event, *Error) {
	mp := t.Mapping
	if mp == nil {
		mp = &InputMapping{}
	}
	ev := &egevent.Event{Schema: egevent.CustomInputSchema, Topic: t.ID, TopicName: t.Name, PublishedAt: req.Now}
	var err *Error
	if ev.ID, _, err = mappedValue(m, mp.ID, "id", i); err != nil {
		return nil, err
	}
	if ev.ID == "" && req.NewID != nil {
		ev.ID = req.NewID()
	}
	if topic, found, err := mappedValue(m, mp.Topic, "topic", i); err != nil {
		return nil, err
	} else if t.Domain {
		if err := t.domainTopic(ev, topic, "topic", i); err != nil {
			return nil, err
		}
	} else if found && !strings.EqualFold(topic, t.ID) {
		return nil, badRequest("The mapped topic '%s' of the event at index %d does not match the topic it was published to ('%s').", topic, i, t.ID)
	}
	ev.Time = req.Now.UTC()
	if when, found, err := mappedValue(m, mp.EventTime, "eventTime", i); err != nil {
		return nil, err
	} else if found {
		var ok bool
		if ev.Time, ok = ParseTime(when); !ok {
			return nil, badRequest("The mapped eventTime '%s' of the event at index %d is not a valid date-time.", when, i)
		}
	}
	if ev.Type, err = withDefault(m, mp.EventType, "eventType", i, t.Mapping != nil); err != nil {
		return nil, err
	}
	if ev.Subject, err = withDefault(m, mp.Subject, "subject", i, false); err != nil {
		return nil, err
	}
	if ev.DataVersion, err = withDefault(m, mp.DataVersion, "dataVersion", i, false); err != nil {
		return nil, err
	}
	return ev, nil
}

// withDefault reads a mapped field that may fall back to its defaultValue.
// When required, an event with neither is refused (the service needs an
// eventType for every event of a mapped topic).
func withDefault(m map[string]json.RawMessage, f *MappedField, name string, i int, required bool) (string, *Error) {
	v, found, err := mappedValue(m, f, name, i)
	if err != nil || found {
		return v, err
	}
	if f != nil && f.DefaultValue != "" {
		return f.DefaultValue, nil
	}
	if required {
		return "", badRequest("The event at index %d has no value for the mapped field '%s' and the input mapping gives no default for %s.", i, sourceName(f), name)
	}
	return "", nil
}

func sourceName(f *MappedField) string {
	if f == nil {
		return ""
	}
	return f.SourceField
}

// mappedValue reads the top-level member the mapping names for field. A
// number or boolean is taken as its JSON text; objects and arrays are
// refused.
func mappedValue(m map[string]json.RawMessage, f *MappedField, field string, i int) (string, bool, *Error) {
	if !f.mapped() {
		return "", false, nil
	}
	raw, ok := m[f.SourceField]
	if !ok || string(raw) == "null" {
		return "", false, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true, nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), true, nil
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return strconv.FormatBool(b), true, nil
	}
	return "", false, badRequest("The field '%s' of the event at index %d, mapped to %s, must be a string.", f.SourceField, i, field)
}

// EventTimeLayout is how a custom event's time is written into its mapped
// Event Grid envelope.
const EventTimeLayout = time.RFC3339Nano

func eventTimeText(t time.Time) string { return t.UTC().Format(EventTimeLayout) }
