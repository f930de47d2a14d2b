package resource

import (
	"strings"
	"testing"
	"time"
)

// A body of the wrong shape gets ARM's 400 InvalidRequestContent naming the
// JSON path and the JSON kinds involved, never the emulator's Go types
// (json.Unmarshal's own text says "Go struct field topicPutJSON.properties
// of type struct { InputSchema *string ... }").
func TestBadContentSpeaksJSONNotGo(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC)
	cases := []struct {
		name, body string
		want       []string
	}{
		{"properties a number", `{"location":"westus","properties":5}`, []string{"'properties'", "number", "object"}},
		{"inputSchema a number", `{"location":"westus","properties":{"inputSchema":7}}`, []string{"'properties.inputSchema'", "number", "string"}},
		{"tags an array", `{"location":"westus","tags":[1]}`, []string{"'tags'", "array", "object"}},
		{"body an array", `[]`, []string{"array", "object"}},
		{"truncated", `{"location":`, []string{"not valid JSON"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := TopicFromPut("id", "s", "rg", "t1", []byte(c.body), nil, now)
			if err == nil {
				t.Fatalf("TopicFromPut(%s) succeeded", c.body)
			}
			if err.Status != 400 || err.Code != "InvalidRequestContent" {
				t.Errorf("got %d %s, want 400 InvalidRequestContent", err.Status, err.Code)
			}
			for _, goWord := range []string{"Go ", "struct", "topicPutJSON", "*string", "map["} {
				if strings.Contains(err.Message, goWord) {
					t.Errorf("message %q shows the emulator's Go types (%q)", err.Message, goWord)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(err.Message, w) {
					t.Errorf("message %q does not say %q", err.Message, w)
				}
			}
		})
	}
	// A subscription PUT and PATCH go through the same words.
	_, err := SubscriptionFromPut("sub1", "topic", []byte(`{"properties":5}`), nil, now)
	if err == nil || strings.Contains(err.Message, "Go ") || !strings.Contains(err.Message, "'properties'") {
		t.Errorf("subscription PUT: got %v, want a message naming 'properties' without Go types", err)
	}
}
