package schema

import (
	"bytes"
	"encoding/json"

	"github.com/gridbridge/gridbridge/internal/httpjson"
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
	w.buf.Write(httpjson.AppendString(w.buf.AvailableBuffer(), k))
	w.buf.WriteByte(':')
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.buf.Write(httpjson.AppendString(w.buf.AvailableBuffer(), v))
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
