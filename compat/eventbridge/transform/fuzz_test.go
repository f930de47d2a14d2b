package transform

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// FuzzInputTransformer: any InputPathsMap path and InputTemplate is either
// refused by Validate or renders any event to bytes or an error, never a
// panic; a template that renders without error as JSON gives valid JSON.
func FuzzInputTransformer(f *testing.F) {
	event := `{"version":"0","id":"1","detail-type":"d","source":"shop","account":"1","time":"2026-01-01T00:00:00Z","region":"us-east-1","resources":[],"detail":{"id":"o-1","total":42,"items":[{"sku":"a"}],"note":"a \"q\""}}`
	for _, s := range [][2]string{
		{"$.detail.id", `{"order":<v>,"rule":<aws.events.rule-name>}`},
		{"$.detail.items[0].sku", `"sku <v> at <aws.events.event.ingestion-time>"`},
		{"$.detail", `<aws.events.event.json>`},
		{"$.detail.note", `Order <v> of <aws.events.event>`},
		{"$", `{"all":<v>,"missing":<nope>}`},
		{"$.detail.total", `[<v>, "<v>"]`},
		{"detail", `<v`}, {"$..x", ``}, {"$.a[", `<<v>>`},
	} {
		f.Add(s[0], s[1], event)
	}
	f.Fuzz(func(t *testing.T, path, template, envelope string) {
		spec := Spec{Transformer: &Transformer{PathsMap: map[string]string{"v": path}, Template: template}}
		if Validate(spec, "t") != nil {
			return
		}
		out, err := spec.Render(Event{Envelope: []byte(envelope), RuleArn: "arn:aws:events:us-east-1:1:rule/r", RuleName: "r",
			IngestionTime: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err == nil && isJSONTemplate(template) && json.Valid([]byte(envelope)) && !json.Valid(out) {
			t.Fatalf("template %q on %s rendered invalid JSON without an error: %s", template, envelope, out)
		}
	})
}

// FuzzEachMemberMatchesTheDecoder: on any JSON object, the scanning
// eachMember hands out the members encoding/json's decoder reads, in order.
func FuzzEachMemberMatchesTheDecoder(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"b":"x\"}","c":[1,{"d":"]"}],"e":null, "f" : true ,"a":{"g":[]}}`, `{"\u0041":"é"}`, ` { "k" : -1.5e3 } `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(doc), &obj) != nil || obj == nil {
			_ = eachMember([]byte(doc), func(string, json.RawMessage) {}) // no panic
			return
		}
		type kv struct {
			k string
			v string
		}
		var want, got []kv
		dec := json.NewDecoder(strings.NewReader(doc))
		_, _ = dec.Token()
		for dec.More() {
			tok, _ := dec.Token()
			var v json.RawMessage
			_ = dec.Decode(&v)
			want = append(want, kv{tok.(string), string(v)})
		}
		if err := eachMember([]byte(doc), func(k string, v json.RawMessage) { got = append(got, kv{k, string(v)}) }); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: got %v, want %v", doc, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: member %d is %v, want %v", doc, i, got[i], want[i])
			}
		}
	})
}
