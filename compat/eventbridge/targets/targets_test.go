package targets

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestKindOf(t *testing.T) {
	t.Parallel()
	cases := []struct {
		arn                  string
		kind                 Kind
		wellFormed, supports bool
	}{
		{"arn:aws:sqs:us-east-1:123456789012:q", SQS, true, true},
		{"arn:aws:events:us-east-1:123456789012:api-destination/d/uuid", APIDestination, true, true},
		{"arn:aws:events:us-east-1:123456789012:event-bus/b", EventBus, true, true},
		{"arn:aws:lambda:us-east-1:123456789012:function:f", Captured, true, true},
		{"arn:aws:states:us-east-1:123456789012:stateMachine:s", Captured, true, true},
		{"arn:aws:s3:::bucket", Captured, true, false},
		{"not-an-arn", Captured, false, false},
	}
	for _, c := range cases {
		k, wf, sup := KindOf(c.arn)
		if k != c.kind || wf != c.wellFormed || sup != c.supports {
			t.Errorf("%s: %v %v %v", c.arn, k, wf, sup)
		}
	}
}

func TestFillPathAndMergeBody(t *testing.T) {
	t.Parallel()
	if got := fillPath("https://h/a/*/b/*", []string{"x y", "z"}); got != "https://h/a/x%20y/b/z" {
		t.Errorf("fillPath: %s", got)
	}
	if got := string(mergeBody([]byte(`{"a":1}`), map[string]string{"a": "no", "b": "yes"})); got != `{"a":1,"b":"yes"}` {
		t.Errorf("mergeBody: %s", got)
	}
	if got := string(mergeBody([]byte(`"text"`), map[string]string{"b": "yes"})); got != `"text"` {
		t.Errorf("mergeBody of a non-object: %s", got)
	}
}

func TestInvokeClassifiesResponses(t *testing.T) {
	t.Parallel()
	status := 0
	retryAfterHeader := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		if retryAfterHeader != "" {
			w.Header().Set("Retry-After", retryAfterHeader)
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	hints := &Hints{}
	d := Invoke{Arn: "arn", Client: srv.Client(), Hints: hints,
		Resolve: func(string) (Endpoint, error) { return Endpoint{Method: "POST", URL: srv.URL}, nil }}
	cases := []struct {
		status     int
		retryAfter string
		code       string
		retryable  bool
	}{
		{500, "", retry.CodeErrorFromTarget, true},
		{429, "30", retry.CodeThrottling, true},
		{404, "", retry.CodeNoResource, false},
		{400, "", retry.CodeSDKClientError, false},
		{302, "", retry.CodeSDKClientError, false},
	}
	for _, c := range cases {
		status, retryAfterHeader = c.status, c.retryAfter
		b := &engine.Batch{Items: []*engine.Item{{ID: "e", Body: []byte(`{}`)}}}
		o := d.Deliver(context.Background(), &engine.Attempt{Batch: b})
		h, ok := hints.Take(b)
		if o.OK || o.Name != c.code || o.Status != c.status || !ok || h.Retryable != c.retryable {
			t.Errorf("%d: %+v hint %+v", c.status, o, h)
		}
		if c.retryAfter != "" && (!h.HasAfter || h.After.Seconds() != 30) {
			t.Errorf("Retry-After not passed on: %+v", h)
		}
	}
	status = 204
	if o := d.Deliver(context.Background(), &engine.Attempt{Batch: &engine.Batch{Items: []*engine.Item{{ID: "e"}}}}); !o.OK {
		t.Errorf("204: %+v", o)
	}
}
