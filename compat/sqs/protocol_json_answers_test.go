package sqs

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The hand-written answers decode to what encoding/json writes for the
// same values (it escapes <, > and & besides, which decodes the same).
func TestHandWrittenAnswersMatchEncodingJSON(t *testing.T) {
	t.Parallel()
	s := "v<&>\n\"\u2028\xff"
	for name, v := range map[string]jsonAppender{
		"receive-empty": receiveMessageOutput{Messages: []messageOutput{}},
		"receive-nil":   receiveMessageOutput{},
		"receive": receiveMessageOutput{Messages: []messageOutput{
			{MessageId: "id-1", ReceiptHandle: "rh", MD5OfBody: "md5", Body: `{"a":"<b>"}`},
			{MessageId: "id-2", ReceiptHandle: "rh2", MD5OfBody: "md5", Body: s,
				Attributes:             map[string]string{"SentTimestamp": "1", "ApproximateReceiveCount": "2", "SenderId": s},
				MD5OfMessageAttributes: "md5a",
				MessageAttributes: map[string]AttributeValue{
					"str": {DataType: "String", StringValue: &s}, "bin": {DataType: "Binary", BinaryValue: []byte{0, 1, 255}},
				}},
		}},
		"send-batch": sendMessageBatchOutput{
			Successful: []sendBatchResultEntry{
				{batchEntryID{"a"}, sendMessageOutput{MessageId: "m", MD5OfMessageBody: "x"}},
				{batchEntryID{"b"}, sendMessageOutput{MessageId: "n", MD5OfMessageBody: "y", MD5OfMessageAttributes: "z", SequenceNumber: "18000000000000000001"}},
			},
			Failed: []batchErrorEntry{{batchEntryID: batchEntryID{"c"}, Code: "InvalidParameterValue", Message: s, SenderFault: true}},
		},
		"send-batch-empty": sendMessageBatchOutput{Successful: []sendBatchResultEntry{}, Failed: []batchErrorEntry{}},
		"send-batch-nil":   sendMessageBatchOutput{},
		"id-batch": idBatchOutput{Successful: []batchEntryID{{"0"}, {"1"}}, Failed: []batchErrorEntry{{batchEntryID: batchEntryID{"2"}, Code: "ReceiptHandleIsInvalid", Message: "m"}},
			entryTag: "DeleteMessageBatchResultEntry"},
		"id-batch-nil": idBatchOutput{},
	} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got := v.appendJSON(nil)
		var gotV, wantV any
		if err := json.Unmarshal(got, &gotV); err != nil {
			t.Fatalf("%s: invalid JSON %s: %v", name, got, err)
		}
		_ = json.Unmarshal(want, &wantV)
		if !reflect.DeepEqual(gotV, wantV) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
