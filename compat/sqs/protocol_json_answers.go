package sqs

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// The answers of the message path (ReceiveMessage, SendMessageBatch,
// DeleteMessageBatch, ChangeMessageVisibilityBatch) are most of the API's
// traffic, so they are written by hand rather than through reflection: the
// same members, in the same order and with the same omissions as
// encoding/json would write them (protocol_json_answers_test.go checks).

// jsonAppender is a result that writes its own JSON.
type jsonAppender interface{ appendJSON(b []byte) []byte }

var (
	_ jsonAppender = receiveMessageOutput{}
	_ jsonAppender = sendMessageBatchOutput{}
	_ jsonAppender = idBatchOutput{}
)

func appendMember(b []byte, first bool, name string) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

func appendStringMember(b []byte, first bool, name, v string) []byte {
	return httpjson.AppendString(appendMember(b, first, name), v)
}

func (o receiveMessageOutput) appendJSON(b []byte) []byte {
	if len(o.Messages) == 0 {
		return append(b, '{', '}')
	}
	// Room for the answer as it usually is, so it is allocated once.
	size := 16
	for _, m := range o.Messages {
		size += 96 + len(m.MessageId) + len(m.ReceiptHandle) + len(m.MD5OfBody) + len(m.Body) + len(m.Body)/8
		for n, v := range m.Attributes {
			size += 8 + len(n) + len(v)
		}
	}
	b = slices.Grow(b, size)
	b = append(b, `{"Messages":[`...)
	for i, m := range o.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStringMember(append(b, '{'), true, "MessageId", m.MessageId)
		b = appendStringMember(b, false, "ReceiptHandle", m.ReceiptHandle)
		b = appendStringMember(b, false, "MD5OfBody", m.MD5OfBody)
		b = appendStringMember(b, false, "Body", m.Body)
		if len(m.Attributes) > 0 {
			b = append(appendMember(b, false, "Attributes"), '{')
			names := make([]string, 0, len(m.Attributes))
			for n := range m.Attributes {
				names = append(names, n)
			}
			slices.Sort(names)
			for j, n := range names {
				b = appendStringMember(b, j == 0, n, m.Attributes[n])
			}
			b = append(b, '}')
		}
		if m.MD5OfMessageAttributes != "" {
			b = appendStringMember(b, false, "MD5OfMessageAttributes", m.MD5OfMessageAttributes)
		}
		if len(m.MessageAttributes) > 0 {
			// Rare on the hot path, and binary values go as base64: left
			// to encoding/json.
			attrs, _ := json.Marshal(m.MessageAttributes)
			b = append(appendMember(b, false, "MessageAttributes"), attrs...)
		}
		b = append(b, '}')
	}
	return append(b, ']', '}')
}

func (o sendMessageBatchOutput) appendJSON(b []byte) []byte {
	b = append(b, `{"Successful":`...)
	if o.Successful == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range o.Successful {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStringMember(append(b, '{'), true, "Id", s.Id)
			b = appendStringMember(b, false, "MessageId", s.MessageId)
			b = appendStringMember(b, false, "MD5OfMessageBody", s.MD5OfMessageBody)
			if s.MD5OfMessageAttributes != "" {
				b = appendStringMember(b, false, "MD5OfMessageAttributes", s.MD5OfMessageAttributes)
			}
			if s.SequenceNumber != "" {
				b = appendStringMember(b, false, "SequenceNumber", s.SequenceNumber)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(appendBatchErrors(b, o.Failed), '}')
}

func (o idBatchOutput) appendJSON(b []byte) []byte {
	b = append(b, `{"Successful":`...)
	if o.Successful == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range o.Successful {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendStringMember(append(b, '{'), true, "Id", s.Id), '}')
		}
		b = append(b, ']')
	}
	return append(appendBatchErrors(b, o.Failed), '}')
}

// appendBatchErrors writes a batch answer's "Failed" member.
func appendBatchErrors(b []byte, failed []batchErrorEntry) []byte {
	b = append(b, `,"Failed":`...)
	if failed == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, f := range failed {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStringMember(append(b, '{'), true, "Id", f.Id)
		b = appendStringMember(b, false, "Code", f.Code)
		b = appendStringMember(b, false, "Message", f.Message)
		b = strconv.AppendBool(appendMember(b, false, "SenderFault"), f.SenderFault)
		b = append(b, '}')
	}
	return append(b, ']')
}
