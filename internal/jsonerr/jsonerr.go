// Package jsonerr says what is wrong with a JSON request body in JSON's own
// words: the member's path and the kinds of value. encoding/json's text names
// the emulator's Go types ("Go struct field topicPutJSON.tags of type
// map[string]*string"), which tell a user of the API nothing.
package jsonerr

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Describe explains err, an error of encoding/json decoding into, in a
// sentence without a trailing period. into (may be nil) lets the member's
// path be written as on the wire (see Path); kind names what a Go type
// accepts, nil meaning Kind.
func Describe(err error, into any, kind func(reflect.Type) string) string {
	if kind == nil {
		kind = Kind
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		got, _, _ := strings.Cut(te.Value, " ") // "number 1e300" is a number
		if path := Path(reflect.TypeOf(into), strings.Trim(te.Field, ".")); path != "" {
			return fmt.Sprintf("member '%s' must be %s, not a JSON %s", path, kind(te.Type), got)
		}
		return fmt.Sprintf("the body must be %s, not a JSON %s", kind(te.Type), got)
	case errors.As(err, &se) && se.Error() == "unexpected end of JSON input":
		return "the body is not valid JSON: it ends too early"
	case errors.As(err, &se):
		return fmt.Sprintf("the body is not valid JSON: %s (at byte %d)", se.Error(), se.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		err.Error() == "unexpected end of JSON input": // Unmarshal has no error value for it
		return "the body is not valid JSON: it ends too early"
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Sprintf("the body has a member %s, which this request does not take", field)
	}
	return err.Error()
}

// Kind names, in JSON's words, what a value of Go type t accepts.
func Kind(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a JSON object"
	case reflect.Slice, reflect.Array:
		return "a JSON array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another kind of value"
}

// Path turns the path encoding/json gives a type error (field, decoding into
// a value of type t) into the path of members on the wire: Go's path also
// names each embedded struct a member was promoted from (a group of members
// several shapes share), which is no member on the wire. With t nil, field
// is returned as it is.
func Path(t reflect.Type, field string) string {
	if t == nil || field == "" {
		return field
	}
	var members []string
	for _, name := range strings.Split(field, ".") {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			members, t = append(members, name), nil
			continue
		}
		if f, ok := t.FieldByName(name); ok && f.Anonymous && f.Tag.Get("json") == "" {
			t = f.Type
			continue
		}
		members, t = append(members, name), memberType(t, name)
	}
	return strings.Join(members, ".")
}

// memberType is the type of the member of struct t named name on the wire,
// nil when there is none.
func memberType(t reflect.Type, name string) reflect.Type {
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name || (tag == "" && f.Name == name) {
			return f.Type
		}
	}
	return nil
}
