package eventgrid_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// armRequest sends a raw ARM request, as the CLI or a hand-written client
// would, and returns status and decoded body.
func (h *harness) armRequest(method, path, body string) (int, map[string]any) {
	h.t.Helper()
	req, _ := http.NewRequest(method, h.armSrv.URL+path+"?api-version=2021-10-15-preview", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer x")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := h.armSrv.Client().Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

// Whatever a client sends, ARM answers 4xx with {"error":{code,message}},
// never a 5xx (the SDKs retry those) and never a crash.
func TestARMBadInputIsNever5xx(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.createTopic("orders", "EventGridSchema", nil)
	topic := "/subscriptions/" + subscriptionID + "/resourceGroups/" + resourceGroup + "/providers/Microsoft.EventGrid/topics/orders"
	sub := topic + "/eventSubscriptions/s1"
	cases := []struct{ method, path, body string }{
		{"PUT", topic, ``},
		{"PUT", topic, `[]`},
		{"PUT", topic, `null`},
		{"PUT", topic, `{"location":1}`},
		{"PUT", topic, `{"location":"x","properties":5}`},
		{"PUT", topic, `{"location":"x","properties":{"inputSchema":"Avro"}}`},
		{"PUT", topic, `{"location":"x","properties":{"inputSchemaMapping":{"inputSchemaMappingType":"Xml"}}}`},
		{"PATCH", topic, `{"tags":"x"}`},
		{"PATCH", topic, `{"properties":{"publicNetworkAccess":"sometimes"}}`},
		{"POST", topic + "/regenerateKey", `{"keyName":"key3"}`},
		{"POST", topic + "/regenerateKey", `{`},
		{"PUT", sub, `{"properties":{"destination":"webhook"}}`},
		{"PUT", sub, `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"ftp://x"}}}}`},
		{"PUT", sub, `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"http://127.0.0.1:1/closed"}}}}`},
		{"PUT", sub, `{"properties":{"retryPolicy":{"maxDeliveryAttempts":"many"}}}`},
		{"PUT", topic + "/eventSubscriptions/x", `{}`},
		{"PATCH", sub, `{}`},
		{"POST", sub + "/getFullUrl", ``},
		{"DELETE", topic + "/listKeys", ``},
		{"GET", "/subscriptions/" + subscriptionID + "/resourceGroups/other/providers/Microsoft.EventGrid/topics/orders", ``},
	}
	for _, tc := range cases {
		status, body := h.armRequest(tc.method, tc.path, tc.body)
		errBody, _ := body["error"].(map[string]any)
		if status < 400 || status >= 500 || errBody["code"] == nil || errBody["message"] == nil {
			t.Errorf("%s %s %s: %d %v", tc.method, tc.path, tc.body, status, body)
		}
	}
}

// The CLI sends lower-case enums and extra fields; they are accepted and
// answered in canonical casing, which the Go SDK needs.
func TestARMCanonicalCasing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	status, body := h.armRequest("PUT", "/subscriptions/"+subscriptionID+"/resourcegroups/"+resourceGroup+"/providers/microsoft.eventgrid/topics/cli-topic",
		`{"location":"westus2","sku":{"name":"Basic"},"kind":"Azure","identity":{"type":"none"},"properties":{"inputSchema":"eventgridschema","publicNetworkAccess":"enabled"}}`)
	props, _ := body["properties"].(map[string]any)
	if status != http.StatusCreated || props["inputSchema"] != "EventGridSchema" || props["publicNetworkAccess"] != "Enabled" || body["kind"] != "Azure" {
		t.Fatalf("%d %v", status, body)
	}
	// Paths not served here fall through to the router (404 without an ARM body).
	if status, _ := h.armRequest("GET", "/subscriptions/"+subscriptionID+"/resourceGroups/rg1/providers/Microsoft.EventGrid/namespaces/n", ""); status != http.StatusNotFound {
		t.Fatalf("namespace path answered %d", status)
	}
	if status, _ := h.post("cli-topic", "", "", "aeg-sas-key", ""); status != http.StatusUnauthorized {
		t.Fatalf("publish without key: %d", status)
	}
	req, _ := http.NewRequest(http.MethodGet, h.endpoint("cli-topic"), nil)
	if status, _ := h.do(req); status != http.StatusMethodNotAllowed {
		t.Fatalf("GET on the publish endpoint: %d", status)
	}
}
