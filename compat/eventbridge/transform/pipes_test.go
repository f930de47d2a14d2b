package transform

import (
	"errors"
	"testing"
	"time"
)

func TestRenderPipeFillsJSONPathsAndVariables(t *testing.T) {
	t.Parallel()
	event := []byte(`{"messageId":"m1","body":"{\"order\":7,\"items\":[{\"sku\":\"a\"},{\"sku\":\"b\"}]}","attributes":{"SenderId":"s"}}`)
	paths := []byte(`{"messageId":"m1","body":{"order":7,"items":[{"sku":"a"},{"sku":"b"}]},"attributes":{"SenderId":"s"}}`)
	ev := PipeEvent{
		Event: event, Paths: paths, IngestionTime: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Pipe: map[string]string{PipeArn: "arn:aws:pipes:us-east-1:123456789012:pipe/p", PipeName: "p", PipeTargetArn: "t"},
	}
	for _, tc := range []struct{ tpl, want string }{
		{`{"order": <$.body.order>, "id": "<$.messageId>"}`, `{"order": 7, "id": "m1"}`},
		{`{"skus": <$.body.items[*].sku>, "first": <$.body.items[0]>}`, `{"skus": ["a","b"], "first": {"sku":"a"}}`},
		{`{"pipe": "<aws.pipes.pipe-name>", "arn": <aws.pipes.pipe-arn>, "at": "<aws.pipes.event.ingestion-time>"}`,
			`{"pipe": "p", "arn": "arn:aws:pipes:us-east-1:123456789012:pipe/p", "at": "2026-03-01T12:00:00.000Z"}`},
		{`{"missing": <$.nothing>, "event": <aws.pipes.event.json>}`, `{"missing": "", "event": ` + string(event) + `}`},
		{`Order <$.body.order> from <$.attributes.SenderId> <unknown>`, `Order 7 from s <unknown>`},
	} {
		got, err := RenderPipe(tc.tpl, ev)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s:\n got %s, %v\nwant %s", tc.tpl, got, err, tc.want)
		}
	}
	if _, err := RenderPipe(`{"a": <$.body>`, ev); !errors.Is(err, ErrInvalidJSON) {
		t.Fatalf("an unclosed JSON template: %v", err)
	}
	// Without Paths, JSON paths read the event: the body is the string.
	got, _ := RenderPipe(`<$.body>`, PipeEvent{Event: []byte(`{"body":"{\"a\":1}"}`)})
	if string(got) != `{"a":1}` {
		t.Fatalf("text template of an unparsed body: %s", got)
	}
}
