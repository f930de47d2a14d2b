package eventgrid

import (
	"maps"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/filter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
)

// filterView is an event as subscription filters see it (reference §5.2),
// built once per event and shared by every subscription of the topic:
//   - Event Grid events with what delivery stamps on them (topic,
//     metadataVersion, a missing dataVersion as ""), so a filter on "topic"
//     sees the topic;
//   - CloudEvents as published (type, source, extensions, data);
//   - custom events as their mapped Event Grid envelope whose data is the
//     published object (keys "data.<field>"; UNCONFIRMED, the reference's
//     recommendation).
func filterView(ev *egevent.Event) filter.Event {
	switch ev.Schema {
	case egevent.CloudEventSchemaV10:
		return filter.NewJSONEvent(ev.Decoded, filter.CloudEventSchema)
	case egevent.CustomInputSchema:
		return filter.NewJSONEvent(map[string]any{
			"id": ev.ID, "topic": ev.Topic, "subject": ev.Subject, "eventType": ev.Type,
			"eventTime": ev.Time.UTC().Format(schema.EventTimeLayout), "dataVersion": ev.DataVersion,
			"metadataVersion": "1", "data": ev.Decoded,
		}, filter.EventGridSchema)
	}
	fields := maps.Clone(ev.Decoded)
	if fields == nil {
		fields = map[string]any{}
	}
	fields["topic"], fields["metadataVersion"] = ev.Topic, "1"
	if _, ok := fields["dataVersion"]; !ok {
		fields["dataVersion"] = ""
	}
	return filter.NewJSONEvent(fields, filter.EventGridSchema)
}
