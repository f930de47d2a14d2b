package deadletter

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"time"
	"unicode/utf8"
)

// Records are written straight into the blob's buffer: the event's bytes
// copied, the record's members appended. These helpers do the appending.

// object appends members to a JSON object being written.
type object struct {
	w       *bytes.Buffer
	members int
	// own is the copied event, compacted, without its closing brace; valid
	// until the first member is appended.
	own []byte
}

// openObject copies raw, compacted, leaving its object open for members.
func openObject(w *bytes.Buffer, raw json.RawMessage) (object, error) {
	start := w.Len()
	if err := json.Compact(w, raw); err != nil {
		return object{}, err
	}
	got := w.Bytes()[start:]
	if len(got) < 2 || got[0] != '{' {
		w.Truncate(start)
		return object{}, errors.New("the event is not a JSON object")
	}
	w.Truncate(w.Len() - 1) // the closing brace
	members := 0
	if len(got) > 2 {
		members = 1 // at least one: the next member needs a comma
	}
	return object{w: w, members: members, own: got[:len(got)-1]}, nil
}

// eachTopLevelKey calls visit with every key of the compacted JSON object
// obj, nested objects' keys excluded. It only scans: no value is decoded.
func eachTopLevelKey(obj []byte, visit func(string)) {
	depth, wantKey := 0, false
	for i := 0; i < len(obj); i++ {
		switch obj[i] {
		case '{':
			depth++
			wantKey = depth == 1
		case '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			wantKey = depth == 1
		case '"':
			end := i + 1
			for end < len(obj) && obj[end] != '"' {
				if obj[end] == '\\' {
					end++
				}
				end++
			}
			if wantKey {
				visit(keyText(obj[i : end+1]))
				wantKey = false
			}
			i = end
		}
	}
}

// keyText is a quoted key's text; only keys with escapes need decoding.
func keyText(quoted []byte) string {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return string(quoted[1 : len(quoted)-1])
	}
	var k string
	if json.Unmarshal(quoted, &k) != nil {
		return ""
	}
	return k
}

func (o *object) key(k string) {
	if o.members > 0 {
		o.w.WriteByte(',')
	}
	o.members++
	writeString(o.w, k)
	o.w.WriteByte(':')
}

func (o *object) str(k, v string) {
	o.key(k)
	writeString(o.w, v)
}

func (o *object) num(k string, v int) {
	o.key(k)
	o.w.Write(strconv.AppendInt(o.w.AvailableBuffer(), int64(v), 10))
}

func (o *object) timestamp(k string, t time.Time) {
	o.key(k)
	b := append(o.w.AvailableBuffer(), '"')
	b = t.UTC().AppendFormat(b, timeLayout)
	o.w.Write(append(b, '"'))
}

// eventGridFacts writes the Event Grid-schema fields, in the seed's order.
func (o *object) eventGridFacts(f facts) {
	o.str("deadLetterReason", f.reason)
	o.num("deliveryAttempts", f.attempts)
	o.str("lastDeliveryOutcome", f.outcome)
	if f.status != 0 {
		o.num("lastHttpStatusCode", f.status)
	}
	o.timestamp("publishTime", f.publishTime)
	if !f.lastAttempt.IsZero() {
		o.timestamp("lastDeliveryAttemptTime", f.lastAttempt)
	}
}

func (o *object) close() { o.w.WriteByte('}') }

// writeString writes s as a JSON string the way the service's .NET
// serializer does: HTML characters are not escaped (json.Marshal would
// write & as \u0026; both decode the same). Invalid UTF-8 becomes U+FFFD, so
// the output is always valid JSON.
func writeString(w *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	w.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				w.WriteByte('\\')
				w.WriteByte(c)
			case c == '\n':
				w.WriteString(`\n`)
			case c == '\r':
				w.WriteString(`\r`)
			case c == '\t':
				w.WriteString(`\t`)
			case c < 0x20:
				w.WriteString(`\u00`)
				w.WriteByte(hex[c>>4])
				w.WriteByte(hex[c&0xf])
			default:
				w.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.WriteString(`\ufffd`)
		} else {
			w.WriteString(s[i : i+size])
		}
		i += size
	}
	w.WriteByte('"')
}
