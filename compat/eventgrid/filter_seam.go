package eventgrid

import (
	"encoding/json"
	"maps"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/filter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
)

// lazyView is an event as subscription filters see it. Event type and
// subject come straight from the accepted event; the full view (below) is
// built only when an advanced filter looks a key up, because most
// subscriptions have none and decoding an event costs more than routing
// it. It is built at most once per event and shared by every subscription
// of the topic, then dropped: a queued event does not keep it.
type lazyView struct {
	ev   *egevent.Event
	full filter.Event
}

func (v *lazyView) EventType() string { return v.ev.Type }
func (v *lazyView) Subject() string   { return v.ev.Subject }

func (v *lazyView) Lookup(key string) (any, bool) {
	if v.full == nil {
		v.full = filterView(v.ev)
	}
	return v.full.Lookup(key)
}

// filterView is the full view (W-EG-5.2):
//   - Event Grid events with what delivery stamps on them (topic,
//     metadataVersion, a missing dataVersion as ""), so a filter on "topic"
//     sees the topic;
//   - CloudEvents as published (type, source, extensions, data);
//   - custom events as their mapped Event Grid envelope whose data is the
//     published object (keys "data.<field>"; UNCONFIRMED, the reference's
//     recommendation).
func filterView(ev *egevent.Event) filter.Event {
	fields := ev.Decoded
	if fields == nil {
		// Raw was validated as an object on publish.
		_ = json.Unmarshal(ev.Raw, &fields)
	}
	switch ev.Schema {
	case egevent.CloudEventSchemaV10:
		return filter.NewJSONEvent(fields, filter.CloudEventSchema)
	case egevent.CustomInputSchema:
		return filter.NewJSONEvent(map[string]any{
			"id": ev.ID, "topic": ev.Topic, "subject": ev.Subject, "eventType": ev.Type,
			"eventTime": ev.Time.UTC().Format(schema.EventTimeLayout), "dataVersion": ev.DataVersion,
			"metadataVersion": "1", "data": fields,
		}, filter.EventGridSchema)
	}
	if fields == nil {
		fields = map[string]any{}
	}
	if ev.Decoded != nil {
		fields = maps.Clone(fields) // the event's own map is not ours to stamp
	}
	fields["topic"], fields["metadataVersion"] = ev.Topic, "1"
	if _, ok := fields["dataVersion"]; !ok {
		fields["dataVersion"] = ""
	}
	return filter.NewJSONEvent(fields, filter.EventGridSchema)
}
