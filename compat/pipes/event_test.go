package pipes

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/sqssource"
)

// A message's event is what AWS sends for it, member for member, with its
// body parsed in the paths document when it holds JSON.
func TestRecordIsTheSQSEvent(t *testing.T) {
	t.Parallel()
	v := "é \"quoted\" <b>"
	for _, tc := range []struct {
		body       string
		parsedBody any
	}{
		{`{"order":7,"note":"a\"b"}`, map[string]any{"order": 7.0, "note": `a"b`}},
		{"plain text, \u2603 and \x01", nil},
		{` [1, 2] `, []any{1.0, 2.0}},
		{`42`, 42.0},
	} {
		m := sqssource.Message{
			ID: "id-1", ReceiptHandle: "rh\\1", Body: tc.body, MD5OfBody: "md5", MD5OfMessageAttributes: "md5a",
			Attributes:        map[string]string{"SentTimestamp": "1", "ApproximateReceiveCount": "2", "SenderId": "s"},
			MessageAttributes: map[string]sqssource.Attribute{"k": {DataType: "String", StringValue: &v}, "b": {DataType: "Binary", BinaryValue: []byte{0, 1}}},
			ReceiveCount:      2,
		}
		r := newRecord(m, "arn:aws:sqs:eu-west-1:123456789012:q", "eu-west-1", time.Time{}, time.Time{})
		var got map[string]any
		if err := json.Unmarshal(r.event, &got); err != nil {
			t.Fatalf("%q: the event is not JSON: %v\n%s", tc.body, err, r.event)
		}
		want := map[string]any{
			"messageId": "id-1", "receiptHandle": `rh\1`, "body": tc.body, "md5OfBody": "md5", "md5OfMessageAttributes": "md5a",
			"attributes":  map[string]any{"SentTimestamp": "1", "ApproximateReceiveCount": "2", "SenderId": "s"},
			"eventSource": "aws:sqs", "eventSourceARN": "arn:aws:sqs:eu-west-1:123456789012:q", "awsRegion": "eu-west-1",
			"messageAttributes": map[string]any{
				"k": map[string]any{"stringValue": v, "stringListValues": []any{}, "binaryListValues": []any{}, "dataType": "String"},
				"b": map[string]any{"binaryValue": "AAE=", "stringListValues": []any{}, "binaryListValues": []any{}, "dataType": "Binary"},
			},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: event\n %v\nwant\n %v", tc.body, got, want)
		}
		var paths map[string]any
		if err := json.Unmarshal(r.paths, &paths); err != nil {
			t.Fatalf("%q: the paths document is not JSON: %v", tc.body, err)
		}
		wantBody := any(tc.body)
		if tc.parsedBody != nil {
			wantBody = tc.parsedBody
		}
		if !reflect.DeepEqual(paths["body"], wantBody) {
			t.Fatalf("%q: paths body %v, want %v", tc.body, paths["body"], wantBody)
		}
	}
}
