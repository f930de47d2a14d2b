package eventbridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/smithy-go"
	"github.com/gorilla/mux"

	gbeb "github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// t0 is where every test's virtual clock starts.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const (
	account = "123456789012"
	region  = "us-east-1"
)

// harness is GridBridge's EventBridge on a virtual clock behind a real HTTP
// server, with an SDK client pointed at it the way users point theirs.
type harness struct {
	t      testing.TB
	clock  *engine.VirtualClock
	engine *engine.Engine
	svc    *gbeb.Service
	server *httptest.Server
	client *ebsdk.Client
	sqs    gbeb.MemoryQueues
}

type harnessOption func(*gbeb.Config)

func newHarness(t testing.TB, opts ...harnessOption) *harness {
	t.Helper()
	clock := engine.NewVirtualClock(t0, 0)
	eng := engine.New(clock, engine.NewJournal(0))
	cfg := gbeb.Config{Engine: eng}
	for _, o := range opts {
		o(&cfg)
	}
	svc := gbeb.New(cfg)
	r := mux.NewRouter()
	svc.Register(r)
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	h := &harness{t: t, clock: clock, engine: eng, svc: svc, server: srv, sqs: svc.MemorySQS()}
	h.client = h.clientFor(account, region)
	return h
}

// clientFor returns an SDK client signing as accessKey in region: a
// twelve-digit access key id is the account GridBridge acts for.
func (h *harness) clientFor(accessKey, region string) *ebsdk.Client {
	return ebsdk.New(ebsdk.Options{
		BaseEndpoint: aws.String(h.server.URL),
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider(accessKey, "secret", ""),
		HTTPClient:   h.server.Client(),
		// Quota errors are LimitExceededException, which the SDK retries
		// with back-off; one attempt keeps the tests fast.
		RetryMaxAttempts: 1,
	})
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// apiError asserts err is an API error with code and, unless empty, message.
func apiError(t testing.TB, err error, code, message string) {
	t.Helper()
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("got %v, want %s", err, code)
	}
	if apiErr.ErrorCode() != code || (message != "" && apiErr.ErrorMessage() != message) {
		t.Fatalf("got %s: %q, want %s: %q", apiErr.ErrorCode(), apiErr.ErrorMessage(), code, message)
	}
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// rawResponse is an answer to a hand-made request.
type rawResponse struct {
	Status int
	Header http.Header
	Body   map[string]any
	Text   string
}

// raw sends body to operation op the way an unsigned client would.
func (h *harness) raw(op, body string, headers ...string) rawResponse {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.server.URL+"/", bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", "AWSEvents."+op)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := h.server.Client().Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	out := rawResponse{Status: resp.StatusCode, Header: resp.Header, Text: string(text)}
	_ = json.Unmarshal(text, &out.Body)
	return out
}

// settle lets every delivery already started finish.
func (h *harness) settle() { h.clock.Settle() }

// entries returns the journal entries of kind for the rule's routes.
func (h *harness) entries(kind string, labels map[string]string) []engine.Entry {
	return h.engine.Journal().Query(engine.Filter{Kind: kind, Labels: labels})
}
