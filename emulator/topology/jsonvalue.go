package topology

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// toJSON renders a value of the file as compact JSON for a request body,
// keeping mappings in file order (an event pattern reads back as written).
// It reports false, after adding a problem, for what JSON cannot hold.
func (d *decoder) toJSON(n *yaml.Node, path string, line int) (json.RawMessage, bool) {
	var b bytes.Buffer
	if !d.writeJSON(&b, n, path, line, 0) {
		return nil, false
	}
	return b.Bytes(), true
}

func (d *decoder) writeJSON(b *bytes.Buffer, n *yaml.Node, path string, line, depth int) bool {
	n, ok := d.visit(n)
	if !ok {
		return false
	}
	if depth > maxDepth {
		d.add(line, path, "nests deeper than %d levels", maxDepth)
		return false
	}
	switch n.Kind {
	case yaml.MappingNode:
		b.WriteByte('{')
		for i, e := range d.entries(n, path) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quoteJSON(e.key))
			b.WriteByte(':')
			if !d.writeJSON(b, e.value, join(path, e.key), e.line, depth+1) {
				return false
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if !d.writeJSON(b, item, index(path, i), item.Line, depth+1) {
				return false
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		text, err := scalarJSON(n)
		if err != "" {
			d.add(n.Line, path, "%s", err)
			return false
		}
		b.WriteString(text)
	default:
		d.add(n.Line, path, "is not a value JSON can hold")
		return false
	}
	return true
}

// scalarJSON renders a scalar by its YAML type: numbers stay numbers (as
// written, when that is already valid JSON), true/false stay booleans.
func scalarJSON(n *yaml.Node) (string, string) {
	switch n.Tag {
	case "!!null":
		return "null", ""
	case "!!bool":
		v, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			return "", "is not a boolean: " + strconv.Quote(n.Value)
		}
		return strconv.FormatBool(v), ""
	case "!!int":
		return intJSON(n.Value)
	case "!!float":
		return floatJSON(n.Value)
	case "!!str", "!!timestamp", "!!binary":
		return quoteJSON(n.Value), ""
	}
	return "", "has the YAML tag " + n.Tag + ", which GridBridge does not read; write plain values"
}

func intJSON(text string) (string, string) {
	if json.Valid([]byte(text)) {
		return text, ""
	}
	clean := strings.ReplaceAll(text, "_", "")
	if v, ok := new(big.Int).SetString(clean, 0); ok {
		return v.String(), ""
	}
	return "", "is not a number JSON can hold: " + text
}

func floatJSON(text string) (string, string) {
	if json.Valid([]byte(text)) {
		return text, ""
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return "", "is not a number JSON can hold: " + text
	}
	return strconv.FormatFloat(v, 'g', -1, 64), ""
}

// quoteJSON quotes s as a JSON string.
func quoteJSON(s string) string { return string(mustJSON(s)) }

// mustJSON marshals values built from strings, numbers and valid raw JSON,
// which cannot fail. Like the clouds' own clients it leaves <, > and &
// unescaped, so bodies read as the file wrote them.
func mustJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("topology: marshalling a request member: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
