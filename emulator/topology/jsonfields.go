package topology

import (
	"encoding/json"
	"strings"

	"go.yaml.in/yaml/v3"
)

// jsonObject reads a mapping field that goes to the emulator as written,
// as a JSON object (an ARM filter, a raw destination); nil when absent.
func (o *object) jsonObject(name string) json.RawMessage {
	n := o.value(name)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		o.problem(name, "must be a mapping, not %s", kindName(n))
		return nil
	}
	path, line := o.field(name)
	raw, _ := o.d.toJSON(n, path, line)
	return raw
}

// jsonText reads a field the API takes as JSON text (an event pattern, a
// target's Input): either written as a mapping (or list), turned into
// compact JSON, or as text that must already be JSON. With objectOnly the
// JSON must be an object.
func (o *object) jsonText(name string, objectOnly bool) string {
	n := o.value(name)
	if n == nil {
		return ""
	}
	path, line := o.field(name)
	want := "JSON text or a mapping"
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		text := strings.TrimSpace(n.Value)
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			o.d.add(line, path, "must be %s; the text is not JSON: %v", want, err)
			return ""
		}
		if _, isObject := v.(map[string]any); objectOnly && !isObject {
			o.d.add(line, path, "must be a JSON object or a mapping")
			return ""
		}
		return n.Value
	}
	if objectOnly && n.Kind != yaml.MappingNode {
		o.d.add(line, path, "must be a mapping or JSON object text, not %s", kindName(n))
		return ""
	}
	raw, ok := o.d.toJSON(n, path, line)
	if !ok {
		return ""
	}
	return string(raw)
}
