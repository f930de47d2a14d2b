package sqs_test

import (
	"io"
	"net/http"
	"net/url"
	"testing"
)

var allOperations = []string{
	"CreateQueue", "GetQueueUrl", "GetQueueAttributes", "SetQueueAttributes", "ListQueues", "DeleteQueue",
	"PurgeQueue", "SendMessage", "SendMessageBatch", "ReceiveMessage", "DeleteMessage", "DeleteMessageBatch",
	"ChangeMessageVisibility", "ChangeMessageVisibilityBatch", "TagQueue", "UntagQueue", "ListQueueTags",
	"ListDeadLetterSourceQueues", "AddPermission", "RemovePermission",
}

// TestBadInputIsAClientError: every operation, in both protocols, answers
// malformed or incomplete input with a 4xx, never a 5xx.
func TestBadInputIsAClientError(t *testing.T) {
	h := startTest(t)
	queue := h.createQueue("robust", nil)
	bodies := []string{`{`, `[]`, `{}`, `{"QueueUrl":5}`, `{"QueueUrl":"` + queue + `","Entries":[{}],"MaxNumberOfMessages":99}`,
		`{"QueueUrl":"` + queue + `","Attributes":{"Nope":"1"},"ReceiptHandle":"%%%","VisibilityTimeout":-1}`}
	for _, op := range allOperations {
		for _, body := range bodies {
			req := h.rawRequest(t, http.MethodPost, "/", body)
			req.Header.Set("X-Amz-Target", "AmazonSQS."+op)
			check(t, h, req, op+" "+body)
		}
		for _, form := range []url.Values{
			{"Action": {op}},
			{"Action": {op}, "QueueUrl": {queue}, "MaxNumberOfMessages": {"x"}, "Attribute.1.Name": {"Nope"}, "Tag.1.Key": {""}},
			{"Action": {op}, "QueueUrl": {queue}, "MessageAttribute.1.Name": {"a"}, "MessageAttribute.1.Value.BinaryValue": {"!!"}},
		} {
			req := h.rawRequest(t, http.MethodPost, "/", form.Encode())
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			check(t, h, req, op+" "+form.Encode())
		}
	}
}

func check(t *testing.T, h *harness, req *http.Request, what string) {
	t.Helper()
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 500 {
		t.Errorf("%s: %d %s", what, resp.StatusCode, b)
	}
}
