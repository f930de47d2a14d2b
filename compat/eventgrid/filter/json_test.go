package filter

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// Filters in the exact shape the service returns on GET (taken from
// recordings of the real service, values changed): they must survive
// Unmarshal then Marshal byte for byte.
func TestFilterJSONRoundTripsServiceShape(t *testing.T) {
	t.Parallel()
	shapes := []string{
		`{"subjectBeginsWith":"","subjectEndsWith":""}`,
		`{"subjectBeginsWith":"","subjectEndsWith":"_suffix","includedEventTypes":["blobCreated","blobUpdated"],"isSubjectCaseSensitive":true}`,
		`{"subjectBeginsWith":"","subjectEndsWith":"","advancedFilters":[{"values":[2.0,3.0,4.5,100.0],"operatorType":"NumberIn","key":"data.key2"}]}`,
		`{"subjectBeginsWith":"","subjectEndsWith":"","advancedFilters":[{"values":[21.0,13.0],"operatorType":"NumberIn","key":"data.key1"},{"values":["122","3"],"operatorType":"StringIn","key":"data.key2"}]}`,
		`{"subjectBeginsWith":"","subjectEndsWith":"","advancedFilters":[{"operatorType":"IsNullOrUndefined","key":"data.key1"},{"operatorType":"IsNotNull","key":"data.key2"}]}`,
		`{"subjectBeginsWith":"","subjectEndsWith":"","advancedFilters":[{"values":[[1.0,10.0]],"operatorType":"NumberInRange","key":"data.key1"},{"values":[[10.0,12.0],[50.0,55.0]],"operatorType":"NumberNotInRange","key":"data.key2"}]}`,
		`{"subjectBeginsWith":"/a","subjectEndsWith":".jpg","includedEventTypes":["A"],"isSubjectCaseSensitive":true,"enableAdvancedFilteringOnArrays":true,"advancedFilters":[` +
			`{"value":5.0,"operatorType":"NumberLessThan","key":"data.k"},{"value":-0.25,"operatorType":"NumberGreaterThan","key":"data.k"},` +
			`{"value":1E+15,"operatorType":"NumberLessThanOrEquals","key":"data.k"},{"value":1E-06,"operatorType":"NumberGreaterThanOrEquals","key":"data.k"},` +
			`{"value":true,"operatorType":"BoolEquals","key":"data.k"},{"values":[3.0],"operatorType":"NumberNotIn","key":"data.k"},` +
			`{"values":["a"],"operatorType":"StringNotIn","key":"data.k"},{"values":["a"],"operatorType":"StringBeginsWith","key":"data.k"},` +
			`{"values":["a"],"operatorType":"StringNotBeginsWith","key":"data.k"},{"values":["a"],"operatorType":"StringEndsWith","key":"data.k"},` +
			`{"values":["a"],"operatorType":"StringNotEndsWith","key":"data.k"},{"values":["<&>"],"operatorType":"StringContains","key":"data.k"},` +
			`{"values":["\"q\"\\\n"],"operatorType":"StringNotContains","key":"Data.K"}]}`,
	}
	for _, shape := range shapes {
		var fj FilterJSON
		if err := json.Unmarshal([]byte(shape), &fj); err != nil {
			t.Fatalf("unmarshal %s: %v", shape, err)
		}
		if _, err := Compile(fj); err != nil {
			t.Errorf("compile %s: %v", shape, err)
		}
		out, err := fj.MarshalJSON() // json.Marshal would also escape <&>
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != shape {
			t.Errorf("round trip:\n got %s\nwant %s", out, shape)
		}
	}
}

