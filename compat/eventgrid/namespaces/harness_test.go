package namespaces_test

import (
	"context"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
	"github.com/gridbridge/gridbridge/testkit"
)

// start is the virtual clock's starting time: dead-letter paths under it
// read 2026/3/1/10 (NS-6, not zero-padded).
var start = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// The ARM scope every test creates its resources in.
const subscriptionID, resourceGroup = facetest.SubscriptionID, facetest.ResourceGroup

// harness is one emulator's Event Grid: the engine on a virtual clock, the
// face built as the binary builds it (eventgrid.NewFace, jitter and
// probation off) on a gorilla/mux router behind a TLS test server, and
// official SDK clients. With no storage account, dead letters go to sink,
// the in-memory default.
type harness struct {
	env     *facetest.Env
	clock   *engine.VirtualClock
	engine  *engine.Engine
	journal *engine.Journal
	face    *eventgrid.Face
	sink    *engine.MemorySink
	srv     *httptest.Server
	roots   *x509.CertPool
	arm     *armeventgrid.ClientFactory
	armReqs *requestCounter
}

// newHarness starts a harness; storage are the connection strings the
// binary takes with --azure-storage.
func newHarness(t testing.TB, storage ...string) *harness {
	env := facetest.New(t, facetest.Options{Start: start, Settle: 5 * time.Second})
	env.Router.SkipClean(true)
	srv := env.ServeTLS(t)
	sink := engine.NewMemorySink()
	face, err := eventgrid.NewFace(eventgrid.FaceConfig{
		Engine:           env.Engine,
		PublicTLSBaseURL: func() string { return srv.URL },
		HTTPClient:       srv.Client(),
		AzureStorage:     storage,
		MemorySink:       sink,
	})
	if err != nil {
		t.Fatal(err)
	}
	face.Register(env.Router)
	t.Cleanup(face.Close)
	t.Cleanup(face.Reset)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())

	counter := &requestCounter{next: srv.Client()}
	factory := facetest.ARMFactory(t, srv.URL, counter)
	return &harness{env: env, clock: env.Clock, engine: env.Engine, journal: env.Journal, face: face, sink: sink,
		srv: srv, roots: roots, arm: factory, armReqs: counter}
}

// queueMetrics are the counters of p's Queue subscription, from the
// face's metrics as GET /_emulator/metrics lists them.
func (h *harness) queueMetrics(t testing.TB, p pullSetup) namespaces.QueueMetrics {
	t.Helper()
	for _, m := range h.face.QueueMetrics() {
		if m.Labels["namespace"] == p.ns.name && m.Labels["topic"] == p.topic && m.Labels["subscription"] == p.sub {
			return m
		}
	}
	t.Fatalf("no queue metrics for %s/%s/%s", p.ns.name, p.topic, p.sub)
	return namespaces.QueueMetrics{}
}

// fakeCredential hands out a token that never expires; GridBridge accepts
// any bearer token.
type fakeCredential = facetest.Credential

// requestCounter counts ARM requests, to check that every Begin… finishes
// after one request.
type requestCounter struct {
	next *http.Client
	mu   sync.Mutex
	n    int
}

func (c *requestCounter) Do(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.next.Do(req)
}

