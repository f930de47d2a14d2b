package eventgrid_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// start is the cloud time every harness begins at.
var start = time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC)

// The ARM scope every test creates its resources in.
const subscriptionID, resourceGroup = facetest.SubscriptionID, facetest.ResourceGroup

// harness is GridBridge's Event Grid face, built as the emulator builds it
// (NewFace, jitter and probation off as --no-jitter and --no-probation
// turn them off), on a virtual clock: the publish endpoint on an httptest
// TLS server, ARM on a plain HTTP one, and the official SDK clients
// pointed at them. Dead letters go to sink, the in-memory default.
type harness struct {
	t       *testing.T
	env     *facetest.Env
	clock   *engine.VirtualClock
	engine  *engine.Engine
	face    *eventgrid.Face
	sink    *engine.MemorySink
	tls     *httptest.Server
	armSrv  *httptest.Server
	factory *armeventgrid.ClientFactory
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessSettling(t, 0)
}

// newHarnessSettling sets how long the virtual clock waits, in real time,
// for a delivery blocked outside the emulator before it moves on (a test
// with a webhook that never answers keeps it short).
func newHarnessSettling(t *testing.T, settle time.Duration) *harness {
	t.Helper()
	env := facetest.New(t, facetest.Options{Start: start, Settle: settle})
	h := &harness{t: t, env: env, clock: env.Clock, engine: env.Engine, sink: engine.NewMemorySink(),
		tls: env.ServeTLS(t), armSrv: env.ServeHTTP(t)}
	face, err := eventgrid.NewFace(eventgrid.FaceConfig{
		Engine:           h.engine,
		PublicTLSBaseURL: func() string { return h.tls.URL },
		// httptest TLS servers share one certificate, so this client
		// trusts every fake webhook started with fakes.TLS().
		HTTPClient: h.tls.Client(),
		MemorySink: h.sink,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.face = face
	face.Register(env.Router)
	t.Cleanup(face.Close)
	h.factory = facetest.ARMFactory(t, h.armSrv.URL, nil)
	return h
}

// fakeCredential hands out a token that never expires; GridBridge accepts
// any bearer token.
type fakeCredential = facetest.Credential

func ctx(t *testing.T) context.Context { return facetest.Context(t) }

func (h *harness) topics() *armeventgrid.TopicsClient { return h.factory.NewTopicsClient() }
func (h *harness) topicSubs() *armeventgrid.TopicEventSubscriptionsClient {
	return h.factory.NewTopicEventSubscriptionsClient()
}
func (h *harness) eventSubs() *armeventgrid.EventSubscriptionsClient {
	return h.factory.NewEventSubscriptionsClient()
}

func topicID(name string) string {
	return "/subscriptions/" + subscriptionID + "/resourceGroups/" + resourceGroup + "/providers/Microsoft.EventGrid/topics/" + name
}

// createTopic creates a topic with the given input schema (and mapping).
func (h *harness) createTopic(name string, schema armeventgrid.InputSchema, mapping armeventgrid.InputSchemaMappingClassification) armeventgrid.Topic {
	h.t.Helper()
	poller, err := h.topics().BeginCreateOrUpdate(ctx(h.t), resourceGroup, name, armeventgrid.Topic{
		Location:   to.Ptr("westus2"),
		Properties: &armeventgrid.TopicProperties{InputSchema: to.Ptr(schema), InputSchemaMapping: mapping},
	}, nil)
	return facetest.Await(h.t, "create topic "+name, poller, err).Topic
}

// webhook is a WebHook destination.
func webhook(url string) *armeventgrid.WebHookEventSubscriptionDestination {
	return &armeventgrid.WebHookEventSubscriptionDestination{
		EndpointType: to.Ptr(armeventgrid.EndpointTypeWebHook),
		Properties:   &armeventgrid.WebHookEventSubscriptionDestinationProperties{EndpointURL: to.Ptr(url)},
	}
}

// subscribe creates a topic event subscription (nested form) and waits
// for it to finish provisioning.
func (h *harness) subscribe(topic, name string, props armeventgrid.EventSubscriptionProperties) armeventgrid.EventSubscription {
	h.t.Helper()
	poller, err := h.topicSubs().BeginCreateOrUpdate(ctx(h.t), resourceGroup, topic, name,
		armeventgrid.EventSubscription{Properties: &props}, nil)
	return facetest.Await(h.t, "create subscription "+name, poller, err).EventSubscription
}

func (h *harness) keys(topic string) (string, string) {
	h.t.Helper()
	res, err := h.topics().ListSharedAccessKeys(ctx(h.t), resourceGroup, topic, nil)
	if err != nil {
		h.t.Fatalf("listKeys %s: %v", topic, err)
	}
	return *res.Key1, *res.Key2
}

func (h *harness) endpoint(topic string) string {
	return h.tls.URL + "/topics/" + topic + "/api/events"
}

func (h *harness) dataPlaneOptions() *azeventgrid.ClientOptions {
	return &azeventgrid.ClientOptions{ClientOptions: facetest.DataPlaneOptions(h.tls.Client())}
}

// publisher is an azeventgrid client authenticated with key1.
func (h *harness) publisher(topic string) *azeventgrid.Client {
	h.t.Helper()
	key, _ := h.keys(topic)
	c, err := azeventgrid.NewClientWithSharedKeyCredential(h.endpoint(topic), azcore.NewKeyCredential(key), h.dataPlaneOptions())
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// post sends a raw publish request with key1 and returns status and body.
func (h *harness) post(topic, contentType, body string, header ...string) (int, string) {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.endpoint(topic)+"?api-version=2018-01-01", strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if key, _ := h.keysIfExists(topic); key != "" {
		req.Header.Set("aeg-sas-key", key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	return h.do(req)
}

func (h *harness) keysIfExists(topic string) (string, string) {
	res, err := h.topics().ListSharedAccessKeys(ctx(h.t), resourceGroup, topic, nil)
	if err != nil {
		return "", ""
	}
	return *res.Key1, *res.Key2
}

func (h *harness) do(req *http.Request) (int, string) {
	h.t.Helper()
	resp := facetest.Do(h.t, h.tls.Client(), req)
	return resp.Status, string(resp.Body)
}

// attempts returns the journal's delivery attempts of one subscription.
func (h *harness) attempts(sub string) []engine.Entry {
	return h.engine.Journal().Query(attemptsOf(sub))
}

// waitAttempts waits until one subscription has n attempts journalled: an
// advance does not wait out an endpoint slower than the clock's answer wait.
func (h *harness) waitAttempts(sub string, n int) []engine.Entry {
	h.t.Helper()
	return h.env.WaitCount(h.t, attemptsOf(sub), n)
}

func attemptsOf(sub string) engine.Filter {
	return engine.Filter{Kind: engine.KindAttempt, Labels: map[string]string{"subscription": sub}}
}

func (h *harness) entries(kind, sub string) []engine.Entry {
	f := engine.Filter{Kind: kind}
	if sub != "" {
		f.Labels = map[string]string{"subscription": sub}
	}
	return h.engine.Journal().Query(f)
}

// settle waits until every delivery the clock started has finished.
func (h *harness) settle() { h.clock.Settle() }

func newHook(t *testing.T, h *harness, opts ...fakes.Option) *fakes.Webhook {
	return fakes.NewWebhook(t, append([]fakes.Option{fakes.WithClock(h.clock.Now)}, opts...)...)
}

// newOrdersHarness is the start most tests share: a harness, a webhook on
// its clock (with opts) and the topic "orders" in the Event Grid schema.
func newOrdersHarness(t *testing.T, opts ...fakes.Option) (*harness, *fakes.Webhook) {
	t.Helper()
	return newTopicHarness(t, "orders", armeventgrid.InputSchemaEventGridSchema, opts...)
}

// newTopicHarness is a harness, a webhook on its clock (with opts) and
// one topic with the given input schema.
func newTopicHarness(t *testing.T, topic string, schema armeventgrid.InputSchema, opts ...fakes.Option) (*harness, *fakes.Webhook) {
	t.Helper()
	h := newHarness(t)
	hook := newHook(t, h, opts...)
	h.createTopic(topic, schema, nil)
	return h, hook
}

func responseErrorCode(t *testing.T, err error) (int, string) {
	t.Helper()
	return facetest.ResponseError(t, err)
}
