package sqs_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkMessageRoundServe is the service's own cost of the message
// path's round of ten, without HTTP or the SDK: SendMessageBatch(10),
// ReceiveMessage(10), DeleteMessageBatch(10), the handler served directly.
// Allocations are per round of ten messages.
func BenchmarkMessageRoundServe(b *testing.B) {
	h := newHarness(b)
	queue := h.createQueue("bench", nil)
	var send strings.Builder
	send.WriteString(`{"QueueUrl":"` + queue + `","Entries":[`)
	for i := range 10 {
		if i > 0 {
			send.WriteByte(',')
		}
		send.WriteString(`{"Id":"m` + strconv.Itoa(i) + `","MessageBody":"{\"order\":{\"id\":\"o-1\",\"total\":12.5}}"}`)
	}
	send.WriteString(`]}`)
	sendBody := []byte(send.String())
	receiveBody := []byte(`{"QueueUrl":"` + queue + `","MaxNumberOfMessages":10,"WaitTimeSeconds":0}`)
	serve := func(target string, body []byte) []byte {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("X-Amz-Target", "AmazonSQS."+target)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+account+"/20260301/"+region+"/sqs/aws4_request, SignedHeaders=host, Signature=x")
		rec := httptest.NewRecorder()
		h.svc.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
		}
		return rec.Body.Bytes()
	}
	b.ReportAllocs()
	for b.Loop() {
		serve("SendMessageBatch", sendBody)
		var got struct {
			Messages []struct{ ReceiptHandle string }
		}
		if err := json.Unmarshal(serve("ReceiveMessage", receiveBody), &got); err != nil || len(got.Messages) != 10 {
			b.Fatalf("received %d messages (%v)", len(got.Messages), err)
		}
		var del strings.Builder
		del.WriteString(`{"QueueUrl":"` + queue + `","Entries":[`)
		for i, m := range got.Messages {
			if i > 0 {
				del.WriteByte(',')
			}
			del.WriteString(`{"Id":"d` + strconv.Itoa(i) + `","ReceiptHandle":"` + m.ReceiptHandle + `"}`)
		}
		del.WriteString(`]}`)
		serve("DeleteMessageBatch", []byte(del.String()))
	}
}
