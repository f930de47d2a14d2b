package sqs

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The message path's requests (SendMessageBatch, ReceiveMessage,
// DeleteMessageBatch) are most of the API's traffic; decodeFast reads
// their usual shape without reflection. It either fills v exactly as
// encoding/json would or reports false and leaves v alone, and the caller
// decodes with encoding/json, whose errors the API answers: anything
// unusual (an unknown or differently cased member, a null, a number that
// is not a plain integer, message attributes, invalid UTF-8) takes that
// path. protocol_json_inputs_test.go checks both agree.
func decodeFast(body []byte, v any) bool {
	r := &jsonReader{b: body}
	var ok bool
	switch in := v.(type) {
	case *receiveMessageInput:
		var out receiveMessageInput
		ok = r.object(func(key string) bool { return out.member(r, key) })
		if ok && r.end() {
			*in = out
		}
	case *deleteMessageBatchInput:
		var out deleteMessageBatchInput
		ok = r.object(func(key string) bool { return out.member(r, key) })
		if ok && r.end() {
			*in = out
		}
	case *sendMessageBatchInput:
		var out sendMessageBatchInput
		ok = r.object(func(key string) bool { return out.member(r, key) })
		if ok && r.end() {
			*in = out
		}
	default:
		return false
	}
	return ok && r.end()
}

func (in *receiveMessageInput) member(r *jsonReader, key string) bool {
	switch key {
	case "QueueUrl":
		return r.str(&in.QueueUrl)
	case "AttributeNames":
		return r.strings(&in.AttributeNames)
	case "MessageSystemAttributeNames":
		return r.strings(&in.MessageSystemAttributeNames)
	case "MessageAttributeNames":
		return r.strings(&in.MessageAttributeNames)
	case "MaxNumberOfMessages":
		return r.intPtr(&in.MaxNumberOfMessages)
	case "VisibilityTimeout":
		return r.intPtr(&in.VisibilityTimeout)
	case "WaitTimeSeconds":
		return r.intPtr(&in.WaitTimeSeconds)
	case "ReceiveRequestAttemptId":
		return r.str(&in.ReceiveRequestAttemptId)
	}
	return false
}

func (in *deleteMessageBatchInput) member(r *jsonReader, key string) bool {
	switch key {
	case "QueueUrl":
		return r.str(&in.QueueUrl)
	case "Entries":
		in.Entries = []deleteBatchEntry{}
		return r.array(func() bool {
			var e deleteBatchEntry
			ok := r.object(func(key string) bool {
				switch key {
				case "Id":
					return r.str(&e.Id)
				case "ReceiptHandle":
					return r.str(&e.ReceiptHandle)
				}
				return false
			})
			in.Entries = append(in.Entries, e)
			return ok
		})
	}
	return false
}

func (in *sendMessageBatchInput) member(r *jsonReader, key string) bool {
	switch key {
	case "QueueUrl":
		return r.str(&in.QueueUrl)
	case "Entries":
		in.Entries = []sendBatchEntry{}
		return r.array(func() bool {
			var e sendBatchEntry
			ok := r.object(func(key string) bool {
				switch key {
				case "Id":
					return r.str(&e.Id)
				case "MessageBody":
					return r.strPtr(&e.MessageBody)
				case "DelaySeconds":
					return r.intPtr(&e.DelaySeconds)
				case "MessageGroupId":
					return r.str(&e.MessageGroupId)
				case "MessageDeduplicationId":
					return r.str(&e.MessageDeduplicationId)
				}
				return false
			})
			in.Entries = append(in.Entries, e)
			return ok
		})
	}
	return false
}

// jsonReader reads the few JSON forms decodeFast accepts; every method
// reports false on anything else.
type jsonReader struct {
	b []byte
	i int
}

func (r *jsonReader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *jsonReader) next(c byte) bool {
	r.ws()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// end reports whether nothing but white space is left.
func (r *jsonReader) end() bool {
	r.ws()
	return r.i == len(r.b)
}

// object reads an object, handing each member's key to member, which reads
// its value.
func (r *jsonReader) object(member func(key string) bool) bool {
	if !r.next('{') {
		return false
	}
	if r.next('}') {
		return true
	}
	// A member given twice is left to encoding/json, which merges the
	// second into the first.
	var seen [8]string
	n := 0
	for {
		var key string
		if !r.str(&key) || !r.next(':') {
			return false
		}
		for _, k := range seen[:n] {
			if k == key {
				return false
			}
		}
		if n == len(seen) || !member(key) {
			return false
		}
		seen[n] = key
		n++
		if r.next('}') {
			return true
		}
		if !r.next(',') {
			return false
		}
	}
}

// array reads an array, each element with elem.
func (r *jsonReader) array(elem func() bool) bool {
	if !r.next('[') {
		return false
	}
	if r.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if r.next(']') {
			return true
		}
		if !r.next(',') {
			return false
		}
	}
}

func (r *jsonReader) strings(out *[]string) bool {
	list := []string{}
	ok := r.array(func() bool {
		var s string
		if !r.str(&s) {
			return false
		}
		list = append(list, s)
		return true
	})
	*out = list
	return ok
}

func (r *jsonReader) strPtr(out **string) bool {
	var s string
	if !r.str(&s) {
		return false
	}
	*out = &s
	return true
}

// str reads a string: valid UTF-8, with JSON's escapes.
func (r *jsonReader) str(out *string) bool {
	if !r.next('"') {
		return false
	}
	start, escaped := r.i, false
	for {
		if r.i >= len(r.b) {
			return false
		}
		c := r.b[r.i]
		switch {
		case c == '"':
			raw := r.b[start:r.i]
			r.i++
			if !escaped {
				if !utf8.Valid(raw) {
					return false // encoding/json replaces it with U+FFFD
				}
				*out = string(raw)
				return true
			}
			s, ok := unescape(raw)
			*out = s
			return ok
		case c == '\\':
			escaped = true
			r.i += 2
		case c < 0x20:
			return false
		default:
			r.i++
		}
	}
}

// unescape decodes a JSON string's text holding escapes.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return "", false
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			out = append(out, raw[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r1, ok := hex4(raw[i+2:])
			if !ok {
				return "", false
			}
			i += 6
			if utf16.IsSurrogate(r1) {
				if len(raw) >= i+6 && raw[i] == '\\' && raw[i+1] == 'u' {
					if r2, ok := hex4(raw[i+2:]); ok {
						if dec := utf16.DecodeRune(r1, r2); dec != utf8.RuneError {
							out = utf8.AppendRune(out, dec)
							i += 6
							continue
						}
					}
				}
				return "", false // a lone surrogate: encoding/json's U+FFFD
			}
			out = utf8.AppendRune(out, r1)
			continue
		default:
			return "", false
		}
		i += 2
	}
	if !utf8.Valid(out) {
		return "", false
	}
	// out is this string's own and never written again: no second copy.
	return unsafe.String(unsafe.SliceData(out), len(out)), true
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n), err == nil
}

// intPtr reads an integer in JSON's plain form (-?(0|[1-9][0-9]*)).
func (r *jsonReader) intPtr(out **int) bool {
	r.ws()
	start := r.i
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	digits := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	if r.i == digits || r.b[digits] == '0' && r.i-digits > 1 {
		return false
	}
	if r.i < len(r.b) && (r.b[r.i] == '.' || r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		return false
	}
	n, err := strconv.Atoi(string(r.b[start:r.i]))
	if err != nil {
		return false
	}
	*out = &n
	return true
}
