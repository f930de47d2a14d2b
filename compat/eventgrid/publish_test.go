package eventgrid_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid/sas"
)

func oneEvent() []azeventgrid.Event {
	return []azeventgrid.Event{{ID: to.Ptr("e1"), EventType: to.Ptr("T"), Subject: to.Ptr("s"), EventTime: to.Ptr(start), Data: map[string]int{"n": 1}}}
}

// Every credential the SDKs and the docs use is accepted; a wrong one is a
// 401 with the service's error code, which the SDK surfaces.
func TestPublishAuthentication(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	key1, key2 := h.keys("orders")
	endpoint := h.endpoint("orders")

	t.Run("key2 is accepted too", func(t *testing.T) {
		c, _ := azeventgrid.NewClientWithSharedKeyCredential(endpoint, azcore.NewKeyCredential(key2), h.dataPlaneOptions())
		if _, err := c.PublishEvents(ctx(t), oneEvent(), nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("wrong key is 401 Unauthorized", func(t *testing.T) {
		c, _ := azeventgrid.NewClientWithSharedKeyCredential(endpoint, azcore.NewKeyCredential("d3Jvbmc="), h.dataPlaneOptions())
		_, err := c.PublishEvents(ctx(t), oneEvent(), nil)
		if status, code := responseErrorCode(t, err); status != http.StatusUnauthorized || code != "Unauthorized" {
			t.Fatalf("got %d %s", status, code)
		}
	})
	t.Run("SAS token via NewClientWithSAS", func(t *testing.T) {
		token, err := sas.Sign(endpoint, key1, start.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		c, _ := azeventgrid.NewClientWithSAS(endpoint, azcore.NewSASCredential(token), h.dataPlaneOptions())
		if _, err := c.PublishEvents(ctx(t), oneEvent(), nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("expired SAS token is 401", func(t *testing.T) {
		token, _ := sas.Sign(endpoint, key1, start.Add(-time.Minute))
		c, _ := azeventgrid.NewClientWithSAS(endpoint, azcore.NewSASCredential(token), h.dataPlaneOptions())
		_, err := c.PublishEvents(ctx(t), oneEvent(), nil)
		if status, _ := responseErrorCode(t, err); status != http.StatusUnauthorized {
			t.Fatalf("got %d", status)
		}
	})
	t.Run("bearer token via NewClient", func(t *testing.T) {
		c, _ := azeventgrid.NewClient(endpoint, fakeCredential{}, h.dataPlaneOptions())
		if _, err := c.PublishEvents(ctx(t), oneEvent(), nil); err != nil {
			t.Fatal(err)
		}
	})
	body := `[{"id":"1","eventType":"T","subject":"s","eventTime":"2026-03-10T08:00:00Z"}]`
	t.Run("Authorization: SharedAccessSignature", func(t *testing.T) {
		token, _ := sas.Sign(endpoint, key2, start.Add(time.Hour))
		if status, resp := h.post("orders", "application/json", body, "aeg-sas-key", "", "Authorization", "SharedAccessSignature "+token); status != 200 || resp != "" {
			t.Fatalf("got %d %q, want 200 with an empty body", status, resp)
		}
	})
	t.Run("key in the query", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, endpoint+"?api-version=2018-01-01&aeg-sas-key="+queryEscape(key1), strings.NewReader(body))
		if status, _ := h.do(req); status != 200 {
			t.Fatalf("got %d", status)
		}
	})
	t.Run("disableLocalAuth refuses keys, not bearer tokens", func(t *testing.T) {
		h := newHarness(t)
		h.createTopic("locked", armeventgrid.InputSchemaEventGridSchema, nil)
		poller, err := h.topics().BeginUpdate(ctx(t), resourceGroup, "locked", armeventgrid.TopicUpdateParameters{
			Properties: &armeventgrid.TopicUpdateParameterProperties{DisableLocalAuth: to.Ptr(true)}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := poller.PollUntilDone(ctx(t), nil); err != nil {
			t.Fatal(err)
		}
		_, err = h.publisher("locked").PublishEvents(ctx(t), oneEvent(), nil)
		if status, _ := responseErrorCode(t, err); status != http.StatusUnauthorized {
			t.Fatalf("key on a topic without local auth: %d", status)
		}
		c, _ := azeventgrid.NewClient(h.endpoint("locked"), fakeCredential{}, h.dataPlaneOptions())
		if _, err := c.PublishEvents(ctx(t), oneEvent(), nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("no credential is 401", func(t *testing.T) {
		status, resp := h.post("orders", "application/json", body, "aeg-sas-key", "")
		if status != 401 || !strings.Contains(resp, "aeg-sas-token, aeg-sas-key") {
			t.Fatalf("got %d %s", status, resp)
		}
	})
}

// Bad input is a 400 with the service's error body, never a 5xx and never
// a crash; 413 above 1 MB; 404 for an unknown topic.
func TestPublishRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	h.createTopic("ce-topic", armeventgrid.InputSchemaCloudEventSchemaV10, nil)
	h.createTopic("custom", armeventgrid.InputSchemaCustomEventSchema, nil)
	const good = `{"id":"1","eventType":"T","subject":"s","eventTime":"2026-03-10T08:00:00Z"}`
	cases := []struct {
		name, topic, contentType, body string
		status                         int
	}{
		{"malformed JSON", "orders", "application/json", `[{"id":`, 400},
		{"object instead of array", "orders", "application/json", good, 400},
		{"empty body", "orders", "application/json", ``, 400},
		{"number body", "orders", "application/json", `42`, 400},
		{"array of strings", "orders", "application/json", `["x"]`, 400},
		{"missing id", "orders", "application/json", `[{"eventType":"T","subject":"s","eventTime":"2026-03-10T08:00:00Z"}]`, 400},
		{"missing subject", "orders", "application/json", `[{"id":"1","eventType":"T","eventTime":"2026-03-10T08:00:00Z"}]`, 400},
		{"bad eventTime", "orders", "application/json", `[{"id":"1","eventType":"T","subject":"s","eventTime":"yesterday"}]`, 400},
		{"id of wrong type", "orders", "application/json", `[{"id":1,"eventType":"T","subject":"s","eventTime":"2026-03-10T08:00:00Z"}]`, 400},
		{"foreign topic", "orders", "application/json", `[{"id":"1","topic":"/other","eventType":"T","subject":"s","eventTime":"2026-03-10T08:00:00Z"}]`, 400},
		{"metadataVersion 2", "orders", "application/json", `[{"id":"1","metadataVersion":"2","eventType":"T","subject":"s","eventTime":"2026-03-10T08:00:00Z"}]`, 400},
		{"CloudEvents content type on an Event Grid topic", "orders", "application/cloudevents-batch+json", `[` + good + `]`, 400},
		{"CloudEvent without source", "ce-topic", "application/cloudevents+json", `{"id":"1","type":"T","specversion":"1.0"}`, 400},
		{"CloudEvent of spec 0.3", "ce-topic", "application/cloudevents+json", `{"id":"1","source":"s","type":"T","specversion":"0.3"}`, 400},
		{"CloudEvent array in single mode", "ce-topic", "application/cloudevents+json", `[{"id":"1"}]`, 400},
		{"CloudEvents as text/plain", "ce-topic", "text/plain", `hello`, 400},
		{"custom event not an object", "custom", "application/json", `[1,2]`, 400},
		{"unknown topic", "nosuchtopic", "application/json", `[` + good + `]`, 404},
		{"too large", "orders", "application/json", `[{"id":"1","eventType":"T","subject":"s","eventTime":"2026-03-10T08:00:00Z","data":"` + strings.Repeat("x", 1<<20) + `"}]`, 413},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, body := h.post(tc.topic, tc.contentType, tc.body)
			if status != tc.status {
				t.Fatalf("status %d, want %d (%s)", status, tc.status, body)
			}
			var e struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
				t.Fatalf("error body %q is not {\"error\":{code,message}}", body)
			}
		})
	}
	if p := h.entries("publish", ""); len(p) != 0 {
		t.Fatalf("refused requests were journalled as published: %+v", p)
	}
}

// CloudEvents binary mode: ce-* headers and the raw body become one
// structured event.
func TestPublishCloudEventsBinaryMode(t *testing.T) {
	t.Parallel()
	h, hook := newTopicHarness(t, "ce-topic", armeventgrid.InputSchemaCloudEventSchemaV10)
	h.subscribe("ce-topic", "sub1", armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL())})
	status, body := h.post("ce-topic", "application/json", `{"n":1}`,
		"ce-specversion", "1.0", "ce-id", "b1", "ce-source", "/src", "ce-type", "T", "ce-myext", "hello%20world")
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	got, err := hook.WaitForDeliveries(ctx(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	_ = json.Unmarshal(got[0].Body, &ev)
	data, _ := ev["data"].(map[string]any)
	if ev["id"] != "b1" || ev["source"] != "/src" || ev["myext"] != "hello world" || ev["datacontenttype"] != "application/json" || data["n"] != 1.0 {
		t.Fatalf("structured form %v", ev)
	}
}

func queryEscape(s string) string {
	r := strings.NewReplacer("+", "%2B", "/", "%2F", "=", "%3D")
	return r.Replace(s)
}
