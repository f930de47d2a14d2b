package awsjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
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
			member := MemberPath(reflect.TypeOf(v), typeErr.Field)
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

// MemberPath turns the path encoding/json gives a type error (field, in
// the type t) into the path of wire members: Go's path also names each
// embedded struct a member was promoted from (a group of members several
// shapes share), which is no member on the wire.
func MemberPath(t reflect.Type, field string) string {
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

// memberType is the type of the member of struct t named name on the
// wire, nil when there is none.
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
