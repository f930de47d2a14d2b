package schema

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// jsonWriter writes one JSON object member by member, exactly as
// encoding/json with SetEscapeHTML(false) writes the same struct (the
// service's serializer does not escape <, > and &), without reflection and
// into a buffer sized up front, so a rendered event holds no slack.
type jsonWriter struct {
	buf     bytes.Buffer
	members int
}

func newJSONWriter(capacity int) *jsonWriter {
	w := &jsonWriter{}
	w.buf.Grow(capacity)
	w.buf.WriteByte('{')
	return w
}

func (w *jsonWriter) key(k string) {
	if w.members > 0 {
		w.buf.WriteByte(',')
	}
	w.members++
	w.buf.Write(appendJSONString(w.buf.AvailableBuffer(), k))
	w.buf.WriteByte(':')
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.buf.Write(appendJSONString(w.buf.AvailableBuffer(), v))
}

// optional writes a string member unless it is empty (omitempty).
func (w *jsonWriter) optional(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

// raw writes a JSON value compacted, as encoding/json writes a
// json.RawMessage; an empty value is left out (omitempty).
func (w *jsonWriter) raw(k string, v json.RawMessage) error {
	if len(v) == 0 {
		return nil
	}
	w.key(k)
	return json.Compact(&w.buf, v)
}

// close ends the object and returns it.
func (w *jsonWriter) close() []byte {
	w.buf.WriteByte('}')
	return w.buf.Bytes()
}

// appendJSONString is encoding/json's string encoding without HTML
// escaping: quotes, backslashes and control characters escaped, invalid
// UTF-8 as U+FFFD, and U+2028/U+2029 escaped as encoding/json always does.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
