package transform

import (
	"encoding/json"
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
