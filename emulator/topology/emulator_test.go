package topology_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/emulator"
	"github.com/gridbridge/gridbridge/emulator/topology"
	"github.com/gridbridge/gridbridge/fakes"
)

// These tests apply topologies to a real in-process emulator and read the
// resources back through the clouds' APIs. A part the emulator does not
// serve yet (a face not mounted, a GridBridge-only header not honoured) is
// skipped with what is missing.

const armGroup = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/gridbridge/providers/Microsoft.EventGrid"

func startEmulator(t *testing.T) http.Handler {
	t.Helper()
	srv, err := emulator.Start(emulator.Options{Clock: "virtual"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv.Handler()
}

// call sends one request to the emulator's handler; target, when set, is
// an AWS JSON 1.1 operation.
func call(t *testing.T, h http.Handler, method, path, target, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = "localhost" // httptest's example.com is not an allowed host
	if target != "" {
		req.Header.Set("X-Amz-Target", target)
		req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	} else if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	raw, _ := io.ReadAll(rec.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return rec.Code, out
}

// skipUnlessServed skips when the emulator's catch-all answers the probe:
// no face claims that API.
func skipUnlessServed(t *testing.T, h http.Handler, method, path, target, missing string) {
	t.Helper()
	status, body := call(t, h, method, path, target, "{}")
	if status == http.StatusNotFound && strings.HasPrefix(messageOf(body), "No resource matches") {
		t.Skipf("the emulator does not serve %s yet", missing)
	}
}

func messageOf(body map[string]any) string {
	if e, ok := body["error"].(map[string]any); ok {
		m, _ := e["message"].(string)
		return m
	}
	m, _ := body["message"].(string)
	return m
}

func apply(t *testing.T, h http.Handler, src string) error {
	t.Helper()
	f := mustParse(t, "topology.yaml", src)
	return f.Apply(context.Background(), h)
}

// mustApply applies the topology made of lines, failing the test if the
// emulator refuses any of it.
func mustApply(t *testing.T, h http.Handler, lines ...string) {
	t.Helper()
	if err := apply(t, h, yamlLines(lines...)); err != nil {
		t.Fatal(err)
	}
}

// field walks a decoded JSON answer: field(body, "properties", "inputSchema").
func field(v any, path ...string) any {
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	return v
}

func TestEmulatorGetsTopicsAndSubscriptions(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	hook := fakes.NewWebhook(t)
	mustApply(t, h,
		"eventgrid:",
		"  topics:",
		"    - name: orders",
		"      inputSchema: CloudEventSchemaV1_0",
		"      subscriptions:",
		"        - name: audit",
		"          webhook: "+hook.URL(),
		"          filter: { includedEventTypes: [Shop.OrderPlaced] }",
		"          retryPolicy: { maxDeliveryAttempts: 5, eventTimeToLiveInMinutes: 60 }",
		"          deadLetter: { account: devstoreaccount1, container: dead-letters }",
	)
	status, topic := call(t, h, "GET", armGroup+"/topics/orders?api-version=2025-02-15", "", "")
	if status != http.StatusOK || field(topic, "properties", "inputSchema") != "CloudEventSchemaV1_0" {
		t.Errorf("GET topic: %d %v", status, topic)
	}
	status, sub := call(t, h, "GET", armGroup+"/topics/orders/eventSubscriptions/audit?api-version=2025-02-15", "", "")
	if status != http.StatusOK {
		t.Fatalf("GET event subscription: %d %v", status, sub)
	}
	for path, want := range map[string]any{
		"properties.provisioningState":                                    "Succeeded",
		"properties.retryPolicy.maxDeliveryAttempts":                      5.0,
		"properties.retryPolicy.eventTimeToLiveInMinutes":                 60.0,
		"properties.deadLetterDestination.properties.blobContainerName":   "dead-letters",
		"properties.destination.properties.endpointBaseUrl":               hook.URL(),
		"properties.filter.includedEventTypes":                            []any{"Shop.OrderPlaced"},
		"properties.deadLetterDestination.endpointType":                   "StorageBlob",
		"properties.eventDeliverySchema":                                  "CloudEventSchemaV1_0",
		"properties.destination.endpointType":                             "WebHook",
		"properties.deadLetterDestination.properties.resourceId":          "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/gridbridge/providers/Microsoft.Storage/storageAccounts/devstoreaccount1",
		"properties.destination.properties.maxEventsPerBatch":             1.0,
		"properties.destination.properties.preferredBatchSizeInKilobytes": 64.0,
	} {
		got := field(sub, strings.Split(path, ".")...)
		if g, _ := json.Marshal(got); string(g) != string(mustMarshal(want)) {
			t.Errorf("%s = %s, want %s", path, g, mustMarshal(want))
		}
	}
	// The subscription was validated as Azure does it, during Apply.
	if reqs := hook.Requests(); len(reqs) == 0 || reqs[0].Kind != fakes.KindAbuseProtection {
		t.Errorf("the webhook saw %+v, want the CloudEvents handshake first", reqs)
	}
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func TestEmulatorRefusalComesBackWithTheLine(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	hook := fakes.NewWebhook(t)
	err := apply(t, h, yamlLines(
		"eventgrid:",
		"  topics:",
		"    - name: orders",
		"      subscriptions:",
		"        - name: audit",
		"          webhook: "+hook.URL(),
		"          filter: { advancedFilters: [{ key: data.n, operatorType: NumberSometimes, value: 1 }] }",
	))
	var api *topology.APIError
	if !errors.As(err, &api) {
		t.Fatalf("Apply = %v, want an *APIError", err)
	}
	if api.Line != 5 || api.Field != "eventgrid.topics[0].subscriptions[0]" || api.Status != http.StatusBadRequest || api.Message == "" {
		t.Errorf("APIError %+v", api)
	}
	if !strings.HasPrefix(err.Error(), `topology.yaml:5: eventgrid.topics[0].subscriptions[0]: event subscription "audit" of topic "orders": the emulator refused PUT (HTTP 400 `) {
		t.Errorf("message: %v", err)
	}
}

func TestEmulatorTakesFixedKeys(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	err := apply(t, h, yamlLines(
		"eventgrid:",
		"  topics:",
		"    - name: orders",
		`      keys: { key1: "a2V5LW9uZQ==", key2: "a2V5LXR3bw==" }`,
	))
	var missing *topology.HookMissingError
	if errors.As(err, &missing) {
		t.Skipf("the Event Grid face does not honour X-GridBridge-Key1/X-GridBridge-Key2 on a topic PUT yet: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, keys := call(t, h, "POST", armGroup+"/topics/orders/listKeys?api-version=2025-02-15", "", "")
	if keys["key1"] != "a2V5LW9uZQ==" || keys["key2"] != "a2V5LXR3bw==" {
		t.Errorf("listKeys = %v", keys)
	}
}

func TestEmulatorSkipsValidationWhenAsked(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // an app that is not up yet
	err := apply(t, h, yamlLines(
		"eventgrid:",
		"  topics:",
		"    - name: orders",
		"      subscriptions:",
		"        - name: later",
		"          webhook: "+down.URL+"/events",
		"          skipValidation: true",
	))
	var missing *topology.HookMissingError
	if errors.As(err, &missing) {
		t.Skipf("the Event Grid face does not honour X-GridBridge-Skip-Validation yet: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, sub := call(t, h, "GET", armGroup+"/topics/orders/eventSubscriptions/later?api-version=2025-02-15", "", "")
	if got := field(sub, "properties", "provisioningState"); got != "Succeeded" {
		t.Errorf("provisioningState %v", got)
	}
}

func TestEmulatorGetsNamespaces(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	skipUnlessServed(t, h, "GET", armGroup+"/namespaces?api-version=2025-02-15", "", "Event Grid namespaces (ARM .../Microsoft.EventGrid/namespaces)")
	mustApply(t, h,
		"eventgrid:",
		"  namespaces:",
		"    - name: shop",
		"      topics:",
		"        - name: orders",
		"          eventRetentionInDays: 2",
		"          subscriptions:",
		"            - name: worker",
		"              queue: { receiveLockDurationInSeconds: 90 }",
	)
	_, topic := call(t, h, "GET", armGroup+"/namespaces/shop/topics/orders?api-version=2025-02-15", "", "")
	if got := field(topic, "properties", "eventRetentionInDays"); got != 2.0 {
		t.Errorf("eventRetentionInDays %v", got)
	}
	_, sub := call(t, h, "GET", armGroup+"/namespaces/shop/topics/orders/eventSubscriptions/worker?api-version=2025-02-15", "", "")
	dc := field(sub, "properties", "deliveryConfiguration")
	if field(dc, "deliveryMode") != "Queue" || field(dc, "queue", "receiveLockDurationInSeconds") != 90.0 {
		t.Errorf("deliveryConfiguration %v", dc)
	}
}

func TestEmulatorGetsBusesRulesAndTargets(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	skipUnlessServed(t, h, "POST", "/", "AWSEvents.ListEventBuses", "EventBridge (AWSEvents.*)")
	mustApply(t, h,
		"eventbridge:",
		"  buses:",
		"    - name: shop",
		"      rules:",
		"        - name: big-orders",
		"          eventPattern: { source: [shop], detail: { total: [{ numeric: ['>=', 1000] }] } }",
		"          targets:",
		"            - id: q1",
		"              arn: arn:aws:sqs:us-east-1:000000000000:orders",
		"              inputTransformer: { inputPathsMap: { total: $.detail.total }, inputTemplate: '{\"total\": <total>}' }",
		"    - name: default",
		"      rules:",
		"        - name: tick",
		"          scheduleExpression: rate(1 hour)",
		"          state: DISABLED",
	)
	_, rule := call(t, h, "POST", "/", "AWSEvents.DescribeRule", `{"Name":"big-orders","EventBusName":"shop"}`)
	if rule["EventPattern"] != `{"source":["shop"],"detail":{"total":[{"numeric":[">=",1000]}]}}` || rule["Arn"] != "arn:aws:events:us-east-1:000000000000:rule/shop/big-orders" {
		t.Errorf("DescribeRule = %v", rule)
	}
	_, targets := call(t, h, "POST", "/", "AWSEvents.ListTargetsByRule", `{"Rule":"big-orders","EventBusName":"shop"}`)
	list, _ := targets["Targets"].([]any)
	if len(list) != 1 || field(list[0], "InputTransformer", "InputTemplate") != `{"total": <total>}` {
		t.Errorf("ListTargetsByRule = %v", targets)
	}
	_, tick := call(t, h, "POST", "/", "AWSEvents.DescribeRule", `{"Name":"tick"}`)
	if tick["ScheduleExpression"] != "rate(1 hour)" || tick["State"] != "DISABLED" {
		t.Errorf("DescribeRule tick = %v", tick)
	}
}

func TestEmulatorGetsEventBusesV2(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	skipUnlessServed(t, h, "POST", "/", "AWSEventsV2.ListEventBuses", "event buses v2 (AWSEventsV2.*)")
	mustApply(t, h,
		"eventbridge:",
		"  v2:",
		"    buses:",
		"      - name: orders",
		"        subscribers:",
		"          - name: billing",
		"            invokeConfiguration: { targetArn: 'arn:aws:sqs:us-east-1:000000000000:billing' }",
	)
	_, sub := call(t, h, "POST", "/", "AWSEventsV2.DescribeSubscriber", `{"Name":"billing"}`)
	if field(sub, "InvokeConfiguration", "TargetArn") != "arn:aws:sqs:us-east-1:000000000000:billing" ||
		!strings.Contains(sub["EventBusArn"].(string), ":event-busv2/orders/") {
		t.Errorf("DescribeSubscriber = %v", sub)
	}
}

// A namespace push subscription is validated at start (the CloudEvents
// handshake) unless skipValidation says the application comes up later.
func TestEmulatorNamespacePushSkipsValidationWhenAsked(t *testing.T) {
	t.Parallel()
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // an app that is not up yet
	file := func(skip bool) string {
		lines := []string{
			"eventgrid:",
			"  namespaces:",
			"    - name: shop",
			"      topics:",
			"        - name: orders",
			"          subscriptions:",
			"            - name: pusher",
			"              webhook: " + down.URL + "/events",
		}
		if skip {
			lines = append(lines, "              skipValidation: true")
		}
		return yamlLines(lines...)
	}
	if err := apply(t, startEmulator(t), file(false)); err == nil || !strings.Contains(err.Error(), "validation") {
		t.Fatalf("without skipValidation: err = %v, want the handshake's failure", err)
	}
	h := startEmulator(t)
	if err := apply(t, h, file(true)); err != nil {
		t.Fatal(err)
	}
	status, _ := call(t, h, "GET", armGroup+"/namespaces/shop/topics/orders/eventSubscriptions/pusher?api-version=2025-02-15", "", "")
	if status != http.StatusOK {
		t.Fatalf("GET the subscription: %d", status)
	}
}

func TestEmulatorGetsDomainsAndTheirTopics(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	hook := fakes.NewWebhook(t)
	mustApply(t, h,
		"eventgrid:",
		"  domains:",
		"    - name: tenants",
		"      autoDeleteTopicWithLastSubscription: false",
		"      keys: { key1: a2V5MQ== }",
		"      subscriptions:",
		"        - name: everything",
		"          webhook: "+hook.URL(),
		"      topics:",
		"        - name: contoso",
		"          subscriptions:",
		"            - name: contoso-audit",
		"              webhook: "+hook.URL(),
		"        - name: fabrikam",
	)
	status, domain := call(t, h, "GET", armGroup+"/domains/tenants?api-version=2025-02-15", "", "")
	if status != http.StatusOK || field(domain, "properties", "autoDeleteTopicWithLastSubscription") != false ||
		field(domain, "properties", "autoCreateTopicWithFirstSubscription") != true {
		t.Fatalf("GET domain: %d %v", status, domain)
	}
	status, keys := call(t, h, "POST", armGroup+"/domains/tenants/listKeys?api-version=2025-02-15", "", "")
	if status != http.StatusOK || keys["key1"] != "a2V5MQ==" {
		t.Fatalf("listKeys: %d %v", status, keys)
	}
	status, list := call(t, h, "GET", armGroup+"/domains/tenants/topics?api-version=2025-02-15", "", "")
	if values, _ := list["value"].([]any); status != http.StatusOK || len(values) != 2 {
		t.Fatalf("domain topics: %d %v", status, list)
	}
	for _, path := range []string{"/domains/tenants/eventSubscriptions/everything", "/domains/tenants/topics/contoso/eventSubscriptions/contoso-audit"} {
		if status, sub := call(t, h, "GET", armGroup+path+"?api-version=2025-02-15", "", ""); status != http.StatusOK ||
			field(sub, "properties", "provisioningState") != "Succeeded" {
			t.Errorf("GET %s: %d %v", path, status, sub)
		}
	}
}

// A system topic needs a storage account the emulator was given; the
// refusal names the file's line.
func TestEmulatorRefusesASystemTopicOfAnUnknownAccount(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	err := apply(t, h, yamlLines(
		"eventgrid:",
		"  systemTopics:",
		"    - name: blobs",
		"      account: nosuchaccount",
	))
	var api *topology.APIError
	if !errors.As(err, &api) || !strings.Contains(api.Error(), "nosuchaccount") || !strings.Contains(api.Error(), ":3") {
		t.Fatalf("err = %v", err)
	}
}
