package jsonerr_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

type inner struct {
	Count int `json:"count"`
}

type body struct {
	Name  string            `json:"name"`
	Tags  map[string]string `json:"tags"`
	Items []string          `json:"items"`
	On    *bool             `json:"on"`
	Inner inner             `json:"inner"`
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body, want string
	}{
		{`{"name":5}`, "member 'name' must be a string, not a JSON number"},
		{`{"tags":"x"}`, "member 'tags' must be a JSON object, not a JSON string"},
		{`{"tags":{"a":1}}`, "member 'tags' must be a string, not a JSON number"},
		{`{"items":{}}`, "member 'items' must be a JSON array, not a JSON object"},
		{`{"on":"yes"}`, "member 'on' must be a boolean, not a JSON string"},
		{`{"inner":{"count":"3"}}`, "member 'inner.count' must be an integer, not a JSON string"},
		{`{"inner":{"count":1e400}}`, "member 'inner.count' must be an integer, not a JSON number"},
		{`[1]`, "the body must be a JSON object, not a JSON array"},
		{`nope`, "the body is not valid JSON: invalid character 'o' in literal null (expecting 'u') (at byte 2)"},
		{`{"name":`, "the body is not valid JSON: it ends too early"},
	} {
		var v body
		err := json.Unmarshal([]byte(tc.body), &v)
		if err == nil {
			t.Fatalf("%s: decoded without error", tc.body)
		}
		got := jsonerr.Describe(err, &v, nil)
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.body, got, tc.want)
		}
		if strings.Contains(got, "Go ") || strings.Contains(got, "jsonerr") {
			t.Errorf("%s: %q names Go types", tc.body, got)
		}
	}
}

func TestDescribeUnknownFieldAndDecoderEOF(t *testing.T) {
	t.Parallel()
	dec := json.NewDecoder(bytes.NewReader([]byte(`{"by":"1h"}`)))
	dec.DisallowUnknownFields()
	var v body
	if got, want := jsonerr.Describe(dec.Decode(&v), &v, nil), `the body has a member "by", which this request does not take`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := jsonerr.Describe(json.NewDecoder(bytes.NewReader(nil)).Decode(&v), &v, nil), "the body is not valid JSON: it ends too early"; got != want {
		t.Errorf("empty body: got %q, want %q", got, want)
	}
}

func TestDescribeWithOwnKinds(t *testing.T) {
	t.Parallel()
	type stamp int64
	var v struct {
		At stamp `json:"at"`
	}
	err := json.Unmarshal([]byte(`{"at":"noon"}`), &v)
	if err == nil {
		t.Fatal("decoded a string into a number")
	}
	kind := func(t reflect.Type) string {
		if t == reflect.TypeOf(stamp(0)) {
			return "a timestamp"
		}
		return jsonerr.Kind(t)
	}
	if got := jsonerr.Describe(err, &v, kind); !strings.Contains(got, "must be a timestamp") {
		t.Errorf("got %q", got)
	}
}

type group struct {
	Delay int `json:"DelaySeconds"`
}

type withGroup struct {
	group
	Entries []struct {
		group
	} `json:"Entries"`
}

// A member promoted from an embedded group is named by its wire path, not
// with the group's Go name in it.
func TestPathDropsEmbeddedGroups(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]string{
		`{"DelaySeconds":"x"}`:                "member 'DelaySeconds' must be an integer, not a JSON string",
		`{"Entries":[{"DelaySeconds":true}]}`: "member 'Entries.DelaySeconds' must be an integer, not a JSON bool",
	} {
		var v withGroup
		err := json.Unmarshal([]byte(body), &v)
		if err == nil {
			t.Fatalf("%s decoded", body)
		}
		if got := jsonerr.Describe(err, &v, nil); got != want {
			t.Errorf("%s: got %q, want %q", body, got, want)
		}
	}
}
