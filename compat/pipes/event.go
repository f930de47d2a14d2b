package pipes

import (
	"bytes"
	"encoding/json"
	"sort"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/sqssource"
)

// record is one message of an SQS source as the pipe carries it: the
// event AWS builds for it (the shape Lambda receives), and what filters,
// templates and dynamic parameters read.
type record struct {
	id, receipt  string
	receiveCount int
	// event is the message as an event: messageId, receiptHandle, body,
	// attributes, messageAttributes, md5OfBody, eventSource,
	// eventSourceARN, awsRegion.
	event []byte
	// paths is event with the body parsed when it holds JSON, as AWS
	// filters and fills templates: {"body": {"order": 7}} matches a body
	// of {"order":7}. It is event itself for a body that is not JSON.
	paths []byte
	// takenAt is when the pipe received it; visibleAt when its visibility
	// timeout ends and it returns to the queue, unless deleted.
	takenAt, visibleAt time.Time
}

// eventAttributes is a message attribute as SQS events carry it.
type eventAttributes struct {
	StringValue      *string  `json:"stringValue,omitempty"`
	BinaryValue      []byte   `json:"binaryValue,omitempty"`
	StringListValues []string `json:"stringListValues"`
	BinaryListValues []string `json:"binaryListValues"`
	DataType         string   `json:"dataType"`
}

// newRecord builds a received message's event for the queue queueArn in
// region, its members in AWS's order. It is written by hand, not
// marshalled: every message a pipe reads is built once, and the paths
// document is the same text with the body spliced in parsed.
func newRecord(m sqssource.Message, queueArn, region string, now, visibleAt time.Time) *record {
	var b bytes.Buffer
	b.Grow(256 + len(m.Body)*11/10)
	b.WriteString(`{"messageId":`)
	writeString(&b, m.ID)
	b.WriteString(`,"receiptHandle":`)
	writeString(&b, m.ReceiptHandle)
	b.WriteString(`,"body":`)
	bodyAt := b.Len()
	writeString(&b, m.Body)
	bodyEnd := b.Len()
	b.WriteString(`,"attributes":{`)
	names := make([]string, 0, len(m.Attributes))
	for k := range m.Attributes {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, k := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, k)
		b.WriteByte(':')
		writeString(&b, m.Attributes[k])
	}
	b.WriteString(`},"messageAttributes":`)
	if len(m.MessageAttributes) == 0 {
		b.WriteString(`{}`)
	} else {
		attrs := make(map[string]eventAttributes, len(m.MessageAttributes))
		for name, a := range m.MessageAttributes {
			attrs[name] = eventAttributes{
				StringValue: a.StringValue, BinaryValue: a.BinaryValue, DataType: a.DataType,
				StringListValues: []string{}, BinaryListValues: []string{},
			}
		}
		b.Write(marshal(attrs))
	}
	b.WriteString(`,"md5OfBody":`)
	writeString(&b, m.MD5OfBody)
	if m.MD5OfMessageAttributes != "" {
		b.WriteString(`,"md5OfMessageAttributes":`)
		writeString(&b, m.MD5OfMessageAttributes)
	}
	b.WriteString(`,"eventSource":"aws:sqs","eventSourceARN":`)
	writeString(&b, queueArn)
	b.WriteString(`,"awsRegion":`)
	writeString(&b, region)
	b.WriteByte('}')
	event := b.Bytes()
	r := &record{
		id: m.ID, receipt: m.ReceiptHandle, receiveCount: m.ReceiveCount, event: event, paths: event,
		takenAt: now, visibleAt: visibleAt,
	}
	if body := bytes.TrimSpace([]byte(m.Body)); len(body) > 0 && json.Valid(body) {
		paths := make([]byte, 0, len(event))
		paths = append(paths, event[:bodyAt]...)
		paths = append(paths, body...)
		r.paths = append(paths, event[bodyEnd:]...)
	}
	return r
}

// writeString writes s as a JSON string. Most strings of an event need no
// escaping and are copied; the rest go through encoding/json, which also
// replaces invalid UTF-8.
func writeString(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			b.Write(marshal(s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// parsedBody returns an event (an enrichment's answer, say) as templates
// and dynamic parameters read it: a "body" member holding JSON text is
// parsed, as in a source event.
func parsedBody(event []byte) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(event, &obj) != nil || obj == nil {
		return event
	}
	raw, ok := obj["body"]
	if !ok {
		return event
	}
	var body string
	if json.Unmarshal(raw, &body) != nil {
		return event
	}
	trimmed := bytes.TrimSpace([]byte(body))
	if len(trimmed) == 0 || !json.Valid(trimmed) {
		return event
	}
	obj["body"] = trimmed
	return marshal(obj)
}

// marshal is json.Marshal without escaping <, > and &, which events carry
// as they were sent; v is one of the package's own shapes, which always
// encode.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
