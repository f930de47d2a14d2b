package sqs_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
)

// A web page can send GETs and form POSTs to any address; none that it can
// send changes a queue: every SQS request needs an AWS signature, which no
// page can add to a request for another origin. The SDKs' requests, which
// are signed, work as before.
func TestUnsignedRequestsAreRefused(t *testing.T) {
	h := startTest(t)
	queue := h.createQueue("signed-only", nil)
	deleteQueue := "/?" + url.Values{"Action": {"DeleteQueue"}, "QueueUrl": {queue}}.Encode()
	cases := []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
	}{
		{"GET with no signature (an <img>)", http.MethodGet, deleteQueue, "", nil, http.StatusForbidden},
		{"form POST with no signature", http.MethodPost, "/", "Action=DeleteQueue&QueueUrl=" + url.QueryEscape(queue),
			map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusForbidden},
		{"JSON protocol with no signature", http.MethodPost, "/", `{"QueueUrl":"` + queue + `"}`,
			map[string]string{"X-Amz-Target": "AmazonSQS.DeleteQueue", "Content-Type": "application/x-amz-json-1.0"}, http.StatusForbidden},
		{"a forged presigned URL from another site's page", http.MethodGet, deleteQueue + "&X-Amz-Signature=x", "",
			map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"a forged presigned URL from another local port's page", http.MethodGet, deleteQueue + "&X-Amz-Signature=x", "",
			map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"an unsigned body larger than any SQS request (refused before it is read)", http.MethodPost, "/",
			"Action=CreateQueue&QueueName=big&x=" + strings.Repeat("a", 5<<20),
			map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusForbidden},
		{"an Authorization header that is no AWS signature", http.MethodGet, deleteQueue, "",
			map[string]string{"Authorization": "Bearer x"}, http.StatusForbidden},
		{"a presigned URL from a client that is no browser", http.MethodGet,
			"/?" + url.Values{"Action": {"GetQueueUrl"}, "QueueName": {"signed-only"},
				"X-Amz-Algorithm": {"AWS4-HMAC-SHA256"}, "X-Amz-Credential": {account + "/20260301/" + region + "/sqs/aws4_request"}, "X-Amz-Signature": {"x"}}.Encode(), "", nil, http.StatusOK},
	}
	for _, c := range cases {
		req, err := http.NewRequestWithContext(ctx(t), c.method, h.Server.URL+c.path, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		resp, err := h.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s: HTTP %d %s, want %d", c.name, resp.StatusCode, body, c.status)
		}
		if c.status == http.StatusForbidden && !strings.Contains(string(body), "MissingAuthenticationToken") {
			t.Errorf("%s: %s, want AWS's MissingAuthenticationToken", c.name, body)
		}
	}
	// The queue is still there, and a signed request (the SDK's) is served.
	if _, err := h.client.GetQueueUrl(ctx(t), &sqssdk.GetQueueUrlInput{QueueName: aws.String("signed-only")}); err != nil {
		t.Fatalf("the queue after unsigned DeleteQueue attempts: %v", err)
	}
	req := h.rawRequest(t, http.MethodGet, deleteQueue, "")
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a signed GET DeleteQueue: HTTP %d, want 200", resp.StatusCode)
	}
}
