package schema

import (
	"strings"
	"testing"
)

func TestEachMemberFindsTopLevelMembersOnly(t *testing.T) {
	t.Parallel()
	obj := []byte(` { "a" : {"data":1,"x":[1,{"y":"}"}]}, "d\u0061ta" : [ "s\"]" ] ,"eventTime":"2026-01-01T00:00:00Z", "n":-1.5e3,"t":true}`)
	var keys, values []string
	ok := EachMember(obj, func(k, v []byte) {
		keys, values = append(keys, string(k)), append(values, string(v))
	})
	wantKeys := []string{`"a"`, `"d\u0061ta"`, `"eventTime"`, `"n"`, `"t"`}
	wantValues := []string{`{"data":1,"x":[1,{"y":"}"}]}`, `[ "s\"]" ]`, `"2026-01-01T00:00:00Z"`, `-1.5e3`, `true`}
	if !ok || len(keys) != len(wantKeys) {
		t.Fatalf("members %q = %q (ok %v)", keys, values, ok)
	}
	for i := range keys {
		if keys[i] != wantKeys[i] || values[i] != wantValues[i] {
			t.Errorf("member %d: %s = %s, want %s = %s", i, keys[i], values[i], wantKeys[i], wantValues[i])
		}
	}
	if !keyIs([]byte(`"d\u0061ta"`), "data") || keyIs([]byte(`"datum"`), "data") {
		t.Error("keyIs does not read escaped keys as encoding/json does")
	}
	if EachMember([]byte(`[1]`), func(_, _ []byte) {}) {
		t.Error("an array is not an object")
	}
}

func TestSplitArrayCutsElementsWhereTheyLie(t *testing.T) {
	t.Parallel()
	body := []byte(" [ {\"a\":\"]\"} ,\n{\"b\":[1,{\"c\":\"x,y\"}]},{} ] ")
	elems, err := splitArray(body, 0)
	want := []string{`{"a":"]"}`, `{"b":[1,{"c":"x,y"}]}`, `{}`}
	if err != nil || len(elems) != len(want) {
		t.Fatalf("elements %q: %v", elems, err)
	}
	for i := range want {
		if string(elems[i]) != want[i] || cap(elems[i]) != len(elems[i]) {
			t.Errorf("element %d: %s (cap %d), want %s", i, elems[i], cap(elems[i]), want[i])
		}
	}
	if _, err := splitArray([]byte(`[{"a":1},]`), 0); err == nil {
		t.Error("a trailing comma is accepted")
	}
	if _, err := splitArray([]byte(`[{"a":1}, {"b":"`+strings.Repeat("x", 20)+`"}]`), 16); err == nil || err.Status != 413 {
		t.Errorf("an oversize element: %v, want 413", err)
	}
}
