package eventbridge

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// PutEvents is the one call made at event rates, and encoding/json (a
// validating pass, then reflection) was a tenth of its cost. The SDKs and
// the CLI all send the same plain shape: an object whose Entries are objects
// of string members (Resources a list of strings, Time a number). The reader
// below takes that shape in one pass. It gives up at the first thing outside
// it — another or a repeated member, a null, a value of another type, an
// escaped member name, a string that is not valid UTF-8, anything malformed —
// and the request then goes through awsjson.Decode as before, so every
// answer to unusual input, error messages included, stays encoding/json's.
// Where it succeeds, it yields what encoding/json would (fuzzed against it in
// putevents_decode_test.go).

// decodePutEvents decodes and checks a PutEvents request.
func decodePutEvents(c *call) (*putEventsInput, error) {
	in, ok := readPutEvents(c.body)
	if !ok {
		return decode(c, checkPutEvents)
	}
	var v awsjson.Violations
	checkPutEvents(in, &v)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return in, nil
}

// readPutEvents reads body if it has the plain shape, and reports whether it
// did.
func readPutEvents(body []byte) (*putEventsInput, bool) {
	r := plainReader{b: body}
	in := new(putEventsInput)
	var seenEntries, seenEndpoint bool
	ok := r.object(func(key []byte) bool {
		switch string(key) {
		case "Entries":
			if seenEntries {
				return false
			}
			seenEntries = true
			in.Entries = make([]*putEventsEntry, 0, maxEntriesPerRequest)
			return r.array(func() bool {
				e, ok := r.entry()
				in.Entries = append(in.Entries, e)
				return ok
			})
		case "EndpointId":
			if seenEndpoint {
				return false
			}
			seenEndpoint = true
			in.EndpointId = r.stringPtr()
			return in.EndpointId != nil
		}
		return false
	})
	if !ok {
		return nil, false
	}
	r.space()
	return in, r.i == len(r.b)
}

// plainReader reads the plain shape of a PutEvents body. Its methods report
// false as soon as the input leaves that shape.
type plainReader struct {
	b []byte
	i int
	// scratch holds a string being unescaped, reused from string to string.
	scratch []byte
}

func (r *plainReader) space() { r.i = skipSpace(r.b, r.i) }

