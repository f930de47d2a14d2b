package armmodel

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

const week = 7 * 24 * time.Hour

// sdkQueueBody is the request armeventgrid/v2 v2.3.0 sends (W-NS-5.5).
const sdkQueueBody = `{"properties":{
  "deliveryConfiguration":{"deliveryMode":"Queue","queue":{
     "deadLetterDestinationWithResourceIdentity":{
        "deadLetterDestination":{"endpointType":"StorageBlob","properties":{
            "blobContainerName":"dls",
            "resourceId":"/subscriptions/x/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/sa1"}},
        "identity":{"type":"SystemAssigned"}},
     "eventTimeToLive":"P1D","maxDeliveryCount":5,"receiveLockDurationInSeconds":60}},
  "eventDeliverySchema":"CloudEventSchemaV1_0",
  "expirationTimeUtc":"2030-01-01T00:00:00Z",
  "filtersConfiguration":{"filters":[{"key":"subject","operatorType":"StringBeginsWith","values":["x"]},
                                     {"key":"data.n","operatorType":"NumberInRange","values":[[1,2]]}],
                          "includedEventTypes":["a.b"]}}}`

func TestQueueSubscriptionFromTheSDKRequest(t *testing.T) {
	t.Parallel()
	sub, set, err := NewEventSubscription([]byte(sdkQueueBody), week)
	if err != nil {
		t.Fatal(err)
	}
	if set.Push || set.LockDuration != time.Minute || set.MaxDeliveryCount != 5 || set.TimeToLive != 24*time.Hour {
		t.Fatalf("settings %+v", set)
	}
	if dl := set.DeadLetter; dl == nil || dl.Account != "sa1" || dl.Container != "dls" || dl.RetryPeriodDays != 2 {
		t.Fatalf("dead letter %+v", set.DeadLetter)
	}
	out, _ := json.Marshal(sub)
	for _, want := range []string{`"operatorType":"StringBeginsWith"`, `"includedEventTypes":["a.b"]`,
		`"endpointType":"StorageBlob"`, `"provisioningState":"Succeeded"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("response lacks %s:\n%s", want, out)
		}
	}
}

func TestSeedDeadLetterShapeIsAcceptedInBothCasings(t *testing.T) {
	t.Parallel() // NS-9
	for _, key := range []string{"StorageBlob", "storageBlob"} {
		body := `{"properties":{"deliveryConfiguration":{"deliveryMode":"queue","queue":{
		  "deadLetterDestinationWithResourceIdentity":{"deliveryRetryPeriodInDays":1,"endpointType":"storageblob",
		    "` + key + `":{"blobContainerName":"data","resourceId":"/subscriptions/0/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/acct"},
		    "identity":{"type":"UserAssigned","userAssignedIdentity":"/x"}}}}}}`
		sub, set, err := NewEventSubscription([]byte(body), week)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if dl := set.DeadLetter; dl == nil || dl.Account != "acct" || dl.Container != "data" || dl.RetryPeriodDays != 1 {
			t.Fatalf("%s: dead letter %+v", key, set.DeadLetter)
		}
		out, _ := json.Marshal(sub)
		if !strings.Contains(string(out), `"deadLetterDestination":{"endpointType":"StorageBlob","properties":{"resourceId":"/subscriptions/0/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/acct","blobContainerName":"data"}},"deliveryRetryPeriodInDays":1`) ||
			!strings.Contains(string(out), `"deliveryMode":"Queue"`) {
			t.Fatalf("%s: echoed as %s", key, out)
		}
	}
}

func TestOutOfRangeSettingsAreBadRequests(t *testing.T) {
	t.Parallel()
	queue := func(inner string) string {
		return `{"properties":{"deliveryConfiguration":{"deliveryMode":"Queue","queue":{` + inner + `}}}}`
	}
	dl := func(extra string) string {
		return queue(`"deadLetterDestinationWithResourceIdentity":{"deadLetterDestination":{"endpointType":"StorageBlob",
		  "properties":{"blobContainerName":"ccc","resourceId":"/subscriptions/0/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/acct"}}` + extra + `}`)
	}
	cases := map[string]string{
		"lock 59":            queue(`"receiveLockDurationInSeconds":59`),
		"lock 301":           queue(`"receiveLockDurationInSeconds":301`),
		"count 0":            queue(`"maxDeliveryCount":0`),
		"count 11":           queue(`"maxDeliveryCount":11`),
		"ttl 30s":            queue(`"eventTimeToLive":"PT30S"`),
		"ttl > retention":    queue(`"eventTimeToLive":"P8D"`),
		"ttl < lock":         queue(`"eventTimeToLive":"PT2M","receiveLockDurationInSeconds":300`),
		"ttl garbage":        queue(`"eventTimeToLive":"1 day"`),
		"retry period 3":     dl(`,"deliveryRetryPeriodInDays":3`),
		"retry period 0":     dl(`,"deliveryRetryPeriodInDays":0`),
		"no queue":           `{"properties":{"deliveryConfiguration":{"deliveryMode":"Queue"}}}`,
		"no mode":            `{"properties":{"deliveryConfiguration":{"queue":{}}}}`,
		"no delivery config": `{"properties":{}}`,
		"bad schema":         `{"properties":{"eventDeliverySchema":"EventGridSchema","deliveryConfiguration":{"deliveryMode":"Queue","queue":{}}}}`,
		"bad filter":         `{"properties":{"deliveryConfiguration":{"deliveryMode":"Queue","queue":{}},"filtersConfiguration":{"filters":[{"key":"k","operatorType":"Nope"}]}}}`,
		"push no dest":       `{"properties":{"deliveryConfiguration":{"deliveryMode":"Push","push":{}}}}`,
		"push event hub":     `{"properties":{"deliveryConfiguration":{"deliveryMode":"Push","push":{"destination":{"endpointType":"EventHub","properties":{}}}}}}`,
		"push bad url":       `{"properties":{"deliveryConfiguration":{"deliveryMode":"Push","push":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"ftp://x"}}}}}}`,
		"push batch 0":       `{"properties":{"deliveryConfiguration":{"deliveryMode":"Push","push":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x","maxEventsPerBatch":0}}}}}}`,
		"bad dl account":     queue(`"deadLetterDestinationWithResourceIdentity":{"deadLetterDestination":{"endpointType":"StorageBlob","properties":{"blobContainerName":"c","resourceId":"/x"}}}`),
		"not json":           `{"properties":`,
		"wrong type":         `{"properties":{"deliveryConfiguration":{"deliveryMode":"Queue","queue":{"maxDeliveryCount":"ten"}}}}`,
		"empty":              ``,
	}
	for name, body := range cases {
		_, _, err := NewEventSubscription([]byte(body), week)
		if err == nil || err.Status != 400 {
			t.Errorf("%s: got %v, want a 400", name, err)
		}
	}
}

func TestSecretDeliveryAttributesAreHiddenFromGET(t *testing.T) {
	t.Parallel()
	body := `{"properties":{"deliveryConfiguration":{"deliveryMode":"Push","push":{"destination":{"endpointType":"webhook","properties":{
	  "endpointUrl":"https://hook.example/api?code=secret",
	  "deliveryAttributeMappings":[{"name":"h1","type":"static","properties":{"value":"v","isSecret":true}},
	                               {"name":"h2","type":"Dynamic","properties":{"sourceField":"data.x"}}]}}}}}}`
	sub, set, err := NewEventSubscription([]byte(body), week)
	if err != nil {
		t.Fatal(err)
	}
	if set.Webhook == nil || len(set.Webhook.Attributes) != 2 || !set.Webhook.Attributes[0].Secret || set.MaxDeliveryCount != 10 {
		t.Fatalf("settings %+v", set.Webhook)
	}
	view, _ := json.Marshal(sub.View())
	if strings.Contains(string(view), `"value":"v"`) || !strings.Contains(string(view), `"endpointBaseUrl":"https://hook.example/api"`) {
		t.Fatalf("GET shows %s", view)
	}
	attrs, _ := json.Marshal(sub.DeliveryAttributes())
	if !strings.Contains(string(attrs), `"value":"v"`) {
		t.Fatalf("getDeliveryAttributes shows %s", attrs)
	}
	stored, _ := json.Marshal(sub)
	if !strings.Contains(string(stored), `"value":"v"`) {
		t.Fatal("View changed the stored subscription")
	}
}