// What a client sends is echoed in the service's shape: defaults filled in,
// isSubjectCaseSensitive:false dropped (the real service does not echo the
// false the CLI sends), operator casing made canonical, numbers as doubles.
func TestFilterJSONEchoesClientBodies(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"isSubjectCaseSensitive":false}`, `{"subjectBeginsWith":"","subjectEndsWith":""}`},
		{`{"subjectBeginsWith":null,"includedEventTypes":null,"advancedFilters":null,"enableAdvancedFilteringOnArrays":false}`,
			`{"subjectBeginsWith":"","subjectEndsWith":""}`},
		{`{"includedEventTypes":[],"advancedFilters":[]}`, `{"subjectBeginsWith":"","subjectEndsWith":""}`},
		{`{"isSubjectCaseSensitive":false,"advancedFilters":[{"operatorType":"numberin","key":"data.key2","values":[2,3,4,100,200]}]}`,
			`{"subjectBeginsWith":"","subjectEndsWith":"","advancedFilters":[{"values":[2.0,3.0,4.0,100.0,200.0],"operatorType":"NumberIn","key":"data.key2"}]}`},
		{`{"AdvancedFilters":[{"OperatorType":"STRINGIN","Key":"subject","Values":["x"],"value":7}]}`,
			`{"subjectBeginsWith":"","subjectEndsWith":"","advancedFilters":[{"values":["x"],"operatorType":"StringIn","key":"subject"}]}`},
		{`{"advancedFilters":[{"operatorType":"NumberLessThan","key":"data.k","value":0}]}`,
			`{"subjectBeginsWith":"","subjectEndsWith":"","advancedFilters":[{"value":0.0,"operatorType":"NumberLessThan","key":"data.k"}]}`},
	}
	for _, tc := range tests {
		var fj FilterJSON
		if err := json.Unmarshal([]byte(tc.in), &fj); err != nil {
			t.Fatalf("unmarshal %s: %v", tc.in, err)
		}
		out, _ := json.Marshal(fj)
		if string(out) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, out, tc.want)
		}
	}
}

func TestAppendDouble(t *testing.T) {
	t.Parallel()
	tests := map[float64]string{
		0: "0.0", 5: "5.0", -3: "-3.0", 2.5: "2.5", 3.14159: "3.14159", 999.95: "999.95",
		1e14: "100000000000000.0", 1e15: "1E+15", 1.5e20: "1.5E+20", 0.0001: "0.0001",
		0.00001: "1E-05", 0.00009: "9E-05", 1.5e-7: "1.5E-07", 123456.789: "123456.789",
	}
	for f, want := range tests {
		if got := string(appendDouble(nil, f)); got != want {
			t.Errorf("appendDouble(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestAppendStringIsValidJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "<&>", "\"\\/", "\x00\x01\x1f\n\r\t", "ünï😀", "bad\xffutf8", "\u2028"} {
		out := appendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Errorf("appendString(%q) = %s: %v", s, out, err)
			continue
		}
		if json.Valid([]byte(s)) || s == "bad\xffutf8" {
			continue
		}
		if back != s {
			t.Errorf("appendString(%q) decodes to %q", s, back)
		}
	}
}

func TestFilterJSONTypeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"filter not an object", `[]`, "must be a JSON object"},
		{"boolean field", `{"isSubjectCaseSensitive":"yes"}`, "filter.isSubjectCaseSensitive is not valid: it must be a boolean"},
		{"string field", `{"subjectEndsWith":5}`, "filter.subjectEndsWith is not valid: it must be a string"},
		{"event types", `{"includedEventTypes":"A"}`, "filter.includedEventTypes is not valid: it must be an array of strings"},
		{"advanced filters not an array", `{"advancedFilters":{}}`, "filter.advancedFilters is not valid"},
		{"null advanced filter", `{"advancedFilters":[null]}`, "number 1 must not be null"},
		{"advanced filter not an object", `{"advancedFilters":[5]}`, "must be an object"},
		{"no operator", `{"advancedFilters":[{"key":"data.a","values":[1]}]}`, "operatorType of an advanced filter must be specified"},
		{"unknown operator", `{"advancedFilters":[{"operatorType":"NumberBetween","key":"data.a"}]}`, "'NumberBetween' is not supported. Supported values are: NumberIn, "},
		{"strings for numbers", `{"advancedFilters":[{"operatorType":"NumberIn","key":"data.a","values":["1"]}]}`, "values of the advanced filter NumberIn on key 'data.a' must be an array of numbers"},
		{"numbers for strings", `{"advancedFilters":[{"operatorType":"StringIn","key":"data.a","values":[1]}]}`, "must be an array of strings"},
		{"string for bool", `{"advancedFilters":[{"operatorType":"BoolEquals","key":"data.a","value":"true"}]}`, "value of the advanced filter BoolEquals on key 'data.a' must be a boolean"},
		{"array for number", `{"advancedFilters":[{"operatorType":"NumberLessThan","key":"data.a","value":[1]}]}`, "must be a number"},
		{"range of three", `{"advancedFilters":[{"operatorType":"NumberInRange","key":"data.a","values":[[1,2,3]]}]}`, "[low, high] number pairs"},
		{"flat range", `{"advancedFilters":[{"operatorType":"NumberNotInRange","key":"data.a","values":[1,2]}]}`, "[low, high] number pairs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Decode through an enclosing body, as the ARM face does: the
			// *ValidationError must survive encoding/json.
			var body struct {
				Properties struct {
					Filter FilterJSON `json:"filter"`
				} `json:"properties"`
			}
			err := json.Unmarshal([]byte(`{"properties":{"filter":`+tc.in+`}}`), &body)
			checkValidationError(t, err, tc.want)
		})
	}
}

func TestAdvancedFilterJSONFields(t *testing.T) {
	t.Parallel()
	var fj FilterJSON
	in := `{"advancedFilters":[
		{"operatorType":"NumberInRange","key":"data.a","values":[[1,2],[3.5,4]]},
		{"operatorType":"BoolEquals","key":"data.b","value":false},
		{"operatorType":"NumberGreaterThan","key":"data.c","value":-1.5}]}`
	if err := json.Unmarshal([]byte(in), &fj); err != nil {
		t.Fatal(err)
	}
	f, tr, n := false, -1.5, []AdvancedFilterJSON{
		{OperatorType: NumberInRange, Key: "data.a", Ranges: [][2]float64{{1, 2}, {3.5, 4}}},
		{OperatorType: BoolEquals, Key: "data.b"},
		{OperatorType: NumberGreaterThan, Key: "data.c"},
	}
	n[1].Bool, n[2].Number = &f, &tr
	if !reflect.DeepEqual(fj.AdvancedFilters, n) {
		t.Errorf("decoded %+v, want %+v", fj.AdvancedFilters, n)
	}
}

func TestValidationErrorText(t *testing.T) {
	t.Parallel()
	err := error(&ValidationError{Code: CodeInvalidRequest, Message: "bad"})
	if err.Error() != "InvalidRequest: bad" {
		t.Errorf("Error() = %q", err.Error())
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Error("errors.As")
	}
}

func TestMarshalCanonicalizesOperatorBuiltInGo(t *testing.T) {
	t.Parallel()
	out, _ := json.Marshal(AdvancedFilterJSON{OperatorType: "stringin", Key: "k", Strings: []string{"a"}})
	if want := `{"values":["a"],"operatorType":"StringIn","key":"k"}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
}
