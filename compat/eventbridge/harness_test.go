package eventbridge_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"

	gbeb "github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// t0 is where every test's virtual clock starts; the SDK client signs as
// account in region.
var t0 = facetest.AWSStart

const account, region = facetest.AWSAccount, facetest.AWSRegion

// harness is GridBridge's EventBridge on a virtual clock behind a real HTTP
// server, with an SDK client pointed at it the way users point theirs. Its
// SQS targets and dead-letter queues write to GridBridge's own SQS (sqs),
// as the emulator's do without --sqs-endpoint.
type harness struct {
	*facetest.AWSFace
	svc    *gbeb.Service
	client *ebsdk.Client
	sqs    *sqs.Store // nil with an SQS endpoint
}

// harnessOption sets a server option the test needs: the faces' Config,
// and the SQS face's (--sqs-endpoint).
type harnessOption func(eb *gbeb.Config, queues *sqs.Config)

func newHarness(t testing.TB, opts ...harnessOption) *harness {
	t.Helper()
	h := &harness{}
	h.AWSFace = facetest.NewAWSFace(t, func(env *facetest.Env) {
		var cfg gbeb.Config
		queuesCfg := sqs.Config{Clock: env.Clock}
		for _, o := range opts {
			o(&cfg, &queuesCfg)
		}
		queues := sqs.New(queuesCfg)
		h.sqs = queues.Store()
		cfg.Engine, cfg.SQS = env.Engine, queues.Queues()
		h.svc = gbeb.New(cfg)
		h.svc.Register(env.Router)
		// The SQS API beside it, as the binary serves both.
		queues.Register(env.Router)
	})
	h.client = h.clientFor(account, region)
	return h
}

// clientFor returns an SDK client signing as accessKey in region: a
// twelve-digit access key id is the account GridBridge acts for.
func (h *harness) clientFor(accessKey, region string) *ebsdk.Client {
	return ebsdk.New(facetest.EventBridgeOptions(h.Server.URL, accessKey, region, h.Server.Client()))
}

// sqsClient is an SQS SDK client of the harness's own SQS.
func (h *harness) sqsClient() *sqssdk.Client {
	return sqssdk.NewFromConfig(h.Config(account, region))
}

func ctx(t testing.TB) context.Context { return facetest.Context(t) }

// startTest marks the test parallel and gives it a harness and the context
// its calls run in: how most tests begin.
func startTest(t *testing.T) (*harness, context.Context) {
	t.Parallel()
	return newHarness(t), ctx(t)
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
	h.T.Helper()
	req, err := facetest.AWSJSONRequest(h.Server.URL, "AWSEvents."+op, []byte(body))
	if err != nil {
		h.T.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp := facetest.Do(h.T, h.Server.Client(), req)
	out := rawResponse{Status: resp.Status, Header: resp.Header, Text: string(resp.Body)}
	_ = json.Unmarshal(resp.Body, &out.Body)
	return out
}

// settle lets every delivery already started finish.
func (h *harness) settle() { h.Clock.Settle() }

// entries returns the journal entries of kind for the rule's routes.
func (h *harness) entries(kind string, labels map[string]string) []engine.Entry {
	return h.Engine.Journal().Query(engine.Filter{Kind: kind, Labels: labels})
}

// apiError asserts err is an API error with code and, unless empty, message.
func apiError(t testing.TB, err error, code, message string) {
	t.Helper()
	facetest.WantAPIError(t, err, code, message)
}
