package resource

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/arm"
)

// BadContent is the 400 ARM answers for a body it cannot deserialize. The
// message speaks of JSON paths and JSON kinds, as ARM's does: encoding/json's
// own text names the emulator's Go types ("Go struct field topicPutJSON.tags
// of type map[string]*string"), which tell a user nothing.
func BadContent(err error) *arm.Error {
	return &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeInvalidRequestContent,
		Message: "The request content was invalid and could not be deserialized: '" + describeJSONError(err) + "'."}
}

func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		want := jsonKind(te.Type)
		// An embedded struct's fields come with a leading dot.
		if path := strings.Trim(te.Field, "."); path != "" {
			return fmt.Sprintf("Unexpected JSON %s at path '%s'; expected %s.", te.Value, path, want)
		}
		return fmt.Sprintf("Unexpected JSON %s; the body must be %s.", te.Value, want)
	case errors.As(err, &se):
		return fmt.Sprintf("The body is not valid JSON: %s (at byte %d).", se.Error(), se.Offset)
	case err.Error() == "unexpected end of JSON input": // json has no error value for it
		return "The body is not valid JSON: it ends too early."
	}
	return err.Error()
}

// jsonKind names, in JSON's words, what a Go type accepts.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another kind of value"
}

// NotFound is a 404 ResourceNotFound for the resource named by what, e.g.
// "Microsoft.EventGrid/topics/t1".
func NotFound(what, resourceGroup string) *arm.Error {
	return arm.NotFound("The Resource '%s' under resource group '%s' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix", what, resourceGroup)
}
