package schema

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

const topicID = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.EventGrid/topics/t"

var now = time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC)

func request(contentType, body string) Request {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return Request{Header: h, Body: []byte(body), MaxEventBytes: 1 << 20, Now: now, NewID: func() string { return "generated" }}
}

func topic(input egevent.Schema, m *InputMapping) Topic {
	return Topic{ID: topicID, Name: "t", Input: input, Mapping: m}
}

func TestDecodeEventGrid(t *testing.T) {
	t.Parallel()
	evs, err := Decode(topic(egevent.EventGridSchema, nil), request("application/json",
		`[{"id":"1","eventType":"T","subject":"","eventTime":"2026-03-10T08:00:00.1234567Z","data":{"big":12345678901234567890}}]`))
	if err != nil {
		t.Fatal(err)
	}
	ev := evs[0]
	if ev.ID != "1" || ev.Type != "T" || ev.Subject != "" || ev.DataVersion != "" || ev.Topic != topicID || ev.TopicName != "t" ||
		ev.PublishedAt != now || ev.Time.Nanosecond() != 123456700 || ev.Decoded != nil {
		t.Fatalf("event %+v", ev)
	}
	out, rerr := Render(ev, egevent.EventGridSchema)
	if rerr != nil {
		t.Fatal(rerr)
	}
	// data stays byte-exact (no float rounding); eventTime as published.
	want := `{"id":"1","topic":"` + topicID + `","subject":"","data":{"big":12345678901234567890},"eventType":"T","eventTime":"2026-03-10T08:00:00.1234567Z","metadataVersion":"1","dataVersion":""}`
	if string(out) != want {
		t.Fatalf("rendered\n%s\nwant\n%s", out, want)
	}
}

func TestDecodeRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		input  egevent.Schema
		ct     string
		body   string
		status int
		msg    string
	}{
		{"object for array", egevent.EventGridSchema, "application/json", `{}`, 400, "Expected: StartArray, actual: StartObject"},
		{"missing eventType", egevent.EventGridSchema, "", `[{"id":"1","subject":"s","eventTime":"2026-03-10T08:00:00Z"}]`, 400, "'eventType'"},
		{"null id", egevent.EventGridSchema, "", `[{"id":null,"eventType":"T","subject":"s","eventTime":"2026-03-10T08:00:00Z"}]`, 400, "'id'"},
		{"event too large", egevent.EventGridSchema, "", `[{"id":"` + strings.Repeat("x", 2<<20) + `"}]`, 413, "bytes"},
		{"CloudEvent missing type", egevent.CloudEventSchemaV10, "application/cloudevents-batch+json", `[{"id":"1","source":"s","specversion":"1.0"}]`, 400, "'type'"},
		{"CloudEvent bad time", egevent.CloudEventSchemaV10, "application/cloudevents+json", `{"id":"1","source":"s","type":"T","specversion":"1.0","time":"now"}`, 400, "time"},
		{"binary mode bad JSON body", egevent.CloudEventSchemaV10, "application/json", `{`, 400, "not valid JSON"},
		{"custom mapped type missing, no default", egevent.CustomInputSchema, "", `[{"other":1}]`, 400, "no value"},
		{"custom mapped type is an object", egevent.CustomInputSchema, "", `[{"kind":{}}]`, 400, "must be a string"},
	}
	mapping := &InputMapping{EventType: &MappedField{SourceField: "kind"}}
	for _, tc := range cases {
		req := request(tc.ct, tc.body)
		if tc.name == "binary mode bad JSON body" {
			req.Header.Set("ce-specversion", "1.0")
		}
		_, err := Decode(topic(tc.input, mapping), req)
		if err == nil || err.Status != tc.status || !strings.Contains(err.Message, tc.msg) {
			t.Errorf("%s: got %v, want %d containing %q", tc.name, err, tc.status, tc.msg)
		}
	}
}

