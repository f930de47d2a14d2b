package sqs_test

import (
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// postForm sends a query-protocol request, as boto3 1.26 does, to path.
func (h *harness) postForm(t *testing.T, path string, form url.Values) (int, string) {
	t.Helper()
	req := h.rawRequest(t, http.MethodPost, path, form.Encode())
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestQueryProtocolRoundTrip(t *testing.T) {
	h := startTest(t)
	status, body := h.postForm(t, "/", url.Values{"Action": {"CreateQueue"}, "Version": {"2012-11-05"}, "QueueName": {"legacy"},
		"Attribute.1.Name": {"VisibilityTimeout"}, "Attribute.1.Value": {"40"}, "Tag.1.Key": {"team"}, "Tag.1.Value": {"a"}})
	var created struct {
		URL string `xml:"CreateQueueResult>QueueUrl"`
	}
	if status != 200 || xml.Unmarshal([]byte(body), &created) != nil || created.URL != h.Server.URL+"/"+account+"/legacy" {
		t.Fatalf("CreateQueue: %d %s", status, body)
	}
	status, body = h.postForm(t, "/", url.Values{"Action": {"SendMessage"}, "QueueUrl": {created.URL}, "MessageBody": {"hi <there>"},
		"MessageAttribute.1.Name": {"k"}, "MessageAttribute.1.Value.DataType": {"String"}, "MessageAttribute.1.Value.StringValue": {"v"}})
	if status != 200 || !strings.Contains(body, "<MD5OfMessageBody>") || !strings.Contains(body, "<MD5OfMessageAttributes>") {
		t.Fatalf("SendMessage: %d %s", status, body)
	}
	// Sent to the queue URL itself, as the Go SDK v1 does.
	status, body = h.postForm(t, "/"+account+"/legacy", url.Values{"Action": {"ReceiveMessage"}, "AttributeName.1": {"All"}, "MessageAttributeName.1": {"All"}})
	var received struct {
		Messages []struct {
			Body          string `xml:"Body"`
			ReceiptHandle string `xml:"ReceiptHandle"`
			Attributes    []struct {
				Name  string `xml:"Name"`
				Value string `xml:"Value"`
			} `xml:"Attribute"`
			MessageAttributes []struct {
				Name  string `xml:"Name"`
				Value string `xml:"Value>StringValue"`
			} `xml:"MessageAttribute"`
		} `xml:"ReceiveMessageResult>Message"`
	}
	if status != 200 || xml.Unmarshal([]byte(body), &received) != nil || len(received.Messages) != 1 ||
		received.Messages[0].Body != "hi <there>" || len(received.Messages[0].MessageAttributes) != 1 || len(received.Messages[0].Attributes) < 3 {
		t.Fatalf("ReceiveMessage: %d %s", status, body)
	}
	status, body = h.postForm(t, "/", url.Values{"Action": {"DeleteMessageBatch"}, "QueueUrl": {created.URL},
		"DeleteMessageBatchRequestEntry.1.Id": {"a"}, "DeleteMessageBatchRequestEntry.1.ReceiptHandle": {received.Messages[0].ReceiptHandle}})
	if status != 200 || !strings.Contains(body, "<DeleteMessageBatchResultEntry><Id>a</Id></DeleteMessageBatchResultEntry>") {
		t.Fatalf("DeleteMessageBatch: %d %s", status, body)
	}
	status, body = h.postForm(t, "/", url.Values{"Action": {"ListQueueTags"}, "QueueUrl": {created.URL}})
	if status != 200 || !strings.Contains(body, "<Tag><Key>team</Key><Value>a</Value></Tag>") {
		t.Fatalf("ListQueueTags: %d %s", status, body)
	}
}

func TestQueryProtocolErrors(t *testing.T) {
	h := startTest(t)
	status, body := h.postForm(t, "/", url.Values{"Action": {"GetQueueUrl"}, "QueueName": {"nope"}})
	var e struct {
		Type string `xml:"Error>Type"`
		Code string `xml:"Error>Code"`
	}
	if status != 400 || xml.Unmarshal([]byte(body), &e) != nil || e.Code != "AWS.SimpleQueueService.NonExistentQueue" || e.Type != "Sender" {
		t.Fatalf("GetQueueUrl of a missing queue: %d %s", status, body)
	}
	status, body = h.postForm(t, "/", url.Values{"Action": {"Frobnicate"}})
	if status != 400 || !strings.Contains(body, "<Code>InvalidAction</Code>") {
		t.Fatalf("unknown action: %d %s", status, body)
	}
}

func TestJSONProtocolErrorShape(t *testing.T) {
	h := startTest(t)
	req := h.rawRequest(t, http.MethodPost, "/", `{"QueueUrl":"http://x/000000000000/none"}`)
	req.Header.Set("X-Amz-Target", "AmazonSQS.PurgeQueue")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || resp.Header.Get("X-Amzn-Query-Error") != "AWS.SimpleQueueService.NonExistentQueue;Sender" ||
		!strings.Contains(string(b), `"__type":"com.amazonaws.sqs#QueueDoesNotExist"`) {
		t.Fatalf("%d %v %s", resp.StatusCode, resp.Header, b)
	}
	for _, bad := range []string{`{`, `{"QueueUrl": 5}`} {
		req := h.rawRequest(t, http.MethodPost, "/", bad)
		req.Header.Set("X-Amz-Target", "AmazonSQS.PurgeQueue")
		resp, err := h.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("body %s: status %d", bad, resp.StatusCode)
		}
	}
}

func TestUnknownJSONOperation(t *testing.T) {
	h := startTest(t)
	req := h.rawRequest(t, http.MethodPost, "/", `{}`)
	req.Header.Set("X-Amz-Target", "AmazonSQS.Frobnicate")
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(b), "UnknownOperationException") {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
}
