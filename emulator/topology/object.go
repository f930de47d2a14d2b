package topology

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// object is a mapping of the file read against the fields its part of the
// schema allows. Readers report a wrong type as a problem and return the
// zero value, so decoding goes on and finds every problem in one pass.
type object struct {
	d      *decoder
	path   string
	line   int
	fields map[string]entry // by the field's name in the schema
}

// readObject reads n as a mapping with the given fields. With awsCase each
// field may also be written with a capital first letter, as AWS spells its
// members (PascalCase), so a target copied from an AWS document works as is.
// It reports false when n is not a mapping.
func (d *decoder) readObject(n *yaml.Node, path string, line int, fields []string, awsCase bool) (*object, bool) {
	n, ok := d.visit(n)
	if !ok {
		return nil, false
	}
	if n.Kind != yaml.MappingNode {
		d.add(line, path, "must be a mapping, not %s", kindName(n))
		return nil, false
	}
	o := &object{d: d, path: path, line: n.Line, fields: make(map[string]entry)}
	for _, e := range d.entries(n, path) {
		name := fieldFor(e.key, fields, awsCase)
		if name == "" {
			d.add(e.line, join(path, e.key), "%s", unknownField(e.key, fields))
			continue
		}
		if first, dup := o.fields[name]; dup {
			d.add(e.line, join(path, e.key), "%q and %q name the same field (first at line %d)", first.key, e.key, first.line)
			continue
		}
		o.fields[name] = e
	}
	return o, true
}

// fieldFor returns the schema field a key names, or "".
func fieldFor(key string, fields []string, awsCase bool) string {
	for _, f := range fields {
		if key == f || awsCase && key == upperFirst(f) {
			return f
		}
	}
	return ""
}

func unknownField(key string, fields []string) string {
	if near := closest(key, fields); near != "" {
		return "unknown field; did you mean " + near + "?"
	}
	return "unknown field; the fields here are " + strings.Join(fields, ", ")
}

// field returns the path and line of a field: the key's line when present,
// the mapping's line otherwise (where a missing field belongs).
func (o *object) field(name string) (string, int) {
	if e, ok := o.fields[name]; ok {
		return join(o.path, name), e.line
	}
	return join(o.path, name), o.line
}

func (o *object) has(name string) bool {
	_, ok := o.fields[name]
	return ok
}

// value returns a field's value with aliases resolved, or nil when absent.
func (o *object) value(name string) *yaml.Node {
	e, ok := o.fields[name]
	if !ok {
		return nil
	}
	n, ok := o.d.visit(e.value)
	if !ok {
		return nil
	}
	return n
}

// problem adds a problem about a field.
func (o *object) problem(name, format string, args ...any) {
	path, line := o.field(name)
	o.d.add(line, path, format, args...)
}

// namedResource reads the object of one resource (its fields as readObject
// takes them), where the file declares it, and its required "name", checked
// by check. ok is false when the item is not an object (already reported).
func (d *decoder) namedResource(it item, fields []string, awsCase bool, check func(string) string) (o *object, src Source, name string, ok bool) {
	o, ok = d.readObject(it.node, it.path, it.line, fields, awsCase)
	if !ok {
		return nil, Source{}, "", false
	}
	if o.require("name") {
		name = o.checkedText("name", check)
	}
	return o, Source{Line: o.line, Field: it.path}, name, true
}

// require reports a field that is absent or empty.
func (o *object) require(name string) bool {
	if n := o.value(name); n != nil && !isNull(n) && !(n.Kind == yaml.ScalarNode && n.Value == "") {
		return true
	}
	o.problem(name, "is required")
	return false
}

// item is one element of a list field.
type item struct {
	node *yaml.Node
	path string
	line int
}

// list reads a list field.
func (o *object) list(name string) []item {
	n := o.value(name)
	if n == nil || isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		o.problem(name, "must be a list, not %s", kindName(n))
		return nil
	}
	path, _ := o.field(name)
	items := make([]item, 0, len(n.Content))
	for i, c := range n.Content {
		items = append(items, item{node: c, path: index(path, i), line: c.Line})
	}
	return items
}

// mapping reads a mapping field with its own fields; nil when absent.
func (o *object) mapping(name string, fields []string, awsCase bool) *object {
	e, ok := o.fields[name]
	if !ok {
		return nil
	}
	path, _ := o.field(name)
	sub, ok := o.d.readObject(e.value, path, e.line, fields, awsCase)
	if !ok {
		return nil
	}
	return sub
}
