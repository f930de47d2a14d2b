package topology_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/emulator/topology"
)

// everything declares one resource of each kind, with the options that
// change a request.
const everything = `eventgrid:
  subscriptionId: 11111111-2222-3333-4444-555555555555
  resourceGroup: rg1
  location: westeurope
  topics:
    - name: orders
      inputSchema: CloudEventSchemaV1_0
      keys: { key1: "a2V5LW9uZQ==", key2: "a2V5LXR3bw==" }
      subscriptions:
        - name: audit
          webhook: http://app:8080/events?code=1&x=<y>
          skipValidation: true
          eventDeliverySchema: CloudEventSchemaV1_0
          filter: { includedEventTypes: [Shop.OrderPlaced], advancedFilters: [{ key: data.total, operatorType: NumberGreaterThan, value: 10.50 }] }
          retryPolicy: { maxDeliveryAttempts: 5 }
          deadLetter: { account: devstoreaccount1, container: dead-letters }
        - name: to-queue
          destination: { endpointType: StorageQueue, properties: { resourceId: /subscriptions/s/resourceGroups/r/providers/Microsoft.Storage/storageAccounts/a, queueName: q } }
  namespaces:
    - name: shop
      topics:
        - name: events
          eventRetentionInDays: 1
          subscriptions:
            - name: worker
eventbridge:
  region: eu-west-1
  account: 123456789012
  buses:
    - name: shop
      description: The shop's bus
      rules:
        - name: big-orders
          eventPattern: { source: [shop], detail: { total: [{ numeric: [">", 1000] }] } }
          state: DISABLED
          targets:
            - Id: q1
              Arn: arn:aws:sqs:eu-west-1:123456789012:orders
              InputTransformer: { InputPathsMap: { total: $.detail.total }, InputTemplate: '{"total": <total>}' }
              RetryPolicy: { MaximumRetryAttempts: 3 }
            - id: q2
              arn: arn:aws:sqs:eu-west-1:123456789012:orders.fifo
              sqsParameters: { messageGroupId: g1 }
              deadLetterConfig: { arn: "arn:aws:sqs:eu-west-1:123456789012:dlq" }
    - name: default
      rules:
        - name: tick
          scheduleExpression: rate(5 minutes)
          targets: [{ id: t1, arn: "arn:aws:sqs:eu-west-1:123456789012:ticks", input: { kind: tick } }]
  v2:
    buses:
      - name: orders
        retentionPeriodInSeconds: 7200
        subscribers:
          - name: billing
            invokeConfiguration: { targetArn: "https://billing.example/events", maxBatchSize: 10 }
            filterConfiguration: { filters: [{ scope: EVENT, pattern: { source: [shop] } }] }
`

