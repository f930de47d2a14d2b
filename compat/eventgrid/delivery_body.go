package eventgrid

import (
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// An item's body source renders an accepted event in one subscription's
// delivery schema whenever the engine needs its bytes (an attempt, the
// journal's view of it), so a queued event keeps one copy of its payload —
// the event as published, which dead-letter records are built from —
// instead of that and its rendered delivery body beside it.
//
// Rendering depends only on the event, which is never modified once
// accepted, and the schema: every rendering is byte-identical to the one
// accept made to check the event can be delivered (and to size it for
// batching).
//
// For each delivery schema the source is the event itself, seen as a type
// that knows the schema: converting the event's pointer costs no allocation,
// where a source object holding the event and the schema would cost one per
// queued event (memory per pending event).
type (
	eventGridBody  egevent.Event // in EventGridSchema
	cloudEventBody egevent.Event // in CloudEventSchemaV1_0
	customBody     egevent.Event // in CustomInputSchema
)

// deliveryBody renders in a schema the types above do not cover.
type deliveryBody struct {
	ev     *egevent.Event
	schema egevent.Schema
}

// bodySource is the source that renders ev in delivery.
func bodySource(ev *egevent.Event, delivery egevent.Schema) engine.BodySource {
	switch delivery {
	case egevent.EventGridSchema:
		return (*eventGridBody)(ev)
	case egevent.CloudEventSchemaV10:
		return (*cloudEventBody)(ev)
	case egevent.CustomInputSchema:
		return (*customBody)(ev)
	}
	return &deliveryBody{ev: ev, schema: delivery}
}

// newDeliveryItem renders ev in the delivery schema once, to catch an event
// that cannot be delivered in it and to learn its size, and returns the
// item that renders it again on demand.
func newDeliveryItem(ev *egevent.Event, delivery egevent.Schema) (*engine.Item, error) {
	body, err := schema.Render(ev, delivery)
	if err != nil {
		return nil, err
	}
	return &engine.Item{ID: ev.ID, Source: bodySource(ev, delivery), Size: len(body),
		PublishedAt: ev.PublishedAt, Meta: ev}, nil
}

// AppendBody implements engine.BodySource.
func (b *eventGridBody) AppendBody(dst []byte) []byte {
	return appendRendered(dst, (*egevent.Event)(b), egevent.EventGridSchema)
}

// AppendBody implements engine.BodySource.
func (b *cloudEventBody) AppendBody(dst []byte) []byte {
	return appendRendered(dst, (*egevent.Event)(b), egevent.CloudEventSchemaV10)
}

// AppendBody implements engine.BodySource.
func (b *customBody) AppendBody(dst []byte) []byte {
	return appendRendered(dst, (*egevent.Event)(b), egevent.CustomInputSchema)
}

// AppendBody implements engine.BodySource.
func (b *deliveryBody) AppendBody(dst []byte) []byte { return appendRendered(dst, b.ev, b.schema) }

// appendRendered appends ev rendered in delivery. Render cannot fail here:
// it succeeded on the same event and schema when the event was accepted.
func appendRendered(dst []byte, ev *egevent.Event, delivery egevent.Schema) []byte {
	body, err := schema.Render(ev, delivery)
	if err != nil {
		return dst
	}
	return append(dst, body...)
}
