package emulator_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/testkit"
)

// credential is ClientSecretCredential pointed at the emulator's authority
// by configuration alone: its authority host is the HTTPS listener (the SDK
// refuses http), instance discovery is off (it would ask
// login.microsoftonline.com), and the transport trusts the emulator's CA.
func credential(t *testing.T, e *testkit.Emulator, tenant string) *azidentity.ClientSecretCredential {
	t.Helper()
	cred, err := azidentity.NewClientSecretCredential(tenant, "app-client-id", "app-secret", &azidentity.ClientSecretCredentialOptions{
		ClientOptions: policy.ClientOptions{
			Cloud:     cloud.Configuration{ActiveDirectoryAuthorityHost: e.TLSURL() + "/"},
			Transport: e.HTTPClient(),
		},
		DisableInstanceDiscovery: tenant != "adfs", // "adfs" turns it off by itself
	})
	if err != nil {
		t.Fatal(err)
	}
	return cred
}

func token(t *testing.T, cred azcore.TokenCredential, scope string) string {
	t.Helper()
	tok, err := cred.GetToken(context.Background(), policy.TokenRequestOptions{Scopes: []string{scope}})
	if err != nil {
		t.Fatalf("GetToken(%s): %v", scope, err)
	}
	return tok.Token
}

// call sends a bearer token and returns the status and the ARM error code.
func call(t *testing.T, e *testkit.Emulator, method, url, bearer, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.Set("Content-Type", "application/json")
	return send(t, e, req)
}

// send sends req with a client that trusts the emulator and returns the
// status and the Azure error code of the answer ("" when it has none).
func send(t *testing.T, e *testkit.Emulator, req *http.Request) (int, string) {
	t.Helper()
	resp, err := e.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var shape struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(raw, &shape)
	return resp.StatusCode, shape.Error.Code
}

const (
	armScope       = "https://management.azure.com/.default"
	eventGridScope = "https://eventgrid.azure.net/.default"
)