// next skips white space and reports whether the next byte is c, consuming
// it if so.
func (r *plainReader) next(c byte) bool {
	r.space()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// object reads an object, calling member for each member's value with its
// name.
func (r *plainReader) object(member func(key []byte) bool) bool {
	if !r.next('{') {
		return false
	}
	if r.next('}') {
		return true
	}
	for {
		key, ok := r.key()
		if !ok || !r.next(':') || !member(key) {
			return false
		}
		if r.next('}') {
			return true
		}
		if !r.next(',') {
			return false
		}
	}
}

// array reads an array, calling elem for each element.
func (r *plainReader) array(elem func() bool) bool {
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

// key reads a member name without escapes (encoding/json would unescape it,
// and then match it case-insensitively too).
func (r *plainReader) key() ([]byte, bool) {
	if !r.next('"') {
		return nil, false
	}
	start := r.i
	for r.i < len(r.b) {
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			return r.b[start : r.i-1], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		r.i++
	}
	return nil, false
}

// entry reads one member of Entries.
func (r *plainReader) entry() (*putEventsEntry, bool) {
	// The entry and its string members in one allocation.
	cells := new(struct {
		entry   putEventsEntry
		strings [5]string
	})
	e := &cells.entry
	var seen [7]bool
	ok := r.object(func(key []byte) bool {
		var field int
		var dst **string
		switch string(key) {
		case "Source":
			field, dst = 0, &e.Source
		case "DetailType":
			field, dst = 1, &e.DetailType
		case "Detail":
			field, dst = 2, &e.Detail
		case "EventBusName":
			field, dst = 3, &e.EventBusName
		case "TraceHeader":
			field, dst = 4, &e.TraceHeader
		case "Resources":
			if seen[5] {
				return false
			}
			seen[5] = true
			e.Resources = []string{}
			return r.array(func() bool {
				s, ok := r.string()
				e.Resources = append(e.Resources, s)
				return ok
			})
		case "Time":
			if seen[6] {
				return false
			}
			seen[6] = true
			e.Time = r.timestamp()
			return e.Time != nil
		default:
			return false
		}
		if seen[field] {
			return false
		}
		seen[field] = true
		v, ok := r.string()
		cells.strings[field] = v
		*dst = &cells.strings[field]
		return ok
	})
	return e, ok
}

// timestamp reads a number as awsjson.Timestamp does, or returns nil.
func (r *plainReader) timestamp() *awsjson.Timestamp {
	r.space()
	start := r.i
	if !r.number() {
		return nil
	}
	t := new(awsjson.Timestamp)
	if t.UnmarshalJSON(r.b[start:r.i]) != nil {
		return nil
	}
	return t
}

// number reads a JSON number, exactly as the grammar has it.
func (r *plainReader) number() bool {
	end, ok := scanNumber(r.b, r.i)
	r.i = end
	return ok
}

func (r *plainReader) stringPtr() *string {
	s, ok := r.string()
	if !ok {
		return nil
	}
	return &s
}

// string reads a string value, unescaping it as encoding/json does.
func (r *plainReader) string() (string, bool) {
	if !r.next('"') {
		return "", false
	}
	start := r.i
	// The common case: nothing to unescape.
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			return string(r.b[start : r.i-1]), true
		case c == '\\':
			return r.escaped(start)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			if !r.rune() {
				return "", false
			}
			continue
		}
		r.i++
	}
	return "", false
}

// rune steps over a multi-byte UTF-8 sequence, reporting false when it is
// not valid (encoding/json would replace it; the fallback does that).
func (r *plainReader) rune() bool {
	c, size := utf8.DecodeRune(r.b[r.i:])
	if c == utf8.RuneError && size <= 1 {
		return false
	}
	r.i += size
	return true
}

// escaped reads the rest of a string that has escapes, from its first
// character at start (r.i is at the first backslash).
func (r *plainReader) escaped(start int) (string, bool) {
	out := append(r.scratch[:0], r.b[start:r.i]...)
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			r.scratch = out
			return string(out), true
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			from := r.i
			if !r.rune() {
				return "", false
			}
			out = append(out, r.b[from:r.i]...)
			continue
		case c != '\\':
			// Copy the run up to the next byte that needs a look.
			from := r.i
			for r.i++; r.i < len(r.b); r.i++ {
				if c := r.b[r.i]; c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
					break
				}
			}
			out = append(out, r.b[from:r.i]...)
			continue
		}
		if r.i+1 >= len(r.b) {
			return "", false
		}
		r.i += 2
		switch r.b[r.i-1] {
		case '"', '\\', '/':
			out = append(out, r.b[r.i-1])
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
			rr, ok := r.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(rr) {
				// A pair decodes to one rune; a lone surrogate becomes
				// U+FFFD and what follows is read on its own.
				save := r.i
				if r.i+1 < len(r.b) && r.b[r.i] == '\\' && r.b[r.i+1] == 'u' {
					r.i += 2
					if rr1, ok := r.hex4(); ok {
						if dec := utf16.DecodeRune(rr, rr1); dec != unicode.ReplacementChar {
							out = utf8.AppendRune(out, dec)
							continue
						}
					}
				}
				r.i = save
				rr = unicode.ReplacementChar
			}
			out = utf8.AppendRune(out, rr)
		default:
			return "", false
		}
	}
	return "", false
}

// hex4 reads the four hex digits of a \u escape.
func (r *plainReader) hex4() (rune, bool) {
	if r.i+4 > len(r.b) {
		return 0, false
	}
	var v rune
	for _, c := range r.b[r.i : r.i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	r.i += 4
	return v, true
}
