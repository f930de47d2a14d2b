package sqs

import "github.com/gridbridge/gridbridge/internal/jsonscan"

// The message path's requests (SendMessageBatch, ReceiveMessage,
// DeleteMessageBatch) are most of the API's traffic; decodeFast reads
// their usual shape without reflection, with the scanner EventBridge's
// PutEvents uses too. It either fills v exactly as encoding/json would or
// reports false and leaves v alone, and the caller decodes with
// encoding/json, whose errors the API answers: anything unusual (an
// unknown, repeated, escaped or differently cased member, a null, a number
// that is not a plain integer, message attributes, invalid UTF-8) takes
// that path. protocol_json_inputs_test.go checks both agree.
func decodeFast(body []byte, v any) bool {
	r := jsonscan.New(body)
	// A member given twice is left to encoding/json, which merges the
	// second into the first: seen has a bit for each member read.
	var seen membersRead
	once := seen.first
	switch in := v.(type) {
	case *receiveMessageInput:
		var out receiveMessageInput
		if r.Object(func(key []byte) bool { return out.member(&r, key, once) }) && r.End() {
			*in = out
			return true
		}
	case *deleteMessageBatchInput:
		var out deleteMessageBatchInput
		if r.Object(func(key []byte) bool { return out.member(&r, key, once) }) && r.End() {
			*in = out
			return true
		}
	case *sendMessageBatchInput:
		var out sendMessageBatchInput
		if r.Object(func(key []byte) bool { return out.member(&r, key, once) }) && r.End() {
			*in = out
			return true
		}
	}
	return false
}

// membersRead has a bit for each member of an object read so far.
type membersRead uint32

// first reports whether bit's member is read for the first time, and
// marks it read.
func (m *membersRead) first(bit uint32) bool {
	if uint32(*m)&bit != 0 {
		return false
	}
	*m |= membersRead(bit)
	return true
}

func (in *receiveMessageInput) member(r *jsonscan.Reader, key []byte, once func(uint32) bool) bool {
	var ok bool
	switch string(key) {
	case "QueueUrl":
		in.QueueUrl, ok = r.String()
		return ok && once(1<<0)
	case "AttributeNames":
		in.AttributeNames, ok = r.Strings()
		return ok && once(1<<1)
	case "MessageSystemAttributeNames":
		in.MessageSystemAttributeNames, ok = r.Strings()
		return ok && once(1<<2)
	case "MessageAttributeNames":
		in.MessageAttributeNames, ok = r.Strings()
		return ok && once(1<<3)
	case "MaxNumberOfMessages":
		in.MaxNumberOfMessages = r.IntPtr()
		return in.MaxNumberOfMessages != nil && once(1<<4)
	case "VisibilityTimeout":
		in.VisibilityTimeout = r.IntPtr()
		return in.VisibilityTimeout != nil && once(1<<5)
	case "WaitTimeSeconds":
		in.WaitTimeSeconds = r.IntPtr()
		return in.WaitTimeSeconds != nil && once(1<<6)
	case "ReceiveRequestAttemptId":
		in.ReceiveRequestAttemptId, ok = r.String()
		return ok && once(1<<7)
	}
	return false
}

func (in *deleteMessageBatchInput) member(r *jsonscan.Reader, key []byte, once func(uint32) bool) bool {
	var ok bool
	switch string(key) {
	case "QueueUrl":
		in.QueueUrl, ok = r.String()
		return ok && once(1<<0)
	case "Entries":
		if !once(1 << 1) {
			return false
		}
		in.Entries = make([]deleteBatchEntry, 0, maxBatchEntries)
		return r.Array(func() bool {
			var e deleteBatchEntry
			var seen membersRead
			ok := r.Object(func(key []byte) bool {
				var ok bool
				var field int
				switch string(key) {
				case "Id":
					e.Id, ok = r.String()
				case "ReceiptHandle":
					field = 1
					e.ReceiptHandle, ok = r.String()
				default:
					return false
				}
				return ok && seen.first(1<<field)
			})
			in.Entries = append(in.Entries, e)
			return ok
		})
	}
	return false
}

func (in *sendMessageBatchInput) member(r *jsonscan.Reader, key []byte, once func(uint32) bool) bool {
	var ok bool
	switch string(key) {
	case "QueueUrl":
		in.QueueUrl, ok = r.String()
		return ok && once(1<<0)
	case "Entries":
		if !once(1 << 1) {
			return false
		}
		in.Entries = make([]sendBatchEntry, 0, maxBatchEntries)
		// The bodies' cells, which their pointers need, in one allocation
		// for a batch of the most entries a batch may have.
		bodies := make([]string, 0, maxBatchEntries)
		return r.Array(func() bool {
			var e sendBatchEntry
			var seen membersRead
			ok := r.Object(func(key []byte) bool {
				var ok bool
				var field int
				switch string(key) {
				case "Id":
					e.Id, ok = r.String()
				case "MessageBody":
					field = 1
					var body *string
					if len(bodies) < cap(bodies) {
						bodies = append(bodies, "")
						body = &bodies[len(bodies)-1]
					} else {
						body = new(string)
					}
					*body, ok = r.String()
					e.MessageBody = body
				case "DelaySeconds":
					field = 2
					e.DelaySeconds = r.IntPtr()
					ok = e.DelaySeconds != nil
				case "MessageGroupId":
					field = 3
					e.MessageGroupId, ok = r.String()
				case "MessageDeduplicationId":
					field = 4
					e.MessageDeduplicationId, ok = r.String()
				default:
					return false
				}
				return ok && seen.first(1<<field)
			})
			in.Entries = append(in.Entries, e)
			return ok
		})
	}
	return false
}
