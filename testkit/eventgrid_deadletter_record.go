package testkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Record formats of Event Grid dead letters (EG-23).
const (
	// DeadLetterEventGridSchema is an Event Grid-schema event with
	// deadLetterReason, deliveryAttempts, … beside its own fields. Dead
	// letters of custom-schema topics have this format too, with the
	// published event in data.
	DeadLetterEventGridSchema = "EventGridSchema"
	// DeadLetterCloudEventSchema is a CloudEvent with the lower-case
	// deadletterreason, deliveryattempts, lastdeliveryoutcome, publishtime.
	DeadLetterCloudEventSchema = "CloudEventSchemaV1_0"
)

// DeadLetterRecord is one Event Grid dead letter as Azure writes it into a
// blob (EG-23), typed. The dead-letter fields are read from either format;
// Event is what is left, the event itself:
//
//	for _, r := range emu.EventGridDeadLetters(testkit.Filter{Subscription: "audit"}) {
//		fmt.Println(r.ID, r.DeadLetterReason, r.DeliveryAttempts, r.LastDeliveryOutcome)
//	}
type DeadLetterRecord struct {
	// Blob is where the record was stored: the blob name for records read
	// from storage, "<account>/<container>/<blob name>" for records read
	// through the inspection API.
	Blob string
	// Subscription is the event subscription's name as the blob name
	// carries it (upper-case, EG-23); "" when the name has no such segment.
	Subscription string
	// Format is DeadLetterEventGridSchema or DeadLetterCloudEventSchema.
	Format string
	// ID is the event's id.
	ID string

	DeadLetterReason    string // MaxDeliveryAttemptsExceeded, TimeToLiveExceeded, …
	DeliveryAttempts    int
	LastDeliveryOutcome string // EG-24: NotFound, Busy, TimedOut, …
	// LastHTTPStatusCode is 0 when the last attempt got no HTTP answer (or
	// the format does not carry it).
	LastHTTPStatusCode int
	PublishTime        time.Time
	// LastDeliveryAttemptTime is zero when the format does not carry it.
	LastDeliveryAttemptTime time.Time

	// Event is the record without its dead-letter fields: the Event Grid
	// event (topic and metadataVersion stamped) or the CloudEvent.
	Event json.RawMessage
	// Data is the event's data. For a dead letter of a custom-schema topic
	// it is the event exactly as it was published.
	Data json.RawMessage
}

// deadLetterFields are the members a record adds to the event, by format.
var deadLetterFields = map[string][]string{
	DeadLetterEventGridSchema: {"deadLetterReason", "deliveryAttempts", "lastDeliveryOutcome",
		"lastHttpStatusCode", "publishTime", "lastDeliveryAttemptTime"},
	DeadLetterCloudEventSchema: {"deadletterreason", "deliveryattempts", "lastdeliveryoutcome",
		"lasthttpstatuscode", "publishtime", "lastdeliveryattempttime"},
}

// ParseDeadLetterBlob reads the content of one dead-letter blob: the JSON
// array of records Azure writes (EG-23), one or more. blob names the blob
// in the records (see DeadLetterRecord.Blob):
//
//	resp, _ := blobs.DownloadStream(ctx, "dead", name, nil)
//	body, _ := io.ReadAll(resp.Body)
//	records, err := testkit.ParseDeadLetterBlob(name, body)
func ParseDeadLetterBlob(blob string, body []byte) ([]DeadLetterRecord, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		return nil, fmt.Errorf("dead-letter blob %s is not a JSON array of records: %w", blob, err)
	}
	out := make([]DeadLetterRecord, 0, len(raws))
	for i, raw := range raws {
		r, err := parseDeadLetterRecord(raw)
		if err != nil {
			return nil, fmt.Errorf("dead-letter blob %s, record %d: %w", blob, i, err)
		}
		r.Blob, r.Subscription = blob, subscriptionOfBlob(blob)
		out = append(out, r)
	}
	return out, nil
}

func parseDeadLetterRecord(raw json.RawMessage) (DeadLetterRecord, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return DeadLetterRecord{}, fmt.Errorf("not a JSON object: %w", err)
	}
	r := DeadLetterRecord{Format: DeadLetterEventGridSchema}
	if _, ok := m["deadletterreason"]; ok {
		r.Format = DeadLetterCloudEventSchema
	} else if _, ok := m["deadLetterReason"]; !ok {
		return DeadLetterRecord{}, fmt.Errorf("neither deadLetterReason nor deadletterreason: %.200s", raw)
	}
	names := deadLetterFields[r.Format]
	decode := []any{&r.DeadLetterReason, &r.DeliveryAttempts, &r.LastDeliveryOutcome,
		&r.LastHTTPStatusCode, &r.PublishTime, &r.LastDeliveryAttemptTime}
	for i, name := range names {
		if v, ok := m[name]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, decode[i]); err != nil {
				return DeadLetterRecord{}, fmt.Errorf("%s: %w", name, err)
			}
		}
		delete(m, name)
	}
	_ = json.Unmarshal(m["id"], &r.ID)
	r.Data = m["data"]
	event, err := withoutFields(raw, names)
	if err != nil {
		return DeadLetterRecord{}, err
	}
	r.Event = event
	return r, nil
}

// withoutFields copies the JSON object raw without the named top-level
// members, keeping the others in their order and byte for byte.
func withoutFields(raw json.RawMessage, names []string) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	skip := make(map[string]bool, len(names))
	for _, n := range names {
		skip[n] = true
	}
	var out bytes.Buffer
	out.WriteByte('{')
	first := true
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		if skip[key] {
			continue
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(value)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// subscriptionOfBlob is the subscription segment of a blob name
// "<SUBSCRIPTION>/<yyyy>/<M>/<d>/<H>/<guid>.json", also when it is
// prefixed with "<account>/<container>/".
func subscriptionOfBlob(blob string) string {
	seg := strings.Split(blob, "/")
	if len(seg) < 6 {
		return ""
	}
	return seg[len(seg)-6]
}
