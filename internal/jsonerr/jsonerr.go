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

// Describe explains err, an error of encoding/json, in a sentence without
// a trailing period. kind names what a Go type accepts; nil means Kind.
func Describe(err error, kind func(reflect.Type) string) string {
	if kind == nil {
		kind = Kind
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		got, _, _ := strings.Cut(te.Value, " ") // "number 1e300" is a number
		// An embedded struct's fields come with a leading dot.
		if path := strings.Trim(te.Field, "."); path != "" {
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
