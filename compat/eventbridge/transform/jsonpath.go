package transform

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
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
func eachMember(doc json.RawMessage, fn func(key string, value json.RawMessage)) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return err
		}
		fn(key, value)
	}
	return nil
}
