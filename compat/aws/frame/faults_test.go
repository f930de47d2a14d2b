package frame_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/frame"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// The frame finds a request's operation in each AWS protocol — the JSON
// protocols' X-Amz-Target, the query protocol's Action in the body or the
// URL, a REST API's Operation — and its service in the signature's
// credential scope; a fault answers through the API's Injected error,
// and a request the faults do not name is served.
func TestFaultsMatchTheOperationInEveryProtocol(t *testing.T) {
	t.Parallel()
	clock := engine.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 0)
	journal := engine.NewJournal(100)
	faults := engine.NewAPIFaults(clock, journal)
	api := testAPI(nil)
	api.MaxBody = 1 << 10
	api.Injected = func(code string, status int, msg string) error { return fmt.Errorf("%s %d: %s", code, status, msg) }
	api.Operation = func(r *http.Request) string { return r.Header.Get("Test-Operation") }
	h := api.Handler(func(w http.ResponseWriter, _ frame.Request) error { _, _ = w.Write([]byte("served")); return nil })
	signed := func(service string) string {
		return "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/" + service + "/aws4_request, SignedHeaders=host, Signature=00"
	}
	for _, c := range []struct {
		name, service, body string
		header              map[string]string
		url                 string
		want                string
	}{
		{"json target", "sqs", ``, map[string]string{"X-Amz-Target": "AmazonSQS.ReceiveMessage"}, "/", "InternalError 500"},
		{"query body", "sqs", `Action=ReceiveMessage&QueueUrl=q`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "/", "InternalError 500"},
		{"query url", "sqs", ``, nil, "/?Action=ReceiveMessage", "InternalError 500"},
		{"rest", "sqs", ``, map[string]string{"Test-Operation": "ReceiveMessage"}, "/", "InternalError 500"},
		{"another operation", "sqs", ``, map[string]string{"X-Amz-Target": "AmazonSQS.SendMessage"}, "/", "served"},
		{"another service", "events", ``, map[string]string{"X-Amz-Target": "AWSEvents.ReceiveMessage"}, "/", "served"},
		{"unsigned", "", ``, map[string]string{"X-Amz-Target": "AmazonSQS.ReceiveMessage"}, "/", "served"},
	} {
		faults.Clear()
		faults.Add(engine.APIFault{Service: "sqs", Operation: "receivemessage", Error: "InternalError", Status: 500, Count: 1})
		req := httptest.NewRequest(http.MethodPost, c.url, strings.NewReader(c.body))
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		if c.service != "" {
			req.Header.Set("Authorization", signed(c.service))
		}
		req = req.WithContext(engine.WithAPIFaults(req.Context(), faults))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Body.String(); !strings.Contains(got, c.want) {
			t.Errorf("%s: answered %q, want %q", c.name, got, c.want)
		}
	}
	entries := journal.Query(engine.Filter{Kind: engine.KindAPIFault})
	if len(entries) != 4 || entries[0].Labels["operation"] != "ReceiveMessage" || entries[0].Outcome != "InternalError" || entries[0].Status != 500 {
		t.Fatalf("journalled %d API faults: %+v", len(entries), entries)
	}
	if len(faults.List()) != 1 {
		t.Fatalf("the last fault, unused, is gone")
	}
}

// BenchmarkFrameWithNoFaultInForce is what API faults cost a request when
// none is in force (the emulator puts the set on every request), beside
// the same request with no set at all.
func BenchmarkFrameWithNoFaultInForce(b *testing.B) {
	api := testAPI(nil)
	api.MaxBody = 1 << 10
	api.Injected = func(code string, status int, msg string) error { return errors.New(code) }
	h := api.Handler(func(http.ResponseWriter, frame.Request) error { return nil })
	faults := engine.NewAPIFaults(engine.NewVirtualClock(time.Now(), 0), engine.NewJournal(10))
	for _, c := range []struct {
		name   string
		faults *engine.APIFaults
	}{{"baseline-no-set", nil}, {"set-with-none", faults}} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodPost, "/", nil)
			req.Header.Set("X-Amz-Target", "AWSEvents.PutEvents")
			req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/events/aws4_request, SignedHeaders=host, Signature=00")
			if c.faults != nil {
				req = req.WithContext(engine.WithAPIFaults(req.Context(), c.faults))
			}
			rec := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				req.Body = http.NoBody
				h.ServeHTTP(rec, req)
			}
		})
	}
}
