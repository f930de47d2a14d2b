package pipes

import (
	"bytes"
	"encoding/json"
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

// sqsEvent is an SQS message as a pipe's event, its members in AWS's
// order; Body is the body's JSON: a string, or the parsed body.
type sqsEvent struct {
	MessageID              string                     `json:"messageId"`
	ReceiptHandle          string                     `json:"receiptHandle"`
	Body                   json.RawMessage            `json:"body"`
	Attributes             map[string]string          `json:"attributes"`
	MessageAttributes      map[string]eventAttributes `json:"messageAttributes"`
	MD5OfBody              string                     `json:"md5OfBody"`
	MD5OfMessageAttributes string                     `json:"md5OfMessageAttributes,omitempty"`
	EventSource            string                     `json:"eventSource"`
	EventSourceARN         string                     `json:"eventSourceARN"`
	AWSRegion              string                     `json:"awsRegion"`
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
// region.
func newRecord(m sqssource.Message, queueArn, region string, now, visibleAt time.Time) *record {
	ev := sqsEvent{
		MessageID: m.ID, ReceiptHandle: m.ReceiptHandle, Attributes: m.Attributes,
		MessageAttributes: map[string]eventAttributes{}, MD5OfBody: m.MD5OfBody, MD5OfMessageAttributes: m.MD5OfMessageAttributes,
		EventSource: "aws:sqs", EventSourceARN: queueArn, AWSRegion: region,
	}
	for name, a := range m.MessageAttributes {
		ev.MessageAttributes[name] = eventAttributes{
			StringValue: a.StringValue, BinaryValue: a.BinaryValue, DataType: a.DataType,
			StringListValues: []string{}, BinaryListValues: []string{},
		}
	}
	ev.Body = marshal(m.Body)
	event := marshal(ev)
	r := &record{
		id: m.ID, receipt: m.ReceiptHandle, receiveCount: m.ReceiveCount, event: event, paths: event,
		takenAt: now, visibleAt: visibleAt,
	}
	if body := bytes.TrimSpace([]byte(m.Body)); len(body) > 0 && json.Valid(body) {
		ev.Body = body
		r.paths = marshal(ev)
	}
	return r
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
