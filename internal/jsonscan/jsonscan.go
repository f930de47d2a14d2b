// Package jsonscan is the one hand-written JSON reader the request paths
// that run at event rates (SQS's message calls, EventBridge's PutEvents)
// read their usual shape with, instead of encoding/json's validating pass
// and reflection. It takes only a strict subset and says so: every method
// reports false at the first thing it does not take, and the caller then
// decodes with encoding/json, whose answer (errors included) stands. Where
// it does take input, it yields what encoding/json would.
package jsonscan

import (
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// SkipSpace returns the index of the first byte at or after i in b that is
// not JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// ScanNumber reads the JSON number starting at b[i], exactly as the grammar
// has it, and returns the index just past it; ok is false when no number
// starts there.
func ScanNumber(b []byte, i int) (end int, ok bool) {
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return i, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return i, false
		}
	}
	return i, true
}

// Reader reads one JSON document from B, position I.
type Reader struct {
	B []byte
	I int
	// scratch holds a string being unescaped, reused from string to string.
	scratch []byte
}

// New returns a Reader at the start of b.
func New(b []byte) Reader { return Reader{B: b} }

// Space skips white space.
func (r *Reader) Space() { r.I = SkipSpace(r.B, r.I) }

// Next skips white space and reports whether the next byte is c, consuming
// it if so.
func (r *Reader) Next(c byte) bool {
	r.Space()
	if r.I < len(r.B) && r.B[r.I] == c {
		r.I++
		return true
	}
	return false
}

// End reports whether nothing but white space is left.
func (r *Reader) End() bool {
	r.Space()
	return r.I == len(r.B)
}

// Object reads an object, calling member for each member with its name;
// member reads the value. The name aliases B and is valid only during the
// call. Names with escapes are not taken (encoding/json would unescape
// them and then match them case-insensitively too).
func (r *Reader) Object(member func(key []byte) bool) bool {
	if !r.Next('{') {
		return false
	}
	if r.Next('}') {
		return true
	}
	for {
		key, ok := r.Key()
		if !ok || !r.Next(':') || !member(key) {
			return false
		}
		if r.Next('}') {
			return true
		}
		if !r.Next(',') {
			return false
		}
	}
}

// Array reads an array, calling elem for each element.
func (r *Reader) Array(elem func() bool) bool {
	if !r.Next('[') {
		return false
	}
	if r.Next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if r.Next(']') {
			return true
		}
		if !r.Next(',') {
			return false
		}
	}
}

// Key reads a member name without escapes, aliasing B.
func (r *Reader) Key() ([]byte, bool) {
	if !r.Next('"') {
		return nil, false
	}
	start := r.I
	for r.I < len(r.B) {
		switch c := r.B[r.I]; {
		case c == '"':
			r.I++
			return r.B[start : r.I-1], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		r.I++
	}
	return nil, false
}

// Strings reads an array of strings (never nil, as encoding/json gives an
// empty array).
func (r *Reader) Strings() ([]string, bool) {
	list := []string{}
	ok := r.Array(func() bool {
		s, ok := r.String()
		list = append(list, s)
		return ok
	})
	return list, ok
}

// StringPtr reads a string into a new cell, or returns nil.
func (r *Reader) StringPtr() *string {
	s, ok := r.String()
	if !ok {
		return nil
	}
	return &s
}

// Int reads an integer in JSON's plain form (-?(0|[1-9][0-9]*)) that fits
// an int; a fraction or an exponent is not taken (encoding/json refuses
// them for an int, with its own message).
func (r *Reader) Int() (int, bool) {
	r.Space()
	start := r.I
	if r.I < len(r.B) && r.B[r.I] == '-' {
		r.I++
	}
	digits := r.I
	for r.I < len(r.B) && r.B[r.I] >= '0' && r.B[r.I] <= '9' {
		r.I++
	}
	if r.I == digits || r.B[digits] == '0' && r.I-digits > 1 {
		return 0, false
	}
	if r.I < len(r.B) && (r.B[r.I] == '.' || r.B[r.I] == 'e' || r.B[r.I] == 'E') {
		return 0, false
	}
	n, err := strconv.Atoi(string(r.B[start:r.I]))
	return n, err == nil
}

// IntPtr reads an Int into a new cell, or returns nil.
func (r *Reader) IntPtr() *int {
	n, ok := r.Int()
	if !ok {
		return nil
	}
	return &n
}

// Number reads a JSON number and returns its text, aliasing B.
func (r *Reader) Number() ([]byte, bool) {
	r.Space()
	start := r.I
	end, ok := ScanNumber(r.B, r.I)
	r.I = end
	return r.B[start:end], ok
}

// String reads a string value, unescaping it as encoding/json does. A
// string that is not valid UTF-8 is not taken (encoding/json would replace
// the bad bytes).
func (r *Reader) String() (string, bool) { return r.StringOr("") }

// StringOr is String, returning same itself, without a copy, when the
// value equals it: a batch's entries mostly repeat one another's names
// (an event's source and type), and each would otherwise be its own
// allocation.
func (r *Reader) StringOr(same string) (string, bool) {
	if !r.Next('"') {
		return "", false
	}
	start := r.I
	// The common case: nothing to unescape.
	for r.I < len(r.B) {
		c := r.B[r.I]
		switch {
		case c == '"':
			r.I++
			if raw := r.B[start : r.I-1]; string(raw) != same {
				return string(raw), true
			}
			return same, true
		case c == '\\':
			return r.escaped(start, same)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			if !r.rune() {
				return "", false
			}
			continue
		}
		r.I++
	}
	return "", false
}

// rune steps over a multi-byte UTF-8 sequence, reporting false when it is
// not valid.
func (r *Reader) rune() bool {
	c, size := utf8.DecodeRune(r.B[r.I:])
	if c == utf8.RuneError && size <= 1 {
		return false
	}
	r.I += size
	return true
}

// escaped reads the rest of a string that has escapes, from its first
// character at start (r.I is at the first backslash).
func (r *Reader) escaped(start int, same string) (string, bool) {
	out := append(r.scratch[:0], r.B[start:r.I]...)
	for r.I < len(r.B) {
		c := r.B[r.I]
		switch {
		case c == '"':
			r.I++
			r.scratch = out
			if string(out) == same {
				return same, true
			}
			return string(out), true
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			from := r.I
			if !r.rune() {
				return "", false
			}
			out = append(out, r.B[from:r.I]...)
			continue
		case c != '\\':
			// Copy the run up to the next byte that needs a look.
			from := r.I
			for r.I++; r.I < len(r.B); r.I++ {
				if c := r.B[r.I]; c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
					break
				}
			}
			out = append(out, r.B[from:r.I]...)
			continue
		}
		if r.I+1 >= len(r.B) {
			return "", false
		}
		r.I += 2
		switch r.B[r.I-1] {
		case '"', '\\', '/':
			out = append(out, r.B[r.I-1])
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
				save := r.I
				if r.I+1 < len(r.B) && r.B[r.I] == '\\' && r.B[r.I+1] == 'u' {
					r.I += 2
					if rr1, ok := r.hex4(); ok {
						if dec := utf16.DecodeRune(rr, rr1); dec != unicode.ReplacementChar {
							out = utf8.AppendRune(out, dec)
							continue
						}
					}
				}
				r.I = save
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
func (r *Reader) hex4() (rune, bool) {
	if r.I+4 > len(r.B) {
		return 0, false
	}
	var v rune
	for _, c := range r.B[r.I : r.I+4] {
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
	r.I += 4
	return v, true
}
