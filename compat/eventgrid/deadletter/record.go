package deadletter

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

// facts are what a record says about the delivery, beside the event.
type facts struct {
	reason      string
	attempts    int
	outcome     string
	status      int       // 0: no HTTP answer, so no lastHttpStatusCode
	publishTime time.Time // when the event was accepted
	lastAttempt time.Time // zero: no attempt was made
}

// timeLayout is how the seed's records write times: UTC, always seven
// fractional digits ("2020-08-13T17:18:14.0265758Z").
const timeLayout = "2006-01-02T15:04:05.0000000Z"

// writeRecord writes one event's record in the shape EG-23 gives for its
// schema. The shape follows the event's input schema, so the published
// event's own key order is kept, except for an event converted to
// CloudEvents for delivery (Event Grid or custom input, CloudEvents delivery
// schema): its record is the CloudEvent the endpoint received (delivered,
// the item's body) with the CloudEvents fields, as the seed shows records by
// delivery schema. In every other pairing the two readings give the same
// fields.
//
// The event's own JSON is copied, not decoded and re-encoded: json.Compact
// keeps every key in its published order and every value as published
// (numbers keep their digits), only whitespace goes. The record's fields are
// appended after it. An event published with a field of the same name (a
// dead letter re-published as is) would then hold it twice; JSON decoders in
// Go, JavaScript and .NET keep the last, which is the new value.
func writeRecord(w *bytes.Buffer, ev *egevent.Event, delivered []byte, delivery egevent.Schema, f facts) error {
	switch {
	case delivery == egevent.CloudEventSchemaV10 && ev.Schema != egevent.CloudEventSchemaV10:
		return writeCloudEventRecord(w, delivered, f)
	case ev.Schema == egevent.EventGridSchema, ev.Schema == "":
		return writeEventGridRecord(w, ev, f)
	case ev.Schema == egevent.CloudEventSchemaV10:
		return writeCloudEventRecord(w, ev.Raw, f)
	case ev.Schema == egevent.CustomInputSchema, ev.Schema == "CustomEventSchema":
		return writeCustomRecord(w, ev, f)
	default:
		return errors.New("unknown input schema " + strconv.Quote(string(ev.Schema)))
	}
}

// writeEventGridRecord: the event plus deadLetterReason, deliveryAttempts,
// lastDeliveryOutcome, lastHttpStatusCode (when there was an HTTP answer),
// publishTime, lastDeliveryAttemptTime. The cloud stores an event with
// dataVersion, metadataVersion and topic stamped (SDKs publish without
// them), so a record always carries them: published values stay as they
// are, missing ones are added after the event's own keys.
func writeEventGridRecord(w *bytes.Buffer, ev *egevent.Event, f facts) error {
	o, err := openObject(w, ev.Raw)
	if err != nil {
		return err
	}
	var hasDataVersion, hasMetadataVersion, hasTopic bool
	eachTopLevelKey(o.own, func(k string) {
		switch k {
		case "dataVersion":
			hasDataVersion = true
		case "metadataVersion":
			hasMetadataVersion = true
		case "topic":
			hasTopic = true
		}
	})
	if !hasDataVersion {
		o.str("dataVersion", ev.DataVersion)
	}
	if !hasMetadataVersion {
		o.str("metadataVersion", "1")
	}
	if !hasTopic && ev.Topic != "" {
		o.str("topic", ev.Topic)
	}
	o.eventGridFacts(f)
	o.close()
	return nil
}

// writeCloudEventRecord: the event plus the lower-case deadletterreason,
// deliveryattempts, lastdeliveryoutcome, publishtime. The seed's example
// has exactly these four (no attempt time, no status code), so GridBridge
// writes exactly these.
func writeCloudEventRecord(w *bytes.Buffer, event []byte, f facts) error {
	o, err := openObject(w, event)
	if err != nil {
		return err
	}
	o.str("deadletterreason", f.reason)
	o.num("deliveryattempts", f.attempts)
	o.str("lastdeliveryoutcome", f.outcome)
	o.timestamp("publishtime", f.publishTime)
	o.close()
	return nil
}

// writeCustomRecord: an Event Grid envelope, the Event Grid facts, then
// data holding the event exactly as published, in the seed's order.
func writeCustomRecord(w *bytes.Buffer, ev *egevent.Event, f facts) error {
	eventTime := ev.Time
	if eventTime.IsZero() {
		// An unmapped eventTime is the publish time (the seed's example has
		// eventTime equal to publishTime).
		eventTime = f.publishTime
	}
	o := object{w: w}
	w.WriteByte('{')
	o.str("id", ev.ID)
	o.timestamp("eventTime", eventTime)
	o.str("eventType", ev.Type)
	o.str("dataVersion", ev.DataVersion)
	o.str("metadataVersion", "1")
	o.str("topic", ev.Topic)
	o.str("subject", ev.Subject)
	o.eventGridFacts(f)
	o.key("data")
	if err := json.Compact(w, ev.Raw); err != nil {
		return err
	}
	o.close()
	return nil
}
