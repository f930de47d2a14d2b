package transform

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gridbridge/gridbridge/internal/jsonscan"
)

// segment is one step of a JSONPath: an object member, an array index, or
// every element of an array ([*], pipes only).
type segment struct {
	name  string
	index int
	isIdx bool
	every bool
}

// parsePath reads the JSONPath subset EventBridge documents for InputPath
// and InputPathsMap: $, $.a.b, $.detail-type, $.resources[0], $['a b'].
func parsePath(p string) ([]segment, bool) { return parsePathOf(p, false) }

// parsePathOf is parsePath, taking [*] too when every is set.
func parsePathOf(p string, every bool) ([]segment, bool) {
	if !strings.HasPrefix(p, "$") {
		return nil, false
	}
	rest := p[1:]
	var segs []segment
	for rest != "" {
		switch rest[0] {
		case '.':
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return nil, false
			}
			segs = append(segs, segment{name: rest[:end]})
			rest = rest[end:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, false
			}
			inner := rest[1:end]
			rest = rest[end+1:]
			if len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0] {
				segs = append(segs, segment{name: inner[1 : len(inner)-1]})
				continue
			}
			if every && inner == "*" {
				segs = append(segs, segment{every: true})
				continue
			}
			n, err := strconv.Atoi(inner)
			if err != nil || n < 0 {
				return nil, false
			}
			segs = append(segs, segment{index: n, isIdx: true})
		default:
			return nil, false
		}
	}
	return segs, true
}

// Lookup returns the JSON text at path in doc, byte for byte as doc has it,
// so numbers and key order survive. ok is false when the path is not valid
// or matches nothing.
func Lookup(doc []byte, path string) (json.RawMessage, bool) {
	segs, ok := parsePath(path)
	if !ok {
		return nil, false
	}
	cur := json.RawMessage(bytes.TrimSpace(doc))
	for _, s := range segs {
		var next json.RawMessage
		if s.isIdx {
			next, ok = element(cur, s.index)
		} else {
			next, ok = member(cur, s.name)
		}
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}

// member returns the value of an object member; with duplicate keys the last
// one wins, as in EventBridge.
func member(doc json.RawMessage, name string) (json.RawMessage, bool) {
	if len(doc) == 0 || doc[0] != '{' {
		return nil, false
	}
	var found json.RawMessage
	ok := false
	err := eachMember(doc, func(key string, value json.RawMessage) {
		if key == name {
			found, ok = value, true
		}
	})
	return found, ok && err == nil
}

func element(doc json.RawMessage, index int) (json.RawMessage, bool) {
	if len(doc) == 0 || doc[0] != '[' {
		return nil, false
	}
	var items []json.RawMessage
	if err := json.Unmarshal(doc, &items); err != nil || index >= len(items) {
		return nil, false
	}
	return items[index], true
}

// eachMember calls fn for every member of a JSON object, in document order.
// It scans the text rather than decoding it, since every placeholder and
// parameter of every event looks members up: each value is handed out as
// written, and the scan stops with errMalformed at text that is not JSON.
func eachMember(doc json.RawMessage, fn func(key string, value json.RawMessage)) error {
	i := jsonscan.SkipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return errMalformed
	}
	i = jsonscan.SkipSpace(doc, i+1)
	if i < len(doc) && doc[i] == '}' {
		return nil
	}
	for {
		if i >= len(doc) || doc[i] != '"' {
			return errMalformed
		}
		keyEnd, ok := skipString(doc, i)
		if !ok {
			return errMalformed
		}
		key, ok := unquoteKey(doc[i:keyEnd])
		if !ok {
			return errMalformed
		}
		i = jsonscan.SkipSpace(doc, keyEnd)
		if i >= len(doc) || doc[i] != ':' {
			return errMalformed
		}
		i = jsonscan.SkipSpace(doc, i+1)
		end, ok := skipValue(doc, i)
		if !ok {
			return errMalformed
		}
		fn(key, doc[i:end])
		i = jsonscan.SkipSpace(doc, end)
		switch {
		case i >= len(doc):
			return errMalformed
		case doc[i] == ',':
			i = jsonscan.SkipSpace(doc, i+1)
		case doc[i] == '}':
			return nil
		default:
			return errMalformed
		}
	}
}

var errMalformed = errors.New("not a JSON object")

// skipString returns the index after the string starting at b[i] (a quote).
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipValue returns the index after the value starting at b[i].
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
scan:
	for ; j < len(b); j++ {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			break scan
		}
	}
	return j, j > i
}

// unquoteKey decodes a member's name; most have no escapes to decode and
// are valid UTF-8 (encoding/json replaces invalid bytes, as it is asked to
// here).
func unquoteKey(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), true
	}
	var key string
	return key, json.Unmarshal(raw, &key) == nil
}
