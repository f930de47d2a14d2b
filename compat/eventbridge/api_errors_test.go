package eventbridge_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestErrorShape checks what every client relies on: the code in both the
// X-Amzn-ErrorType header and the body's __type, the message under
// "message", a 400 status, and never a 5xx for bad input.
func TestErrorShape(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cases := []struct {
		name, op, body, code, message string
	}{
		{"unknown operation", "FlyToTheMoon", `{}`, "UnknownOperationException", ""},
		{"bad JSON", "PutRule", `{"Name":`, "SerializationException", ""},
		{"not an object", "PutRule", `[1,2]`, "SerializationException", ""},
		{"wrong member type", "PutRule", `{"Name":42}`, "SerializationException", ""},
		{"missing member", "PutRule", `{}`, "ValidationException",
			"1 validation error detected: Value null at 'name' failed to satisfy constraint: Member must not be null"},
		{"missing members", "PutTargets", `{}`, "ValidationException",
			"2 validation errors detected: Value null at 'rule' failed to satisfy constraint: Member must not be null; Value null at 'targets' failed to satisfy constraint: Member must not be null"},
		{"missing target arn", "PutTargets", `{"Rule":"r","Targets":[{"Id":"a"}]}`, "ValidationException",
			"1 validation error detected: Value null at 'targets.1.member.arn' failed to satisfy constraint: Member must not be null"},
		{"not found", "DescribeRule", `{"Name":"r"}`, "ResourceNotFoundException", "Rule r does not exist on EventBus default."},
		{"invalid pattern", "PutRule", `{"Name":"r","EventPattern":"this is not json"}`, "InvalidEventPatternException", ""},
		{"bad timestamp", "StartReplay", `{"EventStartTime":"yesterday"}`, "SerializationException", ""},
		{"null entry", "PutEvents", `{"Entries":[null]}`, "ValidationException", ""},
		{"bad limit", "ListEventBuses", `{"Limit":1000}`, "ValidationException",
			"1 validation error detected: Value '1000' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100"},
	}
	for _, tc := range cases {
		r := h.raw(tc.op, tc.body)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: status %d (%s)", tc.name, r.Status, r.Text)
			continue
		}
		if r.Header.Get("X-Amzn-ErrorType") != tc.code || r.Body["__type"] != tc.code {
			t.Errorf("%s: header %q, __type %v; want %s", tc.name, r.Header.Get("X-Amzn-ErrorType"), r.Body["__type"], tc.code)
		}
		if r.Header.Get("Content-Type") != "application/x-amz-json-1.1" || r.Header.Get("X-Amzn-RequestId") == "" {
			t.Errorf("%s: headers %v", tc.name, r.Header)
		}
		if tc.message != "" && r.Body["message"] != tc.message {
			t.Errorf("%s: message %q, want %q", tc.name, r.Body["message"], tc.message)
		}
	}
}

// TestLimitExceededOverRawHTTP checks the quota error once without the SDK's
// retries in the way.
func TestLimitExceededOverRawHTTP(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.raw("PutRule", `{"Name":"r","EventPattern":"{\"source\":[\"a\"]}"}`)
	targets := `{"Rule":"r","Targets":[`
	for i := range 6 {
		if i > 0 {
			targets += ","
		}
		targets += `{"Id":"t` + string(rune('0'+i)) + `","Arn":"arn:aws:sqs:us-east-1:000000000000:q"}`
	}
	r := h.raw("PutTargets", targets+`]}`)
	if r.Status != 400 || r.Body["__type"] != "LimitExceededException" || r.Body["message"] != "The requested resource exceeds the maximum number allowed." {
		t.Fatalf("6 targets: %d %s", r.Status, r.Text)
	}
}

// TestCallerFromSignature reads the account from a twelve-digit access key
// and the region from the SigV4 scope, or from X-Amz-Region-Set for SigV4a.
func TestCallerFromSignature(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sigv4 := "AWS4-HMAC-SHA256 Credential=111122223333/20260301/ap-south-1/events/aws4_request, SignedHeaders=host, Signature=abc"
	r := h.raw("DescribeEventBus", `{}`, "Authorization", sigv4)
	if r.Body["Arn"] != "arn:aws:events:ap-south-1:111122223333:event-bus/default" {
		t.Fatalf("SigV4: %s", r.Text)
	}
	sigv4a := "AWS4-ECDSA-P256-SHA256 Credential=111122223333/20260301/events/aws4_request, SignedHeaders=host, Signature=abc"
	r = h.raw("DescribeEventBus", `{}`, "Authorization", sigv4a, "X-Amz-Region-Set", "eu-central-1")
	if r.Body["Arn"] != "arn:aws:events:eu-central-1:111122223333:event-bus/default" {
		t.Fatalf("SigV4a: %s", r.Text)
	}
	r = h.raw("DescribeEventBus", `{}`, "Authorization", sigv4a, "X-Amz-Region-Set", "*")
	if r.Body["Arn"] != "arn:aws:events:us-east-1:111122223333:event-bus/default" {
		t.Fatalf("SigV4a with region set *: %s", r.Text)
	}
	r = h.raw("DescribeEventBus", ``)
	if r.Status != 200 || r.Body["Arn"] != "arn:aws:events:us-east-1:000000000000:event-bus/default" {
		t.Fatalf("unsigned, empty body: %d %s", r.Status, r.Text)
	}
}

// TestOtherTargetsAreNotServed checks the router leaves requests for other
// services alone.
func TestOtherTargetsAreNotServed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	req, _ := http.NewRequest(http.MethodPost, h.Server.URL+"/", strings.NewReader(`{}`))
	req.Header.Set("X-Amz-Target", "AWSStepFunctions.StartExecution")
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("a Step Functions request reached EventBridge: %d", resp.StatusCode)
	}
}