func (c *requestCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func uniqueName(prefix string) string { return facetest.UniqueName(prefix) }

// namespace is a created namespace as a test uses it.
type namespace struct {
	name     string
	hostname string
	key      string
}

func (h *harness) createNamespace(t testing.TB, name string) namespace {
	t.Helper()
	nsClient := h.arm.NewNamespacesClient()
	poller, err := nsClient.BeginCreateOrUpdate(facetest.Context(t), resourceGroup, name, armeventgrid.Namespace{
		Location: to.Ptr("westus"), SKU: &armeventgrid.NamespaceSKU{Name: to.Ptr(armeventgrid.SKUNameStandard), Capacity: to.Ptr[int32](1)},
	}, nil)
	res := facetest.Await(t, "create namespace "+name, poller, err)
	keys, err := nsClient.ListSharedAccessKeys(facetest.Context(t), resourceGroup, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return namespace{name: name, hostname: *res.Properties.TopicsConfiguration.Hostname, key: *keys.Key1}
}

func (h *harness) createTopic(t testing.TB, ns, topic string) {
	t.Helper()
	poller, err := h.arm.NewNamespaceTopicsClient().BeginCreateOrUpdate(facetest.Context(t), resourceGroup, ns, topic, armeventgrid.NamespaceTopic{
		Properties: &armeventgrid.NamespaceTopicProperties{
			InputSchema:   to.Ptr(armeventgrid.EventInputSchemaCloudEventSchemaV10),
			PublisherType: to.Ptr(armeventgrid.PublisherTypeCustom),
		},
	}, nil)
	facetest.Await(t, "create topic "+topic, poller, err)
}

func (h *harness) createSubscription(t testing.TB, ns, topic, sub string, props armeventgrid.SubscriptionProperties) armeventgrid.Subscription {
	t.Helper()
	poller, err := h.arm.NewNamespaceTopicEventSubscriptionsClient().BeginCreateOrUpdate(facetest.Context(t), resourceGroup, ns, topic, sub,
		armeventgrid.Subscription{Properties: &props}, nil)
	return facetest.Await(t, "create subscription "+sub, poller, err).Subscription
}

// trySubscription creates a subscription and returns ARM's error instead
// of failing the test.
func (h *harness) trySubscription(ns, topic, sub string, props armeventgrid.SubscriptionProperties) (armeventgrid.Subscription, error) {
	ctx := context.Background()
	poller, err := h.arm.NewNamespaceTopicEventSubscriptionsClient().BeginCreateOrUpdate(ctx, resourceGroup, ns, topic, sub,
		armeventgrid.Subscription{Properties: &props}, nil)
	if err != nil {
		return armeventgrid.Subscription{}, err
	}
	res, err := poller.PollUntilDone(ctx, nil)
	return res.Subscription, err
}

// queueProps is a Queue-mode subscription; dl may be nil.
func queueProps(lockSeconds, maxDeliveries int32, ttl string, dl *armeventgrid.DeadLetterWithResourceIdentity) armeventgrid.SubscriptionProperties {
	q := &armeventgrid.QueueInfo{
		ReceiveLockDurationInSeconds: to.Ptr(lockSeconds), MaxDeliveryCount: to.Ptr(maxDeliveries),
		DeadLetterDestinationWithResourceIdentity: dl,
	}
	if ttl != "" {
		q.EventTimeToLive = to.Ptr(ttl)
	}
	return armeventgrid.SubscriptionProperties{
		EventDeliverySchema: to.Ptr(armeventgrid.DeliverySchemaCloudEventSchemaV10),
		DeliveryConfiguration: &armeventgrid.DeliveryConfiguration{
			DeliveryMode: to.Ptr(armeventgrid.DeliveryModeQueue), Queue: q,
		},
	}
}

// blobDeadLetter is a dead-letter destination in account/container.
func blobDeadLetter(account, container string) *armeventgrid.DeadLetterWithResourceIdentity {
	return &armeventgrid.DeadLetterWithResourceIdentity{
		Identity: &armeventgrid.EventSubscriptionIdentity{Type: to.Ptr(armeventgrid.EventSubscriptionIdentityTypeSystemAssigned)},
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				BlobContainerName: to.Ptr(container),
				ResourceID:        to.Ptr("/subscriptions/" + subscriptionID + "/resourceGroups/" + resourceGroup + "/providers/Microsoft.Storage/storageAccounts/" + account),
			},
		},
	}
}