// The input mapping of W-EG-7.1: mapped fields, defaults, a new id
// when id is not mapped, publish time when eventTime is not mapped, and
// the whole object as data.
func TestCustomMappingAndConversions(t *testing.T) {
	t.Parallel()
	var m InputMapping
	if err := json.Unmarshal([]byte(`{"inputSchemaMappingType":"json","properties":{"id":{},"eventType":{"sourceField":"myEventTypeField"},
		"subject":{"defaultValue":"DefaultSubject"},"dataVersion":{"sourceField":"v","defaultValue":"1.0"}}}`), &m); err != nil {
		t.Fatal(err)
	}
	evs, err := Decode(topic(egevent.CustomInputSchema, &m), request("application/json", `[{"myEventTypeField":"Created","v":2,"resource":"Users/1"}]`))
	if err != nil {
		t.Fatal(err)
	}
	ev := evs[0]
	if ev.ID != "generated" || ev.Type != "Created" || ev.Subject != "DefaultSubject" || ev.DataVersion != "2" || !ev.Time.Equal(now) {
		t.Fatalf("mapped %+v", ev)
	}
	eg, _ := Render(ev, egevent.EventGridSchema)
	want := `{"id":"generated","topic":"` + topicID + `","subject":"DefaultSubject","data":{"myEventTypeField":"Created","v":2,"resource":"Users/1"},"eventType":"Created","eventTime":"2026-03-10T08:00:00Z","metadataVersion":"1","dataVersion":"2"}`
	if string(eg) != want {
		t.Fatalf("EG rendering\n%s\nwant\n%s", eg, want)
	}
	raw, _ := Render(ev, egevent.CustomInputSchema)
	if string(raw) != `{"myEventTypeField":"Created","v":2,"resource":"Users/1"}` {
		t.Fatalf("custom rendering %s", raw)
	}
	ce, _ := Render(ev, egevent.CloudEventSchemaV10)
	var got map[string]any
	_ = json.Unmarshal(ce, &got)
	if got["source"] != topicID || got["type"] != "Created" || got["specversion"] != "1.0" || got["dataschema"] != "#2" || got["time"] != "2026-03-10T08:00:00Z" {
		t.Fatalf("CloudEvents rendering %s", ce)
	}
	out, _ := json.Marshal(m)
	if !strings.Contains(string(out), `"inputSchemaMappingType":"Json"`) {
		t.Fatalf("mapping not written canonically: %s", out)
	}
}

func TestCloudEventsModes(t *testing.T) {
	t.Parallel()
	single, err := Decode(topic(egevent.CloudEventSchemaV10, nil), request("application/cloudevents+json; charset=utf-8",
		`{"id":"1","source":"s","type":"T","specversion":"1.0","ext":"x"}`))
	if err != nil || len(single) != 1 {
		t.Fatalf("single: %v", err)
	}
	out, _ := Render(single[0], egevent.CloudEventSchemaV10)
	if string(out) != `{"id":"1","source":"s","type":"T","specversion":"1.0","ext":"x"}` {
		t.Fatalf("CloudEvents are delivered as published: %s", out)
	}
	if _, err := Render(single[0], egevent.EventGridSchema); err == nil {
		t.Fatal("a CloudEvent rendered in Event Grid schema")
	}
	req := request("application/octet-stream", "\x00\x01")
	for k, v := range map[string]string{"ce-specversion": "1.0", "ce-id": "b", "ce-source": "s", "ce-type": "T"} {
		req.Header.Set(k, v)
	}
	bin, err := Decode(topic(egevent.CloudEventSchemaV10, nil), req)
	if err != nil {
		t.Fatal(err)
	}
	var structured map[string]any
	if json.Unmarshal(bin[0].Raw, &structured) != nil || structured["data_base64"] != "AAE=" || structured["datacontenttype"] != "application/octet-stream" {
		t.Fatalf("binary mode %s", bin[0].Raw)
	}
}

// Nothing a publisher sends makes Decode panic.
func FuzzDecode(f *testing.F) {
	f.Add(`[{"id":"1","eventType":"T","subject":"s","eventTime":"2026-03-10T08:00:00Z"}]`, "application/json", 0)
	f.Add(`{"id":"1","source":"s","type":"T","specversion":"1.0"}`, "application/cloudevents+json", 1)
	f.Add(`[{"a":{"b":[1,2]}}]`, "", 2)
	f.Fuzz(func(t *testing.T, body, ct string, schema int) {
		input := []egevent.Schema{egevent.EventGridSchema, egevent.CloudEventSchemaV10, egevent.CustomInputSchema}[uint(schema)%3]
		m := &InputMapping{ID: &MappedField{SourceField: "a"}, EventType: &MappedField{SourceField: "b", DefaultValue: "d"}}
		evs, err := Decode(topic(input, m), request(ct, body))
		if err != nil {
			return
		}
		for _, ev := range evs {
			for _, d := range []egevent.Schema{egevent.EventGridSchema, egevent.CloudEventSchemaV10, egevent.CustomInputSchema} {
				_, _ = Render(ev, d)
			}
		}
	})
}
