package schema

import (
	"net/http"
	"testing"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

// fuzzDecode: any publish body is decoded into events or refused with an
// error of Event Grid's shape (4xx), never a panic.
func fuzzDecode(f *testing.F, input egevent.Schema, mapping *InputMapping, contentType string, seeds ...string) {
	for _, s := range seeds {
		f.Add(contentType, s)
	}
	f.Fuzz(func(t *testing.T, contentType, body string) {
		h := http.Header{}
		h.Set("Content-Type", contentType)
		_, err := Decode(topic(input, mapping), Request{Header: h, Body: []byte(body), MaxEventBytes: 1 << 20, Now: now,
			NewID: func() string { return "generated" }})
		if err != nil && (err.Status < 400 || err.Status > 499) {
			t.Fatalf("Decode(%q) = %d %s, want a 4xx", body, err.Status, err.Message)
		}
	})
}

func FuzzDecodeEventGridSchema(f *testing.F) {
	fuzzDecode(f, egevent.EventGridSchema, nil, "application/json",
		`[{"id":"1","eventType":"A","subject":"s","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1","data":{"a":1}}]`,
		`[{"id":"1","eventType":"A","subject":"s","eventTime":"not a time","dataVersion":"1"}]`,
		`{"id":"1"}`, `[]`, `[null]`, `[{"id":1}]`, `[`)
}

func FuzzDecodeCloudEventSchema(f *testing.F) {
	fuzzDecode(f, egevent.CloudEventSchemaV10, nil, "application/cloudevents-batch+json; charset=utf-8",
		`[{"specversion":"1.0","id":"1","source":"/s","type":"A","data":{"a":1}}]`,
		`{"specversion":"1.0","id":"1","source":"/s","type":"A","data_base64":"AAEC"}`,
		`[{"specversion":"0.3","id":"1"}]`, `[{"specversion":"1.0","id":"1","source":"/s","type":"A","Ext":"x"}]`, `[]`, `"x"`)
}

func FuzzDecodeCustomInputSchema(f *testing.F) {
	m := &InputMapping{ID: &MappedField{SourceField: "myId"}, EventType: &MappedField{SourceField: "kind", DefaultValue: "Default"},
		Subject: &MappedField{SourceField: "resource"}}
	fuzzDecode(f, egevent.CustomInputSchema, m, "application/json",
		`[{"myId":"1","kind":"Created","resource":"users/1","v":2}]`, `[{"kind":5}]`, `[{}]`, `[1,2]`, `{"a":"b"}`)
}