func (h *harness) sender(t testing.TB, ns namespace, topic string) *aznamespaces.SenderClient {
	t.Helper()
	c, err := testkit.NewNamespaceSender(testkit.NamespaceClientOptions{Endpoint: namespaces.Endpoint(ns.hostname), Key: ns.key, RootCAs: h.roots}, topic)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (h *harness) receiver(t testing.TB, ns namespace, topic, sub string) *aznamespaces.ReceiverClient {
	t.Helper()
	c, err := testkit.NewNamespaceReceiver(testkit.NamespaceClientOptions{Endpoint: namespaces.Endpoint(ns.hostname), Key: ns.key, RootCAs: h.roots}, topic, sub)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newNamespaceHarness is the start most ARM tests share: a harness with an
// in-memory dead-letter sink and one namespace of its own.
func newNamespaceHarness(t testing.TB) (*harness, namespace) {
	t.Helper()
	h := newHarness(t)
	return h, h.createNamespace(t, uniqueName("ns-"))
}

// newQueueHarness is the start most pull tests share: a harness with an
// in-memory dead-letter sink and one Queue subscription with a 60-second
// lock, 10 deliveries and no dead-letter destination.
func newQueueHarness(t testing.TB) (*harness, pullSetup) {
	t.Helper()
	h := newHarness(t)
	return h, h.pull(t, queueProps(60, 10, "", nil))
}

// pullSetup is a namespace, a topic and one subscription on it, with the
// clients a test sends and (for a Queue subscription) receives with.
type pullSetup struct {
	ns       namespace
	topic    string
	sub      string
	sender   *aznamespaces.SenderClient
	receiver *aznamespaces.ReceiverClient
}

func (h *harness) pull(t testing.TB, props armeventgrid.SubscriptionProperties) pullSetup {
	t.Helper()
	p := h.subscribed(t, "billing", props)
	p.receiver = h.receiver(t, p.ns, p.topic, p.sub)
	return p
}

// subscribed creates a namespace, its topic "orders" and the subscription
// sub on it, and a sender for the topic; pull and push tests both start so.
func (h *harness) subscribed(t testing.TB, sub string, props armeventgrid.SubscriptionProperties) pullSetup {
	t.Helper()
	ns := h.createNamespace(t, uniqueName("ns-"))
	p := pullSetup{ns: ns, topic: "orders", sub: sub}
	h.createTopic(t, ns.name, p.topic)
	h.createSubscription(t, ns.name, p.topic, p.sub, props)
	p.sender = h.sender(t, ns, p.topic)
	return p
}

// send publishes ev to the setup's topic and returns it.
func (p pullSetup) send(t testing.TB, ev messaging.CloudEvent) messaging.CloudEvent {
	t.Helper()
	if _, err := p.sender.SendEvent(context.Background(), &ev, nil); err != nil {
		t.Fatal(err)
	}
	return ev
}

// rejectNext receives the next available event and rejects it.
func (p pullSetup) rejectNext(t testing.TB) {
	t.Helper()
	tok := *receiveNow(t, p.receiver, 1)[0].BrokerProperties.LockToken
	if _, err := p.receiver.RejectEvents(context.Background(), []string{tok}, nil); err != nil {
		t.Fatal(err)
	}
}

// receiveNow receives what is already available; the 10 s wait only runs
// out when nothing is.
func receiveNow(t testing.TB, r *aznamespaces.ReceiverClient, max int32) []aznamespaces.ReceiveDetails {
	t.Helper()
	resp, err := r.ReceiveEvents(context.Background(), &aznamespaces.ReceiveEventsOptions{MaxEvents: to.Ptr(max), MaxWaitTime: to.Ptr[int32](10)})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Details
}

// waitJournal waits (on journal appends, not on time) until f matches n
// entries, and returns them.
func (h *harness) waitJournal(t testing.TB, f engine.Filter, n int) []engine.Entry {
	t.Helper()
	return h.env.WaitCount(t, f, n)
}

// rawRequest sends a hand-made data-plane or ARM request to the TLS server.
func (h *harness) rawRequest(t testing.TB, method, path string, header http.Header, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, h.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func dataPath(ns, rest string) string { return namespaces.DataPlanePrefix + ns + rest }

func keyHeader(key string) http.Header {
	return http.Header{"Authorization": {"SharedAccessKey " + key}}
}
