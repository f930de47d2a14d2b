package push

import (
	"fmt"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deliveryattr"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
)

// Attribute is one delivery attribute mapping: an HTTP header sent with
// every delivery, its value static or taken from the event.
type Attribute struct {
	Name string
	// Static values: Value, and Secret when it must never be shown again
	// (not by GET, not in dead-letter records).
	Static bool
	Value  string
	Secret bool
	// Dynamic values: SourceField, a path into the event ("data.orderId",
	// "subject"); only string, number and bool values are sent (Azure's
	// delivery-properties docs).
	SourceField string
}

// Resolve returns the attribute's value for ev; ok is false when a dynamic
// field is absent or not a scalar, and the header is then not sent.
func (a Attribute) Resolve(ev *cloudevent.Event) (string, bool) {
	if a.Static {
		return a.Value, true
	}
	v, ok := ev.ForFilter().Lookup(a.SourceField)
	if !ok {
		return "", false
	}
	return deliveryattr.HeaderValue(v)
}

// CustomDeliveryProperties is what a dead-letter record shows of the
// attributes for ev: every resolvable, non-secret header, keyed exactly as
// configured (NS-4). Nil when there are none to show.
func CustomDeliveryProperties(attrs []Attribute, ev *cloudevent.Event) map[string]string {
	var out map[string]string
	for _, a := range attrs {
		if a.Secret {
			continue
		}
		if v, ok := a.Resolve(ev); ok {
			if out == nil {
				out = make(map[string]string, len(attrs))
			}
			out[a.Name] = v
		}
	}
	return out
}

// invalidValue says which mapping produced a value that cannot be sent as
// an HTTP header.
func (a Attribute) invalidValue() error {
	if a.Static {
		return fmt.Errorf("delivery attribute mapping %q (Static): the value cannot be sent as an HTTP header (it holds CR, LF, NUL or another control character)", a.Name)
	}
	return fmt.Errorf("delivery attribute mapping %q (Dynamic, sourceField %q): the event's value cannot be sent as an HTTP header (it holds CR, LF, NUL or another control character)", a.Name, a.SourceField)
}
