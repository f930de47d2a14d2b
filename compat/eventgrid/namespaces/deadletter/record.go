// Package deadletter is the dead-letter format of Event Grid namespace
// subscriptions as GridBridge writes it: one blob per dead-letter write, named
// by BlobPath (NS-6), holding a JSON array of records (NS-4). Parse reads
// those blobs back, and the variants the cloud's documents show, for tests
// and for re-publishing (NS-10).
package deadletter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Record is one dead-lettered event (NS-4).
type Record struct {
	// Event is the CloudEvent in structured JSON, attributes as published;
	// binary-mode events carry data_base64 unless their data is JSON (NS-5).
	Event json.RawMessage
	// CustomDeliveryProperties are a push subscription's delivery headers,
	// keys as configured, secret ones left out; nil for pull subscriptions.
	CustomDeliveryProperties map[string]string
	// Reason is deadletterreason, e.g. "Maximum delivery attempts was exceeded.".
	Reason string
	// DeliveryAttempts is how many times the event was received or pushed.
	DeliveryAttempts int
	// DeliveryResult is the outcome of the last attempt, e.g. "Unauthorized".
	DeliveryResult string
	// PublishedAt is when the topic accepted the event.
	PublishedAt time.Time
	// LastDeliveryAttemptAt is the last receive or push; zero if none.
	LastDeliveryAttemptAt time.Time
}

// timeLayout is .NET's round-trip format, seven fractional digits, UTC, as
// the service writes publishutc and deliveryattemptutc.
const timeLayout = "2006-01-02T15:04:05.0000000Z"

// FormatTime writes t as the records do.
func FormatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// properties is deadletterProperties on the wire.
type properties struct {
	Reason             string `json:"deadletterreason"`
	DeliveryAttempts   int    `json:"deliveryattempts"`
	DeliveryResult     string `json:"deliveryresult"`
	PublishUTC         string `json:"publishutc"`
	DeliveryAttemptUTC string `json:"deliveryattemptutc,omitempty"`
}

// MarshalJSON writes the NS-4 layout: event, customDeliveryProperties (push
// only), deadletterProperties, in that order.
func (r Record) MarshalJSON() ([]byte, error) {
	if !json.Valid(r.Event) {
		return nil, errors.New("deadletter: the record's event is not valid JSON")
	}
	p := properties{
		Reason: r.Reason, DeliveryAttempts: r.DeliveryAttempts, DeliveryResult: r.DeliveryResult,
		PublishUTC: FormatTime(r.PublishedAt),
	}
	if !r.LastDeliveryAttemptAt.IsZero() {
		p.DeliveryAttemptUTC = FormatTime(r.LastDeliveryAttemptAt)
	}
	var b bytes.Buffer
	b.WriteString(`{"event":`)
	b.Write(r.Event)
	if r.CustomDeliveryProperties != nil {
		custom, err := json.Marshal(r.CustomDeliveryProperties)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"customDeliveryProperties":`)
		b.Write(custom)
	}
	props, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	b.WriteString(`,"deadletterProperties":`)
	b.Write(props)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalBlob writes the content of one dead-letter blob: a JSON array of
// records (NS-6).
func MarshalBlob(records []Record) ([]byte, error) {
	if records == nil {
		records = []Record{}
	}
	return json.Marshal(records)
}

// UnmarshalJSON reads a record in any of the layouts the cloud's documents
// show: the NS-4 wrapper with deadletterProperties or deadLetterProperties
// (the delivery page's capture spells it so), or the event's attributes
// flattened next to those two keys.
func (r *Record) UnmarshalJSON(data []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("deadletter: a record must be a JSON object: %w", err)
	}
	var out Record
	var props properties
	found := false
	for _, key := range []string{"deadletterProperties", "deadLetterProperties", "brokerProperties"} {
		raw, ok := obj[key]
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, &props); err != nil {
			return fmt.Errorf("deadletter: %s: %w", key, err)
		}
		delete(obj, key)
		found = true
		break
	}
	if !found {
		return errors.New("deadletter: the record has no deadletterProperties")
	}
	if raw, ok := obj["customDeliveryProperties"]; ok {
		if err := json.Unmarshal(raw, &out.CustomDeliveryProperties); err != nil {
			return fmt.Errorf("deadletter: customDeliveryProperties: %w", err)
		}
		delete(obj, "customDeliveryProperties")
	}
	if raw, ok := obj["event"]; ok {
		out.Event = append(json.RawMessage(nil), raw...)
	} else {
		flat, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		out.Event = flat
	}
	out.Reason, out.DeliveryAttempts, out.DeliveryResult = props.Reason, props.DeliveryAttempts, props.DeliveryResult
	var err error
	if out.PublishedAt, err = parseTime(props.PublishUTC); err != nil {
		return fmt.Errorf("deadletter: publishutc: %w", err)
	}
	if out.LastDeliveryAttemptAt, err = parseTime(props.DeliveryAttemptUTC); err != nil {
		return fmt.Errorf("deadletter: deliveryattemptutc: %w", err)
	}
	*r = out
	return nil
}

func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339Nano, s)
}

// Parse reads one dead-letter blob: a JSON array of records, or a single
// record object.
func Parse(blob []byte) ([]Record, error) {
	trimmed := bytes.TrimSpace(blob)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var r Record
		if err := json.Unmarshal(trimmed, &r); err != nil {
			return nil, err
		}
		return []Record{r}, nil
	}
	var records []Record
	if err := json.Unmarshal(trimmed, &records); err != nil {
		return nil, fmt.Errorf("deadletter: a blob must hold a JSON array of records: %w", err)
	}
	return records, nil
}
