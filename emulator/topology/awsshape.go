package topology

import (
	"encoding/json"
	"strconv"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// member is one member of an AWS API structure that the file may set,
// named as the API names it (PascalCase); the file may also write it in
// camelCase, like the rest of the file.
type member struct {
	name     string
	kind     memberKind
	shape    []member // a structure's members, or each list element's
	required bool
	check    func(string) string // for text members
}

type memberKind int

const (
	textMember       memberKind = iota
	intMember                   // a whole number
	jsonTextMember              // JSON text in the API; a mapping in the file becomes that text
	jsonObjectMember            // like jsonTextMember, but it must be a JSON object
	textListMember              // a list of text
	textMapMember               // free-form keys, kept as written (InputPathsMap, HeaderParameters)
	structMember                // a structure of the given shape
	structListMember            // a list of structures of the given shape
	rawMember                   // sent as written (ECS, Batch, … parameters)
	inputMember                 // text sent as written, or a mapping or list sent as its JSON text (Scheduler's Input)
)

func lowerFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}

func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

func fieldNames(shape []member) []string {
	names := make([]string, len(shape))
	for i, m := range shape {
		names[i] = lowerFirst(m.name)
	}
	return names
}

// awsNamed reads one AWS-shaped resource named by its Name member (a
// schedule, a v2 subscriber): its members as the API names them, where the
// file declares it, and its name; ok is false when it is not a mapping.
func (d *decoder) awsNamed(it item, shape []member) (members map[string]json.RawMessage, o *object, src Source, name string, ok bool) {
	members, o = d.awsStruct(it.node, it.path, it.line, shape)
	if o == nil {
		return nil, nil, Source{}, "", false
	}
	_ = json.Unmarshal(members["Name"], &name)
	return members, o, Source{Line: o.line, Field: it.path}, name, true
}

// awsStruct reads a mapping of the given shape and returns its members as
// the API names them, ready to send; nil when n is not a mapping.
func (d *decoder) awsStruct(n *yaml.Node, path string, line int, shape []member) (map[string]json.RawMessage, *object) {
	o, ok := d.readObject(n, path, line, fieldNames(shape), true)
	if !ok {
		return nil, nil
	}
	out := make(map[string]json.RawMessage)
	for _, m := range shape {
		field := lowerFirst(m.name)
		if !o.has(field) {
			if m.required {
				o.require(field)
			}
			continue
		}
		if raw := d.awsMember(o, field, m); raw != nil {
			out[m.name] = raw
		}
	}
	return out, o
}

// awsMember reads one member; nil after a problem.
func (d *decoder) awsMember(o *object, field string, m member) json.RawMessage {
	path, line := o.field(field)
	switch m.kind {
	case textMember:
		if m.required && !o.require(field) {
			return nil
		}
		n := o.scalar(field, "text")
		if n == nil {
			return nil
		}
		if m.check != nil {
			if msg := m.check(n.Value); msg != "" {
				o.problem(field, "%s", msg)
				return nil
			}
		}
		return json.RawMessage(quoteJSON(n.Value))
	case intMember:
		if v, ok := o.integer(field); ok {
			return json.RawMessage(strconv.FormatInt(v, 10))
		}
	case jsonTextMember, jsonObjectMember:
		if v := o.jsonText(field, m.kind == jsonObjectMember); v != "" {
			return json.RawMessage(quoteJSON(v))
		}
	case textListMember:
		return d.textList(o, field)
	case textMapMember:
		return d.textMap(o.value(field), path, line)
	case structMember:
		if members, _ := d.awsStruct(o.fields[field].value, path, line, m.shape); members != nil {
			return mustJSON(members)
		}
	case structListMember:
		items := o.list(field)
		if items == nil {
			return nil
		}
		list := make([]map[string]json.RawMessage, 0, len(items))
		for _, it := range items {
			members, _ := d.awsStruct(it.node, it.path, it.line, m.shape)
			if members == nil {
				return nil
			}
			list = append(list, members)
		}
		return mustJSON(list)
	case rawMember:
		raw, _ := d.toJSON(o.value(field), path, line)
		return raw
	case inputMember:
		if n := o.value(field); n != nil && n.Kind == yaml.ScalarNode {
			return json.RawMessage(quoteJSON(n.Value))
		}
		if raw, ok := d.toJSON(o.value(field), path, line); ok {
			return json.RawMessage(quoteJSON(string(raw)))
		}
	}
	return nil
}

func (d *decoder) textList(o *object, field string) json.RawMessage {
	items := o.list(field)
	if items == nil {
		return nil
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		n, ok := d.visit(it.node)
		if !ok {
			return nil
		}
		if n.Kind != yaml.ScalarNode || isNull(n) {
			d.add(it.line, it.path, "must be text, not %s", kindName(n))
			return nil
		}
		out = append(out, n.Value)
	}
	return mustJSON(out)
}

// textMap reads a mapping of free-form keys to text values.
func (d *decoder) textMap(n *yaml.Node, path string, line int) json.RawMessage {
	n, ok := d.visit(n)
	if !ok {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.add(line, path, "must be a mapping, not %s", kindName(n))
		return nil
	}
	out := make(map[string]string)
	for _, e := range d.entries(n, path) {
		v, ok := d.visit(e.value)
		if !ok {
			return nil
		}
		if v.Kind != yaml.ScalarNode || isNull(v) {
			d.add(e.line, join(path, e.key), "must be text, not %s", kindName(v))
			return nil
		}
		out[e.key] = v.Value
	}
	return mustJSON(out)
}
