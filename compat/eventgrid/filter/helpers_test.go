package filter

import (
	"encoding/json"
	"testing"
)

// orderEvent is an Event Grid schema event with one field of every shape the
// tests need.
const orderEvent = `{
  "id": "ev-1", "eventType": "Order.Created", "subject": "/orders/42",
  "dataVersion": "1.0", "topic": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.EventGrid/topics/t",
  "data": {
    "n": 5, "s": "Hello World", "b": true, "bs": "true", "es": "", "z": null,
    "o": {"deep": {"er": {"est": {"v": 7}}}},
    "nums": [1, 5, 9], "strs": ["red", "Green"], "mixed": [5, "five", true, null],
    "objs": [{"a": 1}], "mixedObjs": ["red", {"a": 1}], "empty": [], "nested": [[1]]
  }
}`

func decodeEvent(t testing.TB, js string, schema Schema) *JSONEvent {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatalf("decode event: %v", err)
	}
	return NewJSONEvent(m, schema)
}

// mustCompile decodes a properties.filter JSON document and compiles it.
func mustCompile(t testing.TB, filterJSON string) *Filter {
	t.Helper()
	var fj FilterJSON
	if err := json.Unmarshal([]byte(filterJSON), &fj); err != nil {
		t.Fatalf("unmarshal filter %s: %v", filterJSON, err)
	}
	f, err := Compile(fj)
	if err != nil {
		t.Fatalf("compile filter %s: %v", filterJSON, err)
	}
	return f
}

// matchCase is one advanced filter against orderEvent.
type matchCase struct {
	name   string
	filter string // one element of advancedFilters
	want   bool
}

func runAdvanced(t *testing.T, arrays bool, cases []matchCase) {
	t.Helper()
	ev := decodeEvent(t, orderEvent, EventGridSchema)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := `{"advancedFilters":[` + tc.filter + `]}`
			if arrays {
				doc = `{"enableAdvancedFilteringOnArrays":true,"advancedFilters":[` + tc.filter + `]}`
			}
			if got := mustCompile(t, doc).Match(ev); got != tc.want {
				t.Errorf("%s: Match = %v, want %v", tc.filter, got, tc.want)
			}
		})
	}
}
