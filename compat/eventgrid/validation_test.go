package eventgrid_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// An endpoint that fails the Event Grid handshake keeps the subscription
// from being created: the PUT fails with 400 "Url validation", as Azure's
// does, and nothing is stored.
func TestFailedHandshakeKeepsSubscriptionFromSucceeded(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.RejectValidation(http.StatusForbidden))
	_, err := h.topicSubs().BeginCreateOrUpdate(ctx(t), resourceGroup, "orders", "rejected",
		armeventgrid.EventSubscription{Properties: &armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL() + "?code=secret")}}, nil)
	status, code := responseErrorCode(t, err)
	if status != http.StatusBadRequest || code != "Url validation" {
		t.Fatalf("got %d %s, want 400 Url validation", status, code)
	}
	if strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "Webhook validation handshake failed for "+hook.URL()) {
		t.Fatalf("message should name the base URL only: %v", err)
	}
	_, err = h.topicSubs().Get(ctx(t), resourceGroup, "orders", "rejected", nil)
	if status, _ := responseErrorCode(t, err); status != http.StatusNotFound {
		t.Fatalf("rejected subscription exists: %d", status)
	}
}

// The CloudEvents handshake fails the same way when OPTIONS is refused.
func TestFailedAbuseProtectionHandshake(t *testing.T) {
	t.Parallel()
	h, hook := newTopicHarness(t, "ce-topic", armeventgrid.InputSchemaCloudEventSchemaV10, fakes.RejectValidation(http.StatusMethodNotAllowed))
	_, err := h.topicSubs().BeginCreateOrUpdate(ctx(t), resourceGroup, "ce-topic", "rejected",
		armeventgrid.EventSubscription{Properties: &armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())}}, nil)
	if status, code := responseErrorCode(t, err); status != http.StatusBadRequest || code != "Url validation" {
		t.Fatalf("got %d %s", status, code)
	}
}

// An endpoint that answers 200 without the code leaves the subscription
// AwaitingManualAction; opening the validationUrl (served by GridBridge
// over TLS) makes it Succeeded, and the SDK poller then finishes.
func TestManualValidation(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.ManualValidation())
	poller, err := h.topicSubs().BeginCreateOrUpdate(ctx(t), resourceGroup, "orders", "manual",
		armeventgrid.EventSubscription{Properties: &armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if poller.Done() {
		t.Fatal("the poller is done although validation is pending")
	}
	got, err := h.topicSubs().Get(ctx(t), resourceGroup, "orders", "manual", nil)
	if err != nil || *got.Properties.ProvisioningState != armeventgrid.EventSubscriptionProvisioningStateAwaitingManualAction {
		t.Fatalf("state %v, %v", got.Properties, err)
	}
	urls := hook.ValidationURLs()
	if len(urls) != 1 || !strings.HasPrefix(urls[0], h.tls.URL+"/eventsubscriptions/manual/validate?") {
		t.Fatalf("validation URLs %v", urls)
	}
	req, _ := http.NewRequest(http.MethodGet, urls[0], nil)
	if status, body := h.do(req); status != http.StatusOK {
		t.Fatalf("validation GET: %d %s", status, body)
	}
	if status, _ := h.do(req); status != http.StatusNotFound {
		t.Fatalf("a used validation URL answered %d, want 404", status)
	}
	res, err := poller.PollUntilDone(ctx(t), &runtime.PollUntilDoneOptions{Frequency: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if *res.Properties.ProvisioningState != armeventgrid.EventSubscriptionProvisioningStateSucceeded {
		t.Fatalf("state %s", *res.Properties.ProvisioningState)
	}
	h.publishOne("orders")
	if len(hook.Deliveries()) != 1 {
		t.Fatal("a manually validated subscription does not deliver")
	}
}

// Without the manual validation within 5 minutes of cloud time the
// subscription fails, and a failed subscription delivers nothing.
func TestManualValidationWindowExpires(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.ManualValidation())
	if _, err := h.topicSubs().BeginCreateOrUpdate(ctx(t), resourceGroup, "orders", "late",
		armeventgrid.EventSubscription{Properties: &armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())}}, nil); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(5 * time.Minute)
	got, err := h.topicSubs().Get(ctx(t), resourceGroup, "orders", "late", nil)
	if err != nil || *got.Properties.ProvisioningState != armeventgrid.EventSubscriptionProvisioningStateFailed {
		t.Fatalf("state %v, %v", got.Properties.ProvisioningState, err)
	}
	req, _ := http.NewRequest(http.MethodGet, hook.ValidationURLs()[0], nil)
	if status, _ := h.do(req); status != http.StatusNotFound {
		t.Fatalf("late validation answered %d", status)
	}
	h.publishOne("orders")
	if len(hook.Deliveries()) != 0 {
		t.Fatal("a failed subscription delivered")
	}
}

// With the X-GridBridge-Skip-Validation header (what the topology file
// sends for skipValidation), no handshake is sent and the subscription is
// Succeeded at once.
func TestSkipValidationHeader(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t, fakes.RejectValidation(http.StatusForbidden))
	skip := policy.WithHTTPHeader(ctx(t), http.Header{arm.HeaderSkipValidation: {"true"}})
	poller, err := h.topicSubs().BeginCreateOrUpdate(skip, resourceGroup, "orders", "unchecked",
		armeventgrid.EventSubscription{Properties: &armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())}}, nil)
	sub := facetest.Await(t, "create subscription unchecked", poller, err)
	if n := len(hook.Requests()); n != 0 {
		t.Fatalf("%d handshake requests, want none", n)
	}
	if got := *sub.Properties.ProvisioningState; got != armeventgrid.EventSubscriptionProvisioningStateSucceeded {
		t.Fatalf("provisioningState %s, want Succeeded", got)
	}
}
