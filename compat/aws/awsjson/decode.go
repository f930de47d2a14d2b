package awsjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

// Decode reads a request body into v. An empty body counts as {}, as the
// clients send {} for operations without input members. A body that is not
// a JSON object of the right member types is a SerializationException, the
// answer AWS gives before it looks at any member.
func Decode(body []byte, v any) error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	if body[0] != '{' {
		return NewError(CodeSerialization, "Start of structure or map found where not expected.")
	}
	if err := json.Unmarshal(body, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			kind := jsonKind(typeErr.Type.Kind().String())
			if IsTimestamp(typeErr.Type) {
				kind = "timestamp"
			}
			member := jsonerr.Path(reflect.TypeOf(v), typeErr.Field)
			return NewError(CodeSerialization, fmt.Sprintf("The value of member %s is not of type %s.", member, kind))
		}
		return NewError(CodeSerialization, "The request body is not valid JSON: "+err.Error())
	}
	return nil
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string", "ptr":
		return "string"
	case "int", "int32", "int64":
		return "integer"
	case "float64":
		return "number"
	case "bool":
		return "boolean"
	case "slice":
		return "list"
	case "map", "struct":
		return "structure"
	}
	return goKind
}
