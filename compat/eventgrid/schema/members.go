package schema

import (
	"encoding/json"

	"github.com/gridbridge/gridbridge/internal/jsonscan"
)

// Every event is read on publish and written once per subscription, so
// these helpers walk validated JSON by hand: encoding/json's reflection
// and per-member copies were most of a publish's cost.

// EachMember calls visit with the key (still quoted, escapes and all) and
// the raw value of every top-level member of obj, a valid JSON object, in
// order; the value is a subslice of obj. It reports false when obj is not
// an object.
func EachMember(obj []byte, visit func(quotedKey, value []byte)) bool {
	i := jsonscan.SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = jsonscan.SkipSpace(obj, i+1)
	for i < len(obj) && obj[i] != '}' {
		keyEnd := skipString(obj, i)
		key := obj[i:keyEnd]
		i = jsonscan.SkipSpace(obj, keyEnd)
		i = jsonscan.SkipSpace(obj, i+1) // the colon
		end := SkipValue(obj, i)
		visit(key, obj[i:end])
		i = jsonscan.SkipSpace(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = jsonscan.SkipSpace(obj, i+1)
		}
	}
	return true
}

// keyIs reports whether a quoted key spells name; keys with escapes are
// decoded first, so "\u0064ata" is data, as encoding/json reads it.
func keyIs(quoted []byte, name string) bool {
	if len(quoted) == len(name)+2 && string(quoted[1:len(quoted)-1]) == name {
		return true
	}
	for _, c := range quoted {
		if c == '\\' {
			var k string
			return json.Unmarshal(quoted, &k) == nil && k == name
		}
	}
	return false
}

// skipString returns the index after the string starting at b[i] ('"').
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// SkipValue returns the index after the value starting at b[i].
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	default: // number, true, false, null
		for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
			i++
		}
		return i
	}
}
