package sqs

import (
	"encoding/json"
	"reflect"
	"testing"
)

var fastInputs = []string{
	`{"QueueUrl":"http://localhost/000000000000/q","MaxNumberOfMessages":10,"WaitTimeSeconds":1,"VisibilityTimeout":5}`,
	`{"QueueUrl":"u","AttributeNames":["All"],"MessageSystemAttributeNames":[],"MessageAttributeNames":["a.*","b"],"ReceiveRequestAttemptId":"x"}`,
	`{"QueueUrl":"u","Entries":[{"Id":"0","ReceiptHandle":"rh=="},{"Id":"1","ReceiptHandle":"r\u00e9\n"}]}`,
	`{"QueueUrl":"u","Entries":[{"Id":"m0","MessageBody":"{\"order\":{\"id\":\"o-1\",\"total\":12.5}}"},{"Id":"m1","MessageBody":"\ud83d\ude42 \/","DelaySeconds":0,"MessageGroupId":"g","MessageDeduplicationId":"d"}]}`,
	` { "QueueUrl" : "u" , "Entries" : [ ] } `,
	`{"QueueUrl":"u","Entries":[{"Id":"a","MessageBody":"x","MessageAttributes":{"k":{"DataType":"String","StringValue":"v"}}}]}`,
	`{"queueurl":"u"}`, `{"QueueUrl":null}`, `{"QueueUrl":"u","QueueUrl":"v"}`, `{"MaxNumberOfMessages":1.0}`,
	`{"MaxNumberOfMessages":01}`, `{"MaxNumberOfMessages":-3}`, `{"MaxNumberOfMessages":99999999999999999999}`,
	`{"QueueUrl":"\ud800"}`, "{\"QueueUrl\":\"\xff\"}", `{"QueueUrl":"u"} x`, `{"QueueUrl":"u",}`, `{"Entries":null}`, `[]`,
	`{"QueueUrl":"\x01"}`, `{"QueueUrl":"\q"}`, `{"Entries":[{"Id":"a"},]}`,
}

// decodeFast agrees with encoding/json whenever it takes a request.
func checkFast(t *testing.T, body string) {
	for _, mk := range []func() any{
		func() any { return new(receiveMessageInput) },
		func() any { return new(deleteMessageBatchInput) },
		func() any { return new(sendMessageBatchInput) },
	} {
		fast, slow := mk(), mk()
		if !decodeFast([]byte(body), fast) {
			if !reflect.DeepEqual(fast, mk()) {
				t.Fatalf("%T: a refused %s left %+v", fast, body, fast)
			}
			continue
		}
		if err := json.Unmarshal([]byte(body), slow); err != nil {
			t.Fatalf("%T: decodeFast took %s, which encoding/json refuses: %v", fast, body, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%T of %s:\nfast %+v\nslow %+v", fast, body, fast, slow)
		}
	}
}

func TestDecodeFastAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, body := range fastInputs {
		checkFast(t, body)
	}
	// The usual requests do take the fast path.
	for i, want := range []any{new(receiveMessageInput), new(receiveMessageInput), new(deleteMessageBatchInput), new(sendMessageBatchInput)} {
		if !decodeFast([]byte(fastInputs[i]), want) {
			t.Errorf("decodeFast refused %s", fastInputs[i])
		}
	}
}

func FuzzDecodeFast(f *testing.F) {
	for _, body := range fastInputs {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) { checkFast(t, body) })
}
