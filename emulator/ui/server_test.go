package ui_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

// The emulator mounts the dashboard on both listeners, behind the same guard
// as the rest of /_emulator: a foreign Host is refused, and the state changes
// the page makes need a JSON content type.
func TestDashboardOnBothListenersBehindTheGuard(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	client := emu.HTTPClient()
	for _, base := range []string{emu.URL(), emu.TLSURL()} {
		res, err := client.Get(base + "/_emulator/ui/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "GridBridge dashboard") ||
			!strings.HasPrefix(res.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s/_emulator/ui/: %d, CSP %q", base, res.StatusCode, res.Header.Get("Content-Security-Policy"))
		}

		req, _ := http.NewRequest(http.MethodGet, base+"/_emulator/ui/", nil)
		req.Host = "attacker.example"
		res, err = client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("%s with Host attacker.example: %d, want 403", base, res.StatusCode)
		}
	}
	// What the page's buttons send: JSON passes, a form post does not.
	res, err := client.Post(emu.URL()+"/_emulator/faults", "text/plain", strings.NewReader(`{"status":503}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a fault posted as text/plain: %d, want 415", res.StatusCode)
	}
	res, err = client.Post(emu.URL()+"/_emulator/faults", "application/json", strings.NewReader(`{"match":{"subscription":"audit"},"status":503,"count":3}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Errorf("a fault posted as JSON: %d, want 201", res.StatusCode)
	}
}

// GET /_emulator/eventgrid/topics lists topics and their subscriptions for
// the resources view, without keys and without a webhook URL's query.
func TestEventGridTopicsListWithoutSecrets(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	hook := fakes.NewWebhook(t)
	emu.CreateTopic("orders", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	emu.CreateTopic("quiet", nil)
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL() + "?code=s3cret-code")})
	keys, err := emu.ARM().NewTopicsClient().ListSharedAccessKeys(context.Background(), testkit.ResourceGroup, "orders", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := emu.HTTPClient().Get(emu.URL() + "/_emulator/eventgrid/topics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var got struct {
		Topics []struct {
			Name          string `json:"name"`
			InputSchema   string `json:"inputSchema"`
			Subscriptions []struct {
				Name, ProvisioningState, EndpointType, EndpointBaseURL string
			} `json:"subscriptions"`
		} `json:"topics"`
	}
	if err := json.Unmarshal(body, &got); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%d %s: %v", res.StatusCode, body, err)
	}
	if len(got.Topics) != 2 || got.Topics[0].Name != "orders" || got.Topics[1].Name != "quiet" || len(got.Topics[1].Subscriptions) != 0 {
		t.Fatalf("topics: %s", body)
	}
	sub := got.Topics[0].Subscriptions
	if len(sub) != 1 || sub[0].Name != "audit" || sub[0].ProvisioningState != "Succeeded" || sub[0].EndpointType != "WebHook" || sub[0].EndpointBaseURL != hook.URL() {
		t.Fatalf("subscriptions: %s", body)
	}
	for _, secret := range []string{"s3cret-code", *keys.Key1, *keys.Key2} {
		if strings.Contains(string(body), secret) {
			t.Errorf("the topic list shows a secret %q: %s", secret, body)
		}
	}
}
