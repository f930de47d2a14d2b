package eventsv2

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/compat/eventbridge/v2model"
)

// TestEB_D2_ModelMatchesServer checks the shipped service model against the
// server: the same operations, and every structure with the same members,
// all the way down, so the CLI sends what the server reads and reads what
// it answers.
func TestEB_D2_ModelMatchesServer(t *testing.T) {
	t.Parallel()
	model, err := v2model.Load()
	if err != nil {
		t.Fatal(err)
	}
	md := model.Metadata
	if md.Protocol != "json" || md.JSONVersion != "1.1" || md.SigningName != "events" || md.SignatureVersion != "v4" ||
		md.TargetPrefix != v2model.TargetPrefix || md.APIVersion != v2model.APIVersion || md.EndpointPrefix == "" {
		t.Fatalf("metadata = %+v", md)
	}
	served := map[string]operation{}
	for _, o := range operations() {
		served[o.name] = o
	}
	for name := range model.Operations {
		if _, ok := served[name]; !ok {
			t.Errorf("the model has %s; the server does not", name)
		}
	}
	for name, o := range served {
		mo, ok := model.Operations[name]
		if !ok {
			t.Errorf("the server has %s; the model does not", name)
			continue
		}
		compareShape(t, model, name+" input", mo.Input.Shape, o.input)
		compareShape(t, model, name+" output", mo.Output.Shape, o.output)
	}
}

// compareShape checks that the Go type's JSON members are the shape's.
func compareShape(t *testing.T, model *v2model.Model, where, shapeName string, typ reflect.Type) {
	t.Helper()
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	shape, ok := model.Shapes[shapeName]
	if !ok {
		t.Errorf("%s: shape %s is missing", where, shapeName)
		return
	}
	switch shape.Type {
	case "structure":
		if typ.Kind() != reflect.Struct {
			t.Errorf("%s: %s is a structure, Go has %s", where, shapeName, typ)
			return
		}
		if typ == reflect.TypeFor[wireTime]() {
			t.Errorf("%s: %s is a structure, Go has a timestamp", where, shapeName)
			return
		}
		goMembers := map[string]reflect.Type{}
		// Members promoted from an embedded group (wireTimes, ...) are
		// the shape's own members.
		for _, f := range reflect.VisibleFields(typ) {
			if f.Anonymous {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			goMembers[name] = f.Type
		}
		if got, want := keys(goMembers), keys(shape.Members); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: %s members: Go %v, model %v", where, shapeName, got, want)
			return
		}
		for name, ref := range shape.Members {
			compareShape(t, model, where+"."+name, ref.Shape, goMembers[name])
		}
	case "list":
		if typ.Kind() != reflect.Slice {
			t.Errorf("%s: %s is a list, Go has %s", where, shapeName, typ)
			return
		}
		compareShape(t, model, where+"[]", shape.Member.Shape, typ.Elem())
	case "map":
		if typ.Kind() != reflect.Map {
			t.Errorf("%s: %s is a map, Go has %s", where, shapeName, typ)
		}
	case "timestamp":
		if typ != reflect.TypeFor[wireTime]() {
			t.Errorf("%s: %s is a timestamp, Go has %s", where, shapeName, typ)
		}
	case "string":
		if typ.Kind() != reflect.String {
			t.Errorf("%s: %s is a string, Go has %s", where, shapeName, typ)
		}
	case "integer", "long":
		if k := typ.Kind(); k != reflect.Int && k != reflect.Int32 && k != reflect.Int64 {
			t.Errorf("%s: %s is an integer, Go has %s", where, shapeName, typ)
		}
	default:
		t.Errorf("%s: shape type %s of %s is not checked", where, shape.Type, shapeName)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
