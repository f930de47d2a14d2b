package cloudevent

import (
	"github.com/gridbridge/gridbridge/compat/eventgrid/filter"
)

// ForFilter presents the event to the shared Event Grid filter.
func (e *Event) ForFilter() filter.Event { return filterView{e} }

type filterView struct{ e *Event }

// EventType is the CloudEvent type.
func (v filterView) EventType() string { return v.e.Type }

// Subject is the subject, "" when the event has none.
func (v filterView) Subject() string { return v.e.Subject }

// Lookup finds a context attribute, an extension, or a dotted path into data
// ("data.order.total"). The common attributes are answered without decoding
// the event; everything else is matched the way the shared filter matches
// keys.
func (v filterView) Lookup(key string) (any, bool) {
	switch key {
	case "id":
		return v.e.ID, true
	case "source":
		return v.e.Source, true
	case "type":
		return v.e.Type, true
	}
	return filter.NewJSONEvent(v.e.Fields(), filter.CloudEventSchema).Lookup(key)
}
