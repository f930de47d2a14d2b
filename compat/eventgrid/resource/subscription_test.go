package resource

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC)

func testTopic(input string) *Topic {
	return &Topic{ID: TopicID("s", "rg", "t"), Name: "t", InputSchema: input}
}

func render(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

func dig(m map[string]any, path string) any {
	var v any = m
	for _, p := range strings.Split(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

// Enums arrive in any casing (the CLI sends lower case) and go out in the
// canonical spelling the Go SDK matches case-sensitively; the URL and
// secrets are masked; unknown destination properties are echoed.
func TestSubscriptionCasingMaskingEcho(t *testing.T) {
	t.Parallel()
	body := `{"properties":{"destination":{"endpointType":"webhook","properties":{"endpointUrl":"https://h/p?code=x",
		"deliveryAttributeMappings":[{"name":"X-S","type":"static","properties":{"value":"v","isSecret":true}}],"futureProp":7}},
		"eventDeliverySchema":"cloudeventschemav1_0",
		"deadLetterDestination":{"endpointType":"storageblob","properties":{"resourceId":"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct","blobContainerName":"ccc"}},
		"labels":["l1"],"filter":{"isSubjectCaseSensitive":false,"advancedFilters":[{"operatorType":"NumberIn","key":"data.k","values":[1]}]}}}`
	sub, err := SubscriptionFromPut("s1", testTopic(InputEventGrid).ID, []byte(body), nil, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.Validate(testTopic(InputEventGrid)); err != nil {
		t.Fatal(err)
	}
	sub.ProvisioningState = StateSucceeded
	m := render(t, sub.JSON(testTopic(InputEventGrid), true))
	checks := map[string]any{
		"properties.destination.endpointType":                 "WebHook",
		"properties.destination.properties.endpointUrl":       nil,
		"properties.destination.properties.endpointBaseUrl":   "https://h/p",
		"properties.destination.properties.futureProp":        7.0,
		"properties.eventDeliverySchema":                      "CloudEventSchemaV1_0",
		"properties.deadLetterDestination.endpointType":       "StorageBlob",
		"properties.topic":                                    "/subscriptions/s/resourceGroups/rg/providers/microsoft.eventgrid/topics/t",
		"properties.filter.subjectBeginsWith":                 "",
		"properties.retryPolicy.maxDeliveryAttempts":          30.0,
		"properties.destination.properties.maxEventsPerBatch": 1.0,
		"type": "Microsoft.EventGrid/eventSubscriptions",
	}
	for path, want := range checks {
		if got := dig(m, path); got != want {
			t.Errorf("%s = %#v, want %#v", path, got, want)
		}
	}
	attr := dig(m, "properties.destination.properties.deliveryAttributeMappings").([]any)[0].(map[string]any)
	if attr["type"] != "Static" || dig(attr, "properties.value") != "Hidden" {
		t.Errorf("attribute %v", attr)
	}
	if f := dig(m, "properties.filter.advancedFilters"); f == nil {
		t.Errorf("advanced filters not echoed: %v", dig(m, "properties.filter"))
	}
	full := render(t, sub.DeliveryAttributesJSON())
	if v := dig(full["value"].([]any)[0].(map[string]any), "properties.value"); v != "v" {
		t.Errorf("getDeliveryAttributes value %v", v)
	}
}

// A PUT replaces everything; a PATCH replaces only what it names; both
// keep the stored URL and secrets when the client sends back GET's masks.
func TestSubscriptionUpdateKeepsWhatClientsCannotSendBack(t *testing.T) {
	t.Parallel()
	topicID := testTopic(InputEventGrid).ID
	prev, err := SubscriptionFromPut("s1", topicID, []byte(`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h/p?code=x",
		"deliveryAttributeMappings":[{"name":"X-S","type":"Static","properties":{"value":"secret","isSecret":true}}]}},"labels":["a"],
		"retryPolicy":{"maxDeliveryAttempts":5}}}`), nil, now)
	if err != nil {
		t.Fatal(err)
	}
	patched, err := prev.Patched([]byte(`{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":null,"endpointBaseUrl":"https://h/p",
		"deliveryAttributeMappings":[{"name":"X-S","type":"Static","properties":{"value":"Hidden","isSecret":true}}]}},"labels":["b"]}`), now)
	if err != nil {
		t.Fatal(err)
	}
	d := patched.Destination
	if d.EndpointURL != "https://h/p?code=x" || d.DeliveryAttributeMappings[0].Value != "secret" || patched.Labels[0] != "b" ||
		patched.RetryPolicy.MaxDeliveryAttempts != 5 || patched.RetryPolicy.EventTimeToLiveInMinutes != 1440 {
		t.Fatalf("patched %+v %+v", patched, d)
	}
	replaced, err := SubscriptionFromPut("s1", topicID, []byte(`{"properties":{"destination":{"endpointType":"WebHook","properties":{}}}}`), prev, now)
	if err != nil {
		t.Fatal(err)
	}
	if replaced.Labels != nil || replaced.RetryPolicy.MaxDeliveryAttempts != 30 || replaced.Destination.EndpointURL != "https://h/p?code=x" {
		t.Fatalf("PUT did not replace: %+v", replaced)
	}
}

func TestSubscriptionRefusals(t *testing.T) {
	t.Parallel()
	topicID := testTopic(InputCloudEvents).ID
	cases := map[string]string{
		"body not JSON":               `{`,
		"properties not an object":    `{"properties":5}`,
		"unknown endpointType":        `{"properties":{"destination":{"endpointType":"Carrier Pigeon","properties":{}}}}`,
		"endpointUrl a number":        `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":5}}}}`,
		"maxEventsPerBatch fraction":  `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h","maxEventsPerBatch":1.5}}}}`,
		"attribute type missing":      `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h","deliveryAttributeMappings":[{"name":"x"}]}}}}`,
		"aeg- header":                 `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h","deliveryAttributeMappings":[{"name":"aeg-x","type":"Static","properties":{"value":"v"}}]}}}}`,
		"dynamic without sourceField": `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h","deliveryAttributeMappings":[{"name":"x","type":"Dynamic"}]}}}}`,
		"dead letter without container": `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h"}},
			"deadLetterDestination":{"endpointType":"StorageBlob","properties":{"resourceId":"/a"}}}}`,
		"EventGridSchema delivery from CloudEvents": `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h"}},"eventDeliverySchema":"EventGridSchema"}}`,
		"unknown delivery schema":                   `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h"}},"eventDeliverySchema":"Avro"}}`,
		"filter of wrong type":                      `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h"}},"filter":{"includedEventTypes":"T"}}}`,
		"expiration not a time":                     `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h"}},"expirationTimeUtc":"soon"}}`,
	}
	for name, body := range cases {
		sub, err := SubscriptionFromPut("s1", topicID, []byte(body), nil, now)
		if err == nil {
			err = sub.Validate(testTopic(InputCloudEvents))
		}
		if err == nil || err.Status != 400 {
			t.Errorf("%s: got %v, want a 400", name, err)
		}
	}
}

func TestTopicFromPutCasingAndDefaults(t *testing.T) {
	t.Parallel()
	body := `{"location":"westus2","sku":{"name":"Basic"},"kind":"Azure","identity":{"type":"none"},
		"properties":{"inputSchema":"customeventschema","publicNetworkAccess":"disabled","inboundIpRules":[{"ipMask":"10.0.0.0/8","action":"allow"}],
		"inputSchemaMapping":{"inputSchemaMappingType":"json","properties":{"eventType":{"sourceField":"k"}}}}}`
	tp, err := TopicFromPut(TopicID("s", "rg", "t1"), "s", "rg", "t1", []byte(body), nil, now)
	if err != nil {
		t.Fatal(err)
	}
	m := render(t, tp.JSON("https://e/topics/t1/api/events"))
	for path, want := range map[string]any{
		"properties.inputSchema": "CustomEventSchema", "properties.publicNetworkAccess": "Disabled",
		"properties.inputSchemaMapping.inputSchemaMappingType": "Json", "identity.type": "None", "sku.name": "Basic", "kind": "Azure",
		"properties.provisioningState": "Succeeded", "properties.dataResidencyBoundary": "WithinGeopair",
	} {
		if got := dig(m, path); got != want {
			t.Errorf("%s = %#v, want %#v", path, got, want)
		}
	}
	if a := dig(m, "properties.inboundIpRules").([]any)[0].(map[string]any)["action"]; a != "Allow" {
		t.Errorf("action %v", a)
	}
}

// Nothing a client sends makes the decoders panic.
func FuzzDecoders(f *testing.F) {
	f.Add(`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://h"}}}}`)
	f.Add(`{"location":"x","properties":{"inputSchemaMapping":{"inputSchemaMappingType":"Json","properties":{"id":{"sourceField":1}}}}}`)
	f.Add(`{"destination":null,"retryPolicy":{"maxDeliveryAttempts":1e300}}`)
	f.Fuzz(func(t *testing.T, body string) {
		tp := testTopic(InputEventGrid)
		if sub, err := SubscriptionFromPut("s1", tp.ID, []byte(body), nil, now); err == nil {
			_ = sub.Validate(tp)
			_, _ = json.Marshal(sub.JSON(tp, true))
			if p, err := sub.Patched([]byte(body), now); err == nil {
				_ = p.Validate(tp)
			}
		}
		if top, err := TopicFromPut(tp.ID, "s", "rg", "t", []byte(body), nil, now); err == nil {
			_, _ = json.Marshal(top.JSON("e"))
			_, _ = top.Patched([]byte(body), now)
		}
	})
}
