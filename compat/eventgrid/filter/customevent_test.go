package filter

import (
	"encoding/json"
	"strings"
	"testing"
)

// flatEvent is an Event implementation other than JSONEvent, whose values
// are not all what encoding/json produces by default.
type flatEvent map[string]any

func (e flatEvent) EventType() string { s, _ := e["eventType"].(string); return s }
func (e flatEvent) Subject() string   { s, _ := e["subject"].(string); return s }
func (e flatEvent) Lookup(key string) (any, bool) {
	v, ok := e[key]
	return v, ok
}

func TestOtherNumericTypes(t *testing.T) {
	t.Parallel()
	ev := flatEvent{"data.i": 5, "data.i64": int64(5), "data.num": json.Number("5"), "data.bad": json.Number("x")}
	tests := []matchCase{
		{"int", `{"operatorType":"NumberIn","key":"data.i","values":[5]}`, true},
		{"int64", `{"operatorType":"NumberLessThan","key":"data.i64","value":6}`, true},
		{"json.Number", `{"operatorType":"NumberInRange","key":"data.num","values":[[5,5]]}`, true},
		{"bad json.Number", `{"operatorType":"NumberNotIn","key":"data.bad","values":[5]}`, true},
		{"bad json.Number positive", `{"operatorType":"NumberIn","key":"data.bad","values":[5]}`, false},
	}
	for _, tc := range tests {
		if got := mustCompile(t, `{"advancedFilters":[`+tc.filter+`]}`).Match(ev); got != tc.want {
			t.Errorf("%s: Match = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestLookupOfUnusualNames(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", probeMax+1)
	ev := decodeEvent(t, `{"data":{"`+long+`":1,"ünï":2}}`, EventGridSchema)
	for key, want := range map[string]float64{
		"data." + strings.ToUpper(long): 1, // too long to probe: found by the scan
		"data.ÜNÏ":                      2, // not ASCII: found by the scan
	} {
		if v, ok := ev.Lookup(key); !ok || v != want {
			t.Errorf("Lookup(%q) = %v, %v; want %v", key, v, ok, want)
		}
	}
}

func TestBoolEqualsFalseEcho(t *testing.T) {
	t.Parallel()
	f := false
	out, _ := json.Marshal(AdvancedFilterJSON{OperatorType: BoolEquals, Key: "k", Bool: &f})
	if want := `{"value":false,"operatorType":"BoolEquals","key":"k"}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
}
