package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// Both ways a user runs the emulator get the same test.
func TestEventGridFlowInProcess(t *testing.T) {
	t.Parallel()
	eventGridFlow(t, testkit.Start(t))
}

func TestEventGridFlowAgainstBinaryOverHTTPS(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	eventGridFlow(t, testkit.Connect(t, proc.Endpoints["http"]))
}

// eventGridFlow: create topic → listKeys → webhook subscription (handshake
// seen by the fake) → publish → 503, 503, 200 at the EG-7/EG-8 times →
// wrong key 401 → delete, then 404.
func eventGridFlow(t *testing.T, emu *testkit.Emulator) {
	ctx := context.Background()
	hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(503), fakes.Status(503), fakes.Status(200)))
	topic := emu.CreateTopic("orders", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	if got := *topic.Properties.ProvisioningState; got != armeventgrid.TopicProvisioningStateSucceeded {
		t.Fatalf("topic provisioningState = %s", got)
	}
	if !strings.HasPrefix(*topic.Properties.Endpoint, "https://") {
		t.Fatalf("topic endpoint %q is not https", *topic.Properties.Endpoint)
	}

	subs := emu.ARM().NewEventSubscriptionsClient()
	poller, err := subs.BeginCreateOrUpdate(ctx, *topic.ID, "audit", armeventgrid.EventSubscription{
		Properties: &armeventgrid.EventSubscriptionProperties{
			Destination: &armeventgrid.WebHookEventSubscriptionDestination{
				EndpointType: to.Ptr(armeventgrid.EndpointTypeWebHook),
				Properties:   &armeventgrid.WebHookEventSubscriptionDestinationProperties{EndpointURL: to.Ptr(hook.URL())},
			},
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := poller.PollUntilDone(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if n := countKind(hook.Requests(), fakes.KindValidation); n != 1 {
		t.Fatalf("the fake saw %d validation handshakes, want 1", n)
	}

	start := emu.Now()
	publisher := emu.EventGridPublisher("orders")
	_, err = publisher.PublishEvents(ctx, []azeventgrid.Event{{
		ID: to.Ptr("order-1"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(start), Data: map[string]any{"total": 42},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}

	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit", Outcome: "Busy"}, 1)
	// EG-8 schedules retries 10 s then 30 s after a failure, but a 503 is
	// retried no sooner than 30 s (EG-7): +30 s, then +60 s.
	emu.Advance(29 * time.Second)
	if n := len(emu.Deliveries(testkit.Filter{Subscription: "audit"})); n != 1 {
		t.Fatalf("%d attempts before the 30 s floor of a 503 passed", n)
	}
	emu.Advance(31 * time.Second)
	attempts := emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 3)
	wantAt := []time.Duration{0, 30 * time.Second, 60 * time.Second}
	wantOutcome := []string{"Busy", "Busy", "Success"}
	for i, a := range attempts {
		if a.Time.Sub(start) != wantAt[i] || a.Outcome != wantOutcome[i] {
			t.Errorf("attempt %d: +%v %s, want +%v %s", i+1, a.Time.Sub(start), a.Outcome, wantAt[i], wantOutcome[i])
		}
	}

	deliveries := hook.Deliveries()
	if len(deliveries) != 3 {
		t.Fatalf("the fake got %d deliveries, want 3", len(deliveries))
	}
	last := deliveries[2]
	if got := last.Header.Get("aeg-event-type"); got != "Notification" {
		t.Errorf("aeg-event-type = %q", got)
	}
	if got := last.Header.Get("aeg-subscription-name"); got != "AUDIT" {
		t.Errorf("aeg-subscription-name = %q", got)
	}
	if got := last.Header.Get("aeg-delivery-count"); got != "2" {
		t.Errorf("aeg-delivery-count = %q, want 2 on the third attempt", got)
	}
	var body []map[string]any
	if err := json.Unmarshal(last.Body, &body); err != nil || len(body) != 1 {
		t.Fatalf("body %s is not an array of one event (EG-2): %v", last.Body, err)
	}
	if body[0]["id"] != "order-1" || body[0]["topic"] != *topic.ID {
		t.Errorf("delivered event %v", body[0])
	}

	wrong, err := azeventgrid.NewClientWithSharedKeyCredential(*topic.Properties.Endpoint, azcore.NewKeyCredential("d3Jvbmc="),
		&azeventgrid.ClientOptions{ClientOptions: emu.AzureClientOptions()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = wrong.PublishEvents(ctx, []azeventgrid.Event{{ID: to.Ptr("x"), EventType: to.Ptr("T"), Subject: to.Ptr("s"), EventTime: to.Ptr(start), Data: 1}}, nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusUnauthorized {
		t.Fatalf("publish with a wrong key: %v, want 401", err)
	}

	del, err := subs.BeginDelete(ctx, *topic.ID, "audit", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := del.PollUntilDone(ctx, nil); err != nil {
		t.Fatal(err)
	}
	_, err = subs.Get(ctx, *topic.ID, "audit", nil)
	if !errors.As(err, &re) || re.StatusCode != http.StatusNotFound {
		t.Fatalf("get after delete: %v, want 404", err)
	}
}

func countKind(reqs []fakes.Request, kind string) int {
	n := 0
	for _, r := range reqs {
		if r.Kind == kind {
			n++
		}
	}
	return n
}