func TestApplySendsTheCloudsRequestsInFileOrder(t *testing.T) {
	t.Parallel()
	f := mustParse(t, "topology.yaml", everything)
	fake := newFakeEmulator()
	if err := f.Apply(context.Background(), fake); err != nil {
		t.Fatal(err)
	}
	const (
		group  = "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg1/providers/Microsoft.EventGrid"
		topic  = group + "/topics/orders"
		ns     = group + "/namespaces/shop"
		v      = "?api-version=2025-02-15"
		awsCT  = "application/x-amz-json-1.1"
		signed = "AWS4-HMAC-SHA256 Credential=123456789012/20260101/eu-west-1/events/aws4_request, SignedHeaders=content-type;host;x-amz-target, Signature=0000000000000000000000000000000000000000000000000000000000000000"
	)
	arm := map[string]string{"Content-Type": "application/json"}
	aws := func(op string) map[string]string {
		return map[string]string{"Content-Type": awsCT, "X-Amz-Target": op, "Authorization": signed}
	}
	want := []recorded{
		{"PUT", topic + v, map[string]string{"Content-Type": "application/json", "X-Gridbridge-Key1": "a2V5LW9uZQ==", "X-Gridbridge-Key2": "a2V5LXR3bw=="},
			`{"location":"westeurope","properties":{"inputSchema":"CloudEventSchemaV1_0"}}`},
		{"POST", topic + "/listKeys" + v, map[string]string{}, ``},
		{"PUT", topic + "/eventSubscriptions/audit" + v, map[string]string{"Content-Type": "application/json", "X-Gridbridge-Skip-Validation": "true"},
			`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"http://app:8080/events?code=1&x=<y>"}},` +
				`"filter":{"includedEventTypes":["Shop.OrderPlaced"],"advancedFilters":[{"key":"data.total","operatorType":"NumberGreaterThan","value":10.50}]},` +
				`"eventDeliverySchema":"CloudEventSchemaV1_0","retryPolicy":{"maxDeliveryAttempts":5},` +
				`"deadLetterDestination":{"endpointType":"StorageBlob","properties":{"resourceId":"/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg1/providers/Microsoft.Storage/storageAccounts/devstoreaccount1","blobContainerName":"dead-letters"}}}}`},
		{"PUT", topic + "/eventSubscriptions/to-queue" + v, arm,
			`{"properties":{"destination":{"endpointType":"StorageQueue","properties":{"resourceId":"/subscriptions/s/resourceGroups/r/providers/Microsoft.Storage/storageAccounts/a","queueName":"q"}}}}`},
		{"PUT", ns + v, arm, `{"location":"westeurope"}`},
		{"PUT", ns + "/topics/events" + v, arm, `{"properties":{"eventRetentionInDays":1}}`},
		{"PUT", ns + "/topics/events/eventSubscriptions/worker" + v, arm, `{"properties":{"deliveryConfiguration":{"deliveryMode":"Queue","queue":{}}}}`},
		{"POST", "/", aws("AWSEvents.CreateEventBus"), `{"Name":"shop","Description":"The shop's bus"}`},
		{"POST", "/", aws("AWSEvents.PutRule"),
			`{"Name":"big-orders","EventBusName":"shop","EventPattern":"{\"source\":[\"shop\"],\"detail\":{\"total\":[{\"numeric\":[\">\",1000]}]}}","State":"DISABLED"}`},
		{"POST", "/", aws("AWSEvents.PutTargets"),
			`{"Rule":"big-orders","EventBusName":"shop","Targets":[` +
				`{"Arn":"arn:aws:sqs:eu-west-1:123456789012:orders","Id":"q1","InputTransformer":{"InputPathsMap":{"total":"$.detail.total"},"InputTemplate":"{\"total\": <total>}"},"RetryPolicy":{"MaximumRetryAttempts":3}},` +
				`{"Arn":"arn:aws:sqs:eu-west-1:123456789012:orders.fifo","DeadLetterConfig":{"Arn":"arn:aws:sqs:eu-west-1:123456789012:dlq"},"Id":"q2","SqsParameters":{"MessageGroupId":"g1"}}]}`},
		{"POST", "/", aws("AWSEvents.PutRule"), `{"Name":"tick","EventBusName":"default","ScheduleExpression":"rate(5 minutes)"}`},
		{"POST", "/", aws("AWSEvents.PutTargets"),
			`{"Rule":"tick","EventBusName":"default","Targets":[{"Arn":"arn:aws:sqs:eu-west-1:123456789012:ticks","Id":"t1","Input":"{\"kind\":\"tick\"}"}]}`},
		{"POST", "/", aws("AWSEventsV2.CreateEventBus"), `{"Name":"orders","RetentionPeriodInSeconds":7200}`},
		{"POST", "/", aws("AWSEventsV2.CreateSubscriber"),
			`{"EventBusArn":"arn:aws:events:eu-west-1:123456789012:event-busv2/orders/ID1",` +
				`"FilterConfiguration":{"Filters":[{"Pattern":"{\"source\":[\"shop\"]}","Scope":"EVENT"}]},` +
				`"InvokeConfiguration":{"MaxBatchSize":10,"TargetArn":"https://billing.example/events"},"Name":"billing"}`},
	}
	got := fake.received()
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			t.Errorf("request %d missing: %+v", i, want[i])
		case i >= len(want):
			t.Errorf("request %d unexpected: %+v", i, got[i])
		case !reflect.DeepEqual(got[i], want[i]):
			t.Errorf("request %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	for i, r := range got {
		if r.Body != "" && !json.Valid([]byte(r.Body)) {
			t.Errorf("request %d sent invalid JSON: %s", i, r.Body)
		}
	}
}

// small is a file with one resource of each cloud, for the failure tests.
const small = `eventgrid:
  topics:
    - name: orders
      keys: { key1: "a2V5LW9uZQ==" }
      subscriptions:
        - name: audit
          webhook: http://app:8080/events
          skipValidation: true
eventbridge:
  buses:
    - name: shop
      rules:
        - name: big-orders
          eventPattern: { source: [shop] }
          targets:
            - { id: q1, arn: "arn:aws:sqs:us-east-1:000000000000:q1" }
            - { id: q2, arn: "arn:aws:sqs:us-east-1:000000000000:q2" }
`

func TestApplyFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// answer makes the fake refuse a request; ignoreHeaders makes it
		// an emulator without GridBridge's header hooks.
		answer        func(r recorded) (int, string, bool)
		ignoreHeaders bool
		want          string
		wantRequests  int
		wantType      any
	}{{
		name: "an ARM refusal names the resource and quotes the emulator",
		answer: func(r recorded) (int, string, bool) {
			if strings.HasSuffix(r.URL, "/eventSubscriptions/audit?api-version=2025-02-15") {
				return http.StatusBadRequest, `{"error":{"code":"InvalidRequest","message":"The filter is not valid."}}`, true
			}
			return 0, "", false
		},
		want: `topology.yaml:6: eventgrid.topics[0].subscriptions[0]: event subscription "audit" of topic "orders": ` +
			`the emulator refused PUT (HTTP 400 InvalidRequest): "The filter is not valid."`,
		wantRequests: 3,
		wantType:     &topology.APIError{},
	}, {
		name: "an AWS refusal names the rule and quotes the emulator",
		answer: func(r recorded) (int, string, bool) {
			if r.Headers["X-Amz-Target"] == "AWSEvents.PutRule" {
				return http.StatusBadRequest, `{"__type":"com.amazonaws.eventbridge#InvalidEventPatternException","message":"Event pattern is not valid."}`, true
			}
			return 0, "", false
		},
		want: `topology.yaml:13: eventbridge.buses[0].rules[0]: rule "big-orders" on bus "shop": ` +
			`the emulator refused PutRule (HTTP 400 InvalidEventPatternException): "Event pattern is not valid."`,
		wantRequests: 5,
		wantType:     &topology.APIError{},
	}, {
		name: "a target PutTargets refuses points at the target's line",
		answer: func(r recorded) (int, string, bool) {
			if r.Headers["X-Amz-Target"] == "AWSEvents.PutTargets" {
				return http.StatusOK, `{"FailedEntryCount":1,"FailedEntries":[{"TargetId":"q2","ErrorCode":"ConcurrentModificationException","ErrorMessage":"Try again."}]}`, true
			}
			return 0, "", false
		},
		want: `topology.yaml:17: eventbridge.buses[0].rules[0].targets[1]: target "q2" of rule "big-orders" on bus "shop": ` +
			`the emulator refused PutTargets (HTTP 200 ConcurrentModificationException): "Try again. (1 of 2 targets refused)"`,
		wantRequests: 6,
		wantType:     &topology.APIError{},
	}, {
		name: "an API the emulator does not serve gets a hint",
		answer: func(r recorded) (int, string, bool) {
			if r.Headers["X-Amz-Target"] != "" {
				return http.StatusNotFound, `{"error":{"code":"NotFound","message":"No resource matches POST / on this emulator."}}`, true
			}
			return 0, "", false
		},
		want: `topology.yaml:11: eventbridge.buses[0]: bus "shop": the emulator refused CreateEventBus (HTTP 404 NotFound): ` +
			`"No resource matches POST / on this emulator."; this GridBridge build does not serve that API yet`,
		wantRequests: 4,
		wantType:     &topology.APIError{},
	}, {
		name:          "fixed keys the emulator ignored",
		ignoreHeaders: true,
		want: `topology.yaml:3: eventgrid.topics[0]: topic "orders": keys are fixed in the file, but the emulator generated its own ` +
			`(this emulator does not honour the X-GridBridge-Key1/X-GridBridge-Key2 request header)`,
		wantRequests: 2,
		wantType:     &topology.HookMissingError{},
	}, {
		name: "a handshake that skipValidation should have prevented",
		answer: func(r recorded) (int, string, bool) {
			if strings.Contains(r.URL, "/eventSubscriptions/") {
				return http.StatusBadRequest, `{"error":{"code":"Url validation","message":"Webhook validation handshake failed for http://app:8080/events."}}`, true
			}
			return 0, "", false
		},
		want: `topology.yaml:6: eventgrid.topics[0].subscriptions[0]: event subscription "audit" of topic "orders": ` +
			`skipValidation is set, yet the emulator ran the validation handshake and it failed: Webhook validation handshake failed for http://app:8080/events. ` +
			`(this emulator does not honour the X-GridBridge-Skip-Validation request header)`,
		wantRequests: 3,
		wantType:     &topology.HookMissingError{},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := mustParse(t, "topology.yaml", small)
			fake := newFakeEmulator()
			fake.answer, fake.ignoreHeaders = tc.answer, tc.ignoreHeaders
			err := f.Apply(context.Background(), fake)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Apply error:\n got %v\nwant %s", err, tc.want)
			}
			if target := reflect.New(reflect.TypeOf(tc.wantType)).Interface(); !errors.As(err, target) {
				t.Errorf("error is %T, want %T", err, tc.wantType)
			}
			if n := len(fake.received()); n != tc.wantRequests {
				t.Errorf("Apply sent %d requests, want %d: it must stop at the first failure", n, tc.wantRequests)
			}
		})
	}
}

func TestApplyStopsWhenTheContextEnds(t *testing.T) {
	t.Parallel()
	f := mustParse(t, "topology.yaml", small)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fake := newFakeEmulator()
	if err := f.Apply(ctx, fake); !errors.Is(err, context.Canceled) {
		t.Fatalf("Apply = %v, want context.Canceled", err)
	}
	if n := len(fake.received()); n != 0 {
		t.Errorf("Apply sent %d requests after the context ended", n)
	}
}
