package sqs_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// inspect mounts the face and its inspection routes as the emulator does
// (the inspection API under /_emulator) and returns GET path's answer.
func inspect(t *testing.T, svc *sqs.Service, path string) (int, map[string]any) {
	t.Helper()
	r := mux.NewRouter()
	svc.RegisterInspection(r.PathPrefix("/_emulator").Subrouter())
	svc.Register(r)
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

// D-SINKS: without an endpoint the inspection API lists GridBridge's own
// queues and what a face sent them.
func TestInspectionListsTheStoresQueues(t *testing.T) {
	t.Parallel()
	svc := sqs.New(sqs.Config{Clock: engine.NewVirtualClock(t0, 0)})
	const arn = "arn:aws:sqs:us-east-1:123456789012:orders"
	if err := svc.Queues().Send(context.Background(), sqssend.Message{QueueArn: arn, Body: []byte(`{"n":1}`)}); err != nil {
		t.Fatal(err)
	}
	if code, out := inspect(t, svc, "/_emulator/sqs"); code != http.StatusOK || len(out["queues"].([]any)) != 1 {
		t.Fatalf("GET /_emulator/sqs: %d %v", code, out)
	}
	code, out := inspect(t, svc, "/_emulator/sqs/messages?queue="+arn)
	if msgs, _ := out["messages"].([]any); code != http.StatusOK || len(msgs) != 1 || msgs[0].(map[string]any)["body"].(map[string]any)["n"] != 1.0 {
		t.Fatalf("GET /_emulator/sqs/messages: %d %v", code, out)
	}
}

// With --sqs-endpoint the queues are that server's: GridBridge serves no
// SQS API, and the inspection API says where to read them.
func TestWithAnEndpointTheQueuesAreThatServers(t *testing.T) {
	t.Parallel()
	svc := sqs.New(sqs.Config{Clock: engine.NewVirtualClock(t0, 0), Endpoint: "http://127.0.0.1:9324"})
	if svc.Store() != nil {
		t.Fatal("a store beside an endpoint")
	}
	for _, path := range []string{"/_emulator/sqs", "/_emulator/sqs/messages?queue=arn:aws:sqs:us-east-1:123456789012:q"} {
		code, out := inspect(t, svc, path)
		e, _ := out["error"].(map[string]any)
		if msg, _ := e["message"].(string); code != http.StatusConflict || !strings.Contains(msg, "http://127.0.0.1:9324") {
			t.Errorf("GET %s: %d %v, want 409 naming the endpoint", path, code, out)
		}
	}
	r := mux.NewRouter()
	svc.Register(r)
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{}`))
	req.Header.Set("X-Amz-Target", "AmazonSQS.ListQueues")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound {
		t.Fatalf("the SQS API answered %d with an endpoint set", rec.Code)
	}
}
