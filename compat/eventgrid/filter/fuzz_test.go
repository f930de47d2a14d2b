package filter

import (
	"encoding/json"
	"testing"
)

// FuzzCompile: any properties.filter body is decoded and compiled, or
// refused with an error; never a panic. A compiled filter matches any
// event without panicking.
func FuzzCompile(f *testing.F) {
	for _, seed := range []string{
		`{"includedEventTypes":["A"],"subjectBeginsWith":"orders/","isSubjectCaseSensitive":true}`,
		`{"advancedFilters":[{"operatorType":"NumberGreaterThan","key":"data.total","value":100}]}`,
		`{"advancedFilters":[{"operatorType":"NumberInRange","key":"data.n","values":[[1,5],[10,20]]}]}`,
		`{"advancedFilters":[{"operatorType":"StringContains","key":"subject","values":["a","b"]},{"operatorType":"BoolEquals","key":"data.ok","value":true}]}`,
		`{"advancedFilters":[{"operatorType":"IsNullOrUndefined","key":"data.x"},{"operatorType":"StringNotIn","key":"data.s","values":["q"]}]}`,
		`{"enableAdvancedFilteringOnArrays":true,"advancedFilters":[{"operatorType":"NumberIn","key":"data.a","values":[1,2]}]}`,
		`{"advancedFilters":[{"operatorType":"Nope","key":"k"}]}`, `{"advancedFilters":[{}]}`, `null`, `{`,
	} {
		f.Add(seed, `{"id":"1","subject":"orders/1","eventType":"A","data":{"total":150,"n":3,"ok":true,"a":[1,"x"],"s":"p"}}`)
	}
	f.Fuzz(func(t *testing.T, filterJSON, event string) {
		var fj FilterJSON
		if json.Unmarshal([]byte(filterJSON), &fj) != nil {
			return
		}
		flt, err := Compile(fj)
		if err != nil {
			return
		}
		var fields map[string]any
		if json.Unmarshal([]byte(event), &fields) != nil {
			return
		}
		flt.Match(NewJSONEvent(fields, EventGridSchema))
		flt.Match(NewJSONEvent(fields, CloudEventSchema))
	})
}
