package filter

import "testing"

func TestEventTypesAndSubject(t *testing.T) {
	t.Parallel()
	ev := decodeEvent(t, orderEvent, EventGridSchema) // Order.Created, /orders/42
	tests := []struct {
		name   string
		filter string
		want   bool
	}{
		{"no filter", `{}`, true},
		{"null event types", `{"includedEventTypes":null}`, true},
		{"empty event types", `{"includedEventTypes":[]}`, true},
		{"event type listed", `{"includedEventTypes":["Other","Order.Created"]}`, true},
		{"event type in another casing", `{"includedEventTypes":["order.created"]}`, true},
		{"event type not listed", `{"includedEventTypes":["Order.Deleted"]}`, false},
		{"All means every type", `{"includedEventTypes":["Order.Deleted","all"]}`, true},

		{"prefix ignores case by default", `{"subjectBeginsWith":"/ORDERS/"}`, true},
		{"suffix ignores case by default", `{"subjectEndsWith":"S/42"}`, true},
		{"case-sensitive prefix", `{"subjectBeginsWith":"/ORDERS/","isSubjectCaseSensitive":true}`, false},
		{"case-sensitive prefix hit", `{"subjectBeginsWith":"/orders/","isSubjectCaseSensitive":true}`, true},
		{"case-sensitive suffix", `{"subjectEndsWith":"S/42","isSubjectCaseSensitive":true}`, false},
		{"prefix and suffix", `{"subjectBeginsWith":"/orders","subjectEndsWith":"42"}`, true},
		{"suffix miss", `{"subjectBeginsWith":"/orders","subjectEndsWith":"43"}`, false},
		{"no wildcards", `{"subjectBeginsWith":"/orders/*"}`, false},
		{"prefix longer than subject", `{"subjectBeginsWith":"/orders/42/items"}`, false},
		{"empty strings are no filter", `{"subjectBeginsWith":"","subjectEndsWith":""}`, true},

		{"type, subject and advanced together", `{"includedEventTypes":["Order.Created"],"subjectEndsWith":"/42",
			"advancedFilters":[{"operatorType":"NumberIn","key":"data.n","values":[5]}]}`, true},
		{"advanced fails alone", `{"includedEventTypes":["Order.Created"],"subjectEndsWith":"/42",
			"advancedFilters":[{"operatorType":"NumberIn","key":"data.n","values":[6]}]}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := mustCompile(t, tc.filter).Match(ev); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSubjectFilterOnEventWithoutSubject(t *testing.T) {
	t.Parallel()
	ev := decodeEvent(t, cloudEvent, CloudEventSchema) // "subject": null
	if !mustCompile(t, `{"subjectBeginsWith":""}`).Match(ev) {
		t.Error("no subject filter: want match")
	}
	if mustCompile(t, `{"subjectBeginsWith":"/"}`).Match(ev) {
		t.Error("a subject prefix cannot match a missing subject")
	}
	if !mustCompile(t, `{"includedEventTypes":["com.example.someevent"]}`).Match(ev) {
		t.Error("CloudEvents type is the event type")
	}
}

func TestNilFilterMatchesEverything(t *testing.T) {
	t.Parallel()
	var f *Filter
	if !f.Match(decodeEvent(t, orderEvent, EventGridSchema)) {
		t.Error("a nil filter takes every event")
	}
}
