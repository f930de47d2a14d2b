package eventgrid

import (
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// deliveryBody renders an accepted event in one subscription's delivery
// schema whenever the engine needs its bytes (an attempt, the journal's
// view of it), so a queued event keeps one copy of its payload — the event
// as published, which dead-letter records are built from — instead of that
// and its rendered delivery body beside it (issue 17).
//
// Render depends only on the event, which is never modified once accepted,
// and the schema: every rendering is byte-identical to the one accept made
// to check the event can be delivered (and to size it for batching).
type deliveryBody struct {
	ev     *egevent.Event
	schema egevent.Schema
}

// newDeliveryItem renders ev in the delivery schema once, to catch an event
// that cannot be delivered in it and to learn its size, and returns the
// item that renders it again on demand.
func newDeliveryItem(ev *egevent.Event, delivery egevent.Schema) (*engine.Item, error) {
	body, err := schema.Render(ev, delivery)
	if err != nil {
		return nil, err
	}
	return &engine.Item{ID: ev.ID, Source: &deliveryBody{ev: ev, schema: delivery}, Size: len(body),
		PublishedAt: ev.PublishedAt, Meta: ev}, nil
}

// AppendBody implements engine.BodySource. Render cannot fail here: it
// succeeded on the same event and schema when the event was accepted.
func (b *deliveryBody) AppendBody(dst []byte) []byte {
	body, err := schema.Render(b.ev, b.schema)
	if err != nil {
		return dst
	}
	return append(dst, body...)
}