func TestClientSecretCredentialCreatesATopicAndPublishes(t *testing.T) {
	t.Parallel()
	for _, tenant := range []string{"72f988bf-86f1-41af-91ab-2d7cd011db47", "adfs"} {
		t.Run(tenant, func(t *testing.T) {
			t.Parallel()
			e := testkit.Start(t)
			cred := credential(t, e, tenant)
			ctx := context.Background()
			arm, err := armeventgrid.NewClientFactory(testkit.SubscriptionID, cred, e.ARMClientOptions())
			if err != nil {
				t.Fatal(err)
			}
			poller, err := arm.NewTopicsClient().BeginCreateOrUpdate(ctx, testkit.ResourceGroup, "orders",
				armeventgrid.Topic{Location: to("westus")}, nil)
			if err != nil {
				t.Fatalf("creating a topic with an Entra token: %v", err)
			}
			topic, err := poller.PollUntilDone(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			pub, err := azeventgrid.NewClient(*topic.Properties.Endpoint, cred, &azeventgrid.ClientOptions{ClientOptions: e.AzureClientOptions()})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pub.PublishEvents(ctx, []azeventgrid.Event{{
				ID: to("1"), Subject: to("s"), EventType: to("t"), DataVersion: to("1.0"), Data: map[string]any{"n": 1}, EventTime: to(e.Now()),
			}}, nil); err != nil {
				t.Fatalf("publishing with an Entra token: %v", err)
			}
		})
	}
}

func TestTokensAreCheckedForAudienceExpiryAndSignature(t *testing.T) {
	t.Parallel()
	e := testkit.Start(t)
	cred := credential(t, e, "tenant-1")
	topic := e.CreateTopic("orders", nil)
	publishURL := *topic.Properties.Endpoint + "?api-version=2018-01-01"
	topicURL := e.TLSURL() + "/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/" + testkit.ResourceGroup +
		"/providers/Microsoft.EventGrid/topics/orders?api-version=2025-02-15"
	events := `[{"id":"1","subject":"s","eventType":"t","dataVersion":"1","data":{},"eventTime":"2026-01-01T00:00:00Z"}]`
	armToken, egToken := token(t, cred, armScope), token(t, cred, eventGridScope)

	check := func(name, method, url, bearer, body string, wantStatus int, wantCode string) {
		t.Helper()
		status, code := call(t, e, method, url, bearer, body)
		if status != wantStatus || code != wantCode {
			t.Errorf("%s: HTTP %d %q, want %d %q", name, status, code, wantStatus, wantCode)
		}
	}
	check("Event Grid token, topic", http.MethodPost, publishURL, egToken, events, http.StatusOK, "")
	check("ARM token, ARM", http.MethodGet, topicURL, armToken, "", http.StatusOK, "")
	// As Azure does: an ARM token is refused by the data plane, and the reverse.
	check("ARM token, topic", http.MethodPost, publishURL, armToken, events, http.StatusUnauthorized, "InvalidAuthenticationTokenAudience")
	check("Event Grid token, ARM", http.MethodGet, topicURL, egToken, "", http.StatusUnauthorized, "InvalidAuthenticationTokenAudience")

	tampered := egToken[:len(egToken)-6] + strings.Repeat("A", 6)
	if tampered == egToken {
		tampered = egToken[:len(egToken)-6] + strings.Repeat("B", 6)
	}
	check("tampered signature", http.MethodPost, publishURL, tampered, events, http.StatusUnauthorized, "InvalidAuthenticationToken")

	// A token another emulator issued is not this one's: accepted, as any
	// foreign token is without --strict-auth.
	other := testkit.Start(t)
	foreign := token(t, credential(t, other, "tenant-1"), eventGridScope)
	check("foreign token", http.MethodPost, publishURL, foreign, events, http.StatusOK, "")
	check("not a JWT", http.MethodPost, publishURL, "opaque", events, http.StatusOK, "")

	// Expiry is on the emulator clock.
	e.Advance(entraLifetime - time.Second)
	check("just before expiry", http.MethodPost, publishURL, egToken, events, http.StatusOK, "")
	e.Advance(time.Second)
	check("at expiry", http.MethodPost, publishURL, egToken, events, http.StatusUnauthorized, "ExpiredAuthenticationToken")
	check("ARM token at expiry", http.MethodGet, topicURL, armToken, "", http.StatusUnauthorized, "ExpiredAuthenticationToken")
}

func TestStrictAuthRefusesTokensTheAuthorityDidNotIssue(t *testing.T) {
	t.Parallel()
	e := testkit.Start(t, testkit.WithStrictAuth())
	cred := credential(t, e, "tenant-1")
	topicURL := e.TLSURL() + "/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/rg/providers/Microsoft.EventGrid/topics/strict-orders?api-version=2025-02-15"
	if status, code := call(t, e, http.MethodPut, topicURL, "gridbridge", `{"location":"westus"}`); status != http.StatusUnauthorized || code != "InvalidAuthenticationToken" {
		t.Errorf("foreign token: HTTP %d %q, want 401 InvalidAuthenticationToken", status, code)
	}
	req, _ := http.NewRequest(http.MethodGet, topicURL, nil)
	if status, _ := send(t, e, req); status != http.StatusUnauthorized {
		t.Errorf("ARM without a token: HTTP %d, want 401", status)
	}
	if status, code := call(t, e, http.MethodPut, topicURL, token(t, cred, armScope), `{"location":"westus"}`); status != http.StatusCreated {
		t.Errorf("the authority's own token: HTTP %d %q, want 201", status, code)
	}
}

// entraLifetime is the emulator's token lifetime (compat/entra.DefaultLifetime).
const entraLifetime = 24 * time.Hour

func to[T any](v T) *T { return &v }

// A namespace's data plane takes Event Grid tokens, not ARM ones.
func TestNamespaceDataPlaneChecksTokenAudience(t *testing.T) {
	t.Parallel()
	e := testkit.Start(t)
	cred := credential(t, e, "tenant-1")
	base := e.TLSURL() + "/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/rg/providers/Microsoft.EventGrid/namespaces/ns-audience"
	armToken := token(t, cred, armScope)
	for _, step := range []struct{ path, body string }{
		{"", `{"location":"westus","sku":{"name":"Standard","capacity":1}}`},
		{"/topics/orders", `{"properties":{"inputSchema":"CloudEventSchemaV1_0"}}`},
	} {
		if status, code := call(t, e, http.MethodPut, base+step.path+"?api-version=2025-02-15", armToken, step.body); status >= 300 {
			t.Fatalf("PUT %s: HTTP %d %s", step.path, status, code)
		}
	}
	publish := e.TLSURL() + "/eventgrid/namespaces/ns-audience/topics/orders:publish?api-version=2024-06-01"
	event := `{"specversion":"1.0","id":"1","source":"/s","type":"t"}`
	if status, code := call(t, e, http.MethodPost, publish, armToken, event); status != http.StatusUnauthorized || code != "InvalidAuthenticationTokenAudience" {
		t.Errorf("ARM token on the namespace data plane: HTTP %d %q, want 401 InvalidAuthenticationTokenAudience", status, code)
	}
	req, _ := http.NewRequest(http.MethodPost, publish, strings.NewReader(event))
	req.Header.Set("Authorization", "Bearer "+token(t, cred, eventGridScope))
	req.Header.Set("Content-Type", "application/cloudevents+json; charset=utf-8")
	if status, _ := send(t, e, req); status != http.StatusOK {
		t.Errorf("Event Grid token on the namespace data plane: HTTP %d, want 200", status)
	}
}

// A topology file is applied under --strict-auth too: it is the operator's
// own configuration, not a client's request.
func TestStrictAuthStillAppliesTheTopologyFile(t *testing.T) {
	t.Parallel()
	file := t.TempDir() + "/topology.yaml"
	if err := os.WriteFile(file, []byte("eventgrid:\n  resourceGroup: rg\n  location: westus\n  topics:\n    - name: strict-topo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := testkit.Start(t, testkit.WithStrictAuth(), testkit.WithConfig(file))
	cred := credential(t, e, "tenant-1")
	url := e.TLSURL() + "/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/rg/providers/Microsoft.EventGrid/topics/strict-topo?api-version=2025-02-15"
	if status, code := call(t, e, http.MethodGet, url, token(t, cred, armScope), ""); status != http.StatusOK {
		t.Fatalf("the topology's topic: HTTP %d %q, want 200", status, code)
	}
}
