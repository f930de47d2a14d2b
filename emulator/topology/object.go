package topology

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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

// object reads n as a mapping with the given fields. With awsCase each
// field may also be written with a capital first letter, as AWS spells its
// members (PascalCase), so a target copied from an AWS document works as is.
// It reports false when n is not a mapping.
func (d *decoder) object(n *yaml.Node, path string, line int, fields []string, awsCase bool) (*object, bool) {
	n, ok := d.visit(n)
	if !ok {
		return nil, false
	}
	if n.Kind != yaml.MappingNode {
		d.add(line, path, "must be a mapping, not a %s", kindName(n))
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

func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
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

// require reports a field that is absent or empty.
func (o *object) require(name string) bool {
	if n := o.value(name); n != nil && !isNull(n) && !(n.Kind == yaml.ScalarNode && n.Value == "") {
		return true
	}
	o.problem(name, "is required")
	return false
}

// scalar returns a field's scalar node, or nil after a problem when it is
// a mapping, a list or empty.
func (o *object) scalar(name, want string) *yaml.Node {
	n := o.value(name)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.ScalarNode || isNull(n) {
		o.problem(name, "must be %s, not a %s", want, kindName(n))
		return nil
	}
	return n
}

// text reads a text field. A number written where text is expected counts
// as its text, so an account id such as 000000000000 needs no quotes.
func (o *object) text(name string) string {
	if n := o.scalar(name, "text"); n != nil {
		return n.Value
	}
	return ""
}

// checkedText reads a text field and reports it when check finds it wrong;
// it returns "" then.
func (o *object) checkedText(name string, check func(string) string) string {
	n := o.scalar(name, "text")
	if n == nil {
		return ""
	}
	if msg := check(n.Value); msg != "" {
		o.problem(name, "%s", msg)
		return ""
	}
	return n.Value
}

// choice reads a text field that must be one of the allowed values.
func (o *object) choice(name string, allowed ...string) string {
	n := o.scalar(name, "text")
	if n == nil {
		return ""
	}
	v, msg := oneOf(n.Value, allowed...)
	if msg != "" {
		o.problem(name, "%s", msg)
	}
	return v
}

// integer reads a whole-number field; ok is false when absent or wrong.
func (o *object) integer(name string) (v int64, ok bool) {
	n := o.scalar(name, "a whole number")
	if n == nil {
		return 0, false
	}
	if n.Tag == "!!int" {
		if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return v, true
		}
	}
	o.problem(name, "must be a whole number, not %s", kindName(n))
	return 0, false
}

// boolean reads a true/false field.
func (o *object) boolean(name string) bool {
	n := o.scalar(name, "true or false")
	if n == nil {
		return false
	}
	if n.Tag == "!!bool" {
		if v, err := strconv.ParseBool(strings.ToLower(n.Value)); err == nil {
			return v
		}
	}
	o.problem(name, "must be true or false, not %s", kindName(n))
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
		o.problem(name, "must be a list, not a %s", kindName(n))
		return nil
	}
	path, _ := o.field(name)
	items := make([]item, 0, len(n.Content))
	for i, c := range n.Content {
		items = append(items, item{node: c, path: index(path, i), line: c.Line})
	}
	return items
}

// object reads a mapping field with its own fields; nil when absent.
func (o *object) object(name string, fields []string, awsCase bool) *object {
	e, ok := o.fields[name]
	if !ok {
		return nil
	}
	path, _ := o.field(name)
	sub, ok := o.d.object(e.value, path, e.line, fields, awsCase)
	if !ok {
		return nil
	}
	return sub
}

// jsonObject reads a mapping field that goes to the emulator as written,
// as a JSON object (an ARM filter, a raw destination); nil when absent.
func (o *object) jsonObject(name string) json.RawMessage {
	n := o.value(name)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		o.problem(name, "must be a mapping, not a %s", kindName(n))
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
		o.d.add(line, path, "must be a mapping or JSON object text, not a %s", kindName(n))
		return ""
	}
	raw, ok := o.d.toJSON(n, path, line)
	if !ok {
		return ""
	}
	return string(raw)
}

// intRange reads a whole-number field that must lie in [lo, hi]; 0 when
// absent or wrong.
func (o *object) intRange(name string, lo, hi int64) int64 {
	v, ok := o.integer(name)
	if ok && (v < lo || v > hi) {
		o.problem(name, "must be between %d and %d", lo, hi)
		return 0
	}
	return v
}

// uniqueNames reports a name declared twice among siblings (topics of a
// file, rules of a bus, …). Azure names compare without letter case.
type uniqueNames struct {
	what string // e.g. "topic name"
	fold bool
	seen map[string]int
}

func newUniqueNames(what string, fold bool) *uniqueNames {
	return &uniqueNames{what: what, fold: fold, seen: make(map[string]int)}
}

// add records the name in o's field; "" (already reported) is skipped.
func (u *uniqueNames) add(o *object, field, name string) {
	if name == "" {
		return
	}
	key := name
	if u.fold {
		key = strings.ToLower(name)
	}
	_, line := o.field(field)
	if first, dup := u.seen[key]; dup {
		o.problem(field, "duplicate %s %q (first at line %d)", u.what, name, first)
		return
	}
	u.seen[key] = line
}
