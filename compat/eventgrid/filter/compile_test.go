package filter

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func repeatFilters(n int, one string) string {
	return `{"advancedFilters":[` + strings.TrimSuffix(strings.Repeat(one+",", n), ",") + `]}`
}

func stringValues(n int) string {
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprintf("%q", fmt.Sprint("v", i))
	}
	return "[" + strings.Join(vs, ",") + "]"
}

func TestCompileLimits(t *testing.T) {
	t.Parallel()
	isNotNull := `{"operatorType":"IsNotNull","key":"data.a"}`
	oneValue := `{"operatorType":"NumberLessThan","key":"data.a","value":1}`
	tests := []struct {
		name    string
		filter  string
		wantErr string // "" = valid; otherwise a fragment of the message
	}{
		{"25 filters", repeatFilters(25, isNotNull), ""},
		{"26 filters", repeatFilters(26, isNotNull), "maximum number of advanced filters"},
		{"25 single values", repeatFilters(25, oneValue), ""},
		{"25 values in one filter", `{"advancedFilters":[{"operatorType":"StringIn","key":"data.a","values":` + stringValues(25) + `}]}`, ""},
		{"26 values in one filter", `{"advancedFilters":[{"operatorType":"StringIn","key":"data.a","values":` + stringValues(26) + `}]}`, "maximum number of values"},
		{"26 values across filters", `{"advancedFilters":[
			{"operatorType":"StringIn","key":"data.a","values":` + stringValues(20) + `},
			{"operatorType":"NumberIn","key":"data.b","values":[1,2,3,4,5,6]}]}`, "maximum number of values"},
		{"null operators spend no values", `{"advancedFilters":[` + strings.Repeat(isNotNull+",", 24) +
			`{"operatorType":"StringIn","key":"data.a","values":` + stringValues(25) + `}]}`, ""},
		{"a range is one value", `{"advancedFilters":[
			{"operatorType":"NumberInRange","key":"data.a","values":[[1,2],[3,4],[5,6]]},
			{"operatorType":"StringIn","key":"data.b","values":` + stringValues(22) + `}]}`, ""},
		{"26th value is a range", `{"advancedFilters":[
			{"operatorType":"NumberNotInRange","key":"data.a","values":[[1,2],[3,4],[5,6],[7,8]]},
			{"operatorType":"StringIn","key":"data.b","values":` + stringValues(22) + `}]}`, "maximum number of values"},

		{"512 characters", `{"advancedFilters":[{"operatorType":"StringContains","key":"data.a","values":["` + strings.Repeat("x", 512) + `"]}]}`, ""},
		{"513 characters", `{"advancedFilters":[{"operatorType":"StringContains","key":"data.a","values":["` + strings.Repeat("x", 513) + `"]}]}`, "513 characters"},
		{"512 two-byte characters", `{"advancedFilters":[{"operatorType":"StringIn","key":"data.a","values":["` + strings.Repeat("é", 512) + `"]}]}`, ""},
		{"256 surrogate pairs", `{"advancedFilters":[{"operatorType":"StringIn","key":"data.a","values":["` + strings.Repeat("😀", 256) + `"]}]}`, ""},
		{"257 surrogate pairs", `{"advancedFilters":[{"operatorType":"StringIn","key":"data.a","values":["` + strings.Repeat("😀", 257) + `"]}]}`, "514 characters"},

		{"any key depth", `{"advancedFilters":[{"operatorType":"IsNotNull","key":"data.a.b.c.d.e.f.g.h"}]}`, ""},
		{"missing key", `{"advancedFilters":[{"operatorType":"IsNotNull"}]}`, "key of advanced filter number 1"},
		{"blank key", `{"advancedFilters":[` + isNotNull + `,{"operatorType":"StringIn","key":" ","values":["a"]}]}`, "key of advanced filter number 2"},
		{"missing value", `{"advancedFilters":[{"operatorType":"NumberGreaterThan","key":"data.a"}]}`, "must specify a numeric value"},
		{"null value", `{"advancedFilters":[{"operatorType":"BoolEquals","key":"data.a","value":null}]}`, "must specify a boolean value"},
		{"values instead of value", `{"advancedFilters":[{"operatorType":"NumberLessThan","key":"data.a","values":[1]}]}`, "must specify a numeric value"},
		{"empty number values", `{"advancedFilters":[{"operatorType":"NumberIn","key":"data.a","values":[]}]}`, "at least one number"},
		{"missing string values", `{"advancedFilters":[{"operatorType":"StringNotIn","key":"data.a"}]}`, "at least one string"},
		{"empty ranges", `{"advancedFilters":[{"operatorType":"NumberInRange","key":"data.a","values":[]}]}`, "at least one [low, high] range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var fj FilterJSON
			if err := json.Unmarshal([]byte(tc.filter), &fj); err != nil {
				t.Fatalf("unmarshal: %v", err)
			}
			_, err := Compile(fj)
			checkValidationError(t, err, tc.wantErr)
		})
	}
}

func checkValidationError(t *testing.T, err error, wantFragment string) {
	t.Helper()
	if wantFragment == "" {
		if err != nil {
			t.Fatalf("want no error, got %v", err)
		}
		return
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValidationError containing %q, got %v", wantFragment, err)
	}
	if ve.Code != CodeInvalidRequest {
		t.Errorf("code = %q, want %q", ve.Code, CodeInvalidRequest)
	}
	if !strings.Contains(ve.Message, wantFragment) {
		t.Errorf("message %q does not contain %q", ve.Message, wantFragment)
	}
}

func TestCompileRejectsUnknownOperatorBuiltInGo(t *testing.T) {
	t.Parallel()
	_, err := Compile(FilterJSON{AdvancedFilters: []AdvancedFilterJSON{{OperatorType: "StringLike", Key: "data.a"}}})
	checkValidationError(t, err, "operatorType 'StringLike' is not supported")
}

func TestCompileAcceptsOperatorInAnyCasingBuiltInGo(t *testing.T) {
	t.Parallel()
	f, err := Compile(FilterJSON{AdvancedFilters: []AdvancedFilterJSON{{OperatorType: "isnotnull", Key: "data.n"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Match(decodeEvent(t, orderEvent, EventGridSchema)) {
		t.Error("want match")
	}
}

// The compiled filter owns its data: changing the FilterJSON afterwards, as
// a PATCH handler might, does not change what the filter matches.
func TestCompileCopiesInput(t *testing.T) {
	t.Parallel()
	fj := FilterJSON{
		IncludedEventTypes: []string{"Order.Created"},
		AdvancedFilters: []AdvancedFilterJSON{
			{OperatorType: StringIn, Key: "data.s", Strings: []string{"hello world"}},
			{OperatorType: NumberIn, Key: "data.n", Numbers: []float64{5}},
			{OperatorType: NumberInRange, Key: "data.n", Ranges: [][2]float64{{5, 5}}},
		},
	}
	f, err := Compile(fj)
	if err != nil {
		t.Fatal(err)
	}
	fj.IncludedEventTypes[0] = "Other"
	fj.AdvancedFilters[0].Strings[0] = "other"
	fj.AdvancedFilters[1].Numbers[0] = 6
	fj.AdvancedFilters[2].Ranges[0] = [2]float64{6, 6}
	if !f.Match(decodeEvent(t, orderEvent, EventGridSchema)) {
		t.Error("the compiled filter changed with its input")
	}
}
