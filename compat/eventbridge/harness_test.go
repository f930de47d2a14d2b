package eventbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/smithy-go"

	gbeb "github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
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
	env := facetest.New(t, facetest.Options{Start: t0})
	cfg := gbeb.Config{Engine: env.Engine}
	for _, o := range opts {
		o(&cfg)
	}
	svc := gbeb.New(cfg)
	svc.Register(env.Router)
	h := &harness{t: t, clock: env.Clock, engine: env.Engine, svc: svc, server: env.ServeHTTP(t), sqs: svc.MemorySQS()}
	h.client = h.clientFor(account, region)
	return h
}

// clientFor returns an SDK client signing as accessKey in region: a
// twelve-digit access key id is the account GridBridge acts for.
func (h *harness) clientFor(accessKey, region string) *ebsdk.Client {
	return ebsdk.New(facetest.EventBridgeOptions(h.server.URL, accessKey, region, h.server.Client()))
}

func ctx(t testing.TB) context.Context { return facetest.Context(t) }

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

func must[T any](t testing.TB) func(T, error) T { return facetest.Must[T](t) }

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
	req, err := facetest.AWSJSONRequest(h.server.URL, "AWSEvents."+op, []byte(body))
	if err != nil {
		h.t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp := facetest.Do(h.t, h.server.Client(), req)
	out := rawResponse{Status: resp.Status, Header: resp.Header, Text: string(resp.Body)}
	_ = json.Unmarshal(resp.Body, &out.Body)
	return out
}

// settle lets every delivery already started finish.
func (h *harness) settle() { h.clock.Settle() }

// entries returns the journal entries of kind for the rule's routes.
func (h *harness) entries(kind string, labels map[string]string) []engine.Entry {
	return h.engine.Journal().Query(engine.Filter{Kind: kind, Labels: labels})
}
