package topology

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// scalar returns a field's scalar node, or nil after a problem when it is
// a mapping, a list or empty.
func (o *object) scalar(name, want string) *yaml.Node {
	n := o.value(name)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.ScalarNode || isNull(n) {
		o.problem(name, "must be %s, not %s", want, kindName(n))
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
