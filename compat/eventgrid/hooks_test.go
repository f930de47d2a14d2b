package eventgrid_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/fakes"
)

// fullRules wires the retry-rules and dead-letter packages into the hooks,
// the way the emulator does.
func fullRules(sink engine.Sink) func(*eventgrid.Config) {
	return func(c *eventgrid.Config) {
		c.DeadLetterSink = sink
		c.RetryPolicy = func(v eventgrid.SubscriptionView) engine.RetryPolicy {
			kind := retry.AzureResource
			if v.EndpointType == "WebHook" {
				kind = retry.Webhook
			}
			return retry.NewPolicy(retry.Config{MaxDeliveryAttempts: v.MaxDeliveryAttempts, EventTimeToLive: v.EventTimeToLive, Destination: kind})
		}
		c.DeadLetterPolicy = func(v eventgrid.SubscriptionView, sink engine.Sink) *engine.DeadLetterPolicy {
			dest, err := deadletter.ParseDestination(v.DeadLetter.ResourceID, v.DeadLetter.BlobContainerName)
			if err != nil {
				return nil
			}
			b := deadletter.NewBuilder(v.Name, dest)
			b.DeliverySchema = v.DeliverySchema
			return b.Policy(sink)
		}
	}
}

// With the full rules plugged in, a 400 from a webhook is never retried
// and the event is dead-lettered 5 minutes later (EG-6, EG-20, EG-21) into
// the sink, as an EG-23 record.
func TestHooksCarryFullRetryAndDeadLetterRules(t *testing.T) {
	t.Parallel()
	sink := engine.NewMemorySink()
	h := newHarness(t, fullRules(sink))
	hook := newHook(t, h, fakes.Always(http.StatusBadRequest))
	h.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	h.subscribe("orders", "dl-sub", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(hook.URL()),
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				ResourceID:        to.Ptr("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct"),
				BlobContainerName: to.Ptr("dead"),
			},
		},
	})
	h.publishOne("orders")
	h.clock.Advance(5 * time.Minute)
	if n := len(h.attempts("dl-sub")); n != 1 {
		t.Fatalf("%d attempts: a 400 is never retried", n)
	}
	letters := sink.List()
	if len(letters) != 1 || !strings.HasPrefix(letters[0].Destination, "acct/dead/DL-SUB/") {
		t.Fatalf("dead letters %+v", letters)
	}
	var records []map[string]any
	if err := json.Unmarshal(letters[0].Body, &records); err != nil || len(records) != 1 {
		t.Fatalf("record %s: %v", letters[0].Body, err)
	}
	if r := records[0]; r["id"] != "e1" || r["lastDeliveryOutcome"] != "BadRequest" || r["topic"] != topicID("orders") {
		t.Fatalf("record %v", r)
	}
}

// Advanced filters (compat/eventgrid/filter) apply to deliveries, and a
// filter Azure refuses is a 400 at create.
func TestAdvancedFilters(t *testing.T) {
	t.Parallel()
	h, hook := newOrdersHarness(t)
	h.subscribe("orders", "big-orders", armeventgrid.EventSubscriptionProperties{
		Destination: webhook(hook.URL()),
		Filter: &armeventgrid.EventSubscriptionFilter{AdvancedFilters: []armeventgrid.AdvancedFilterClassification{
			&armeventgrid.NumberGreaterThanAdvancedFilter{OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeNumberGreaterThan),
				Key: to.Ptr("data.total"), Value: to.Ptr(100.0)},
			&armeventgrid.StringInAdvancedFilter{OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeStringIn),
				Key: to.Ptr("topic"), Values: []*string{to.Ptr(topicID("orders"))}},
		}},
	})
	got, err := h.topicSubs().Get(ctx(t), resourceGroup, "orders", "big-orders", nil)
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := got.Properties.Filter.AdvancedFilters[0].(*armeventgrid.NumberGreaterThanAdvancedFilter); !ok || *f.Value != 100 {
		t.Fatalf("advanced filter not echoed: %#v", got.Properties.Filter.AdvancedFilters)
	}
	order := func(id string, total int) azeventgrid.Event {
		return azeventgrid.Event{ID: to.Ptr(id), EventType: to.Ptr("Order"), Subject: to.Ptr("o"), EventTime: to.Ptr(start), Data: map[string]int{"total": total}}
	}
	if _, err := h.publisher("orders").PublishEvents(ctx(t), []azeventgrid.Event{order("small", 5), order("big", 500)}, nil); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if events := hook.Events(); len(events) != 1 || events[0].ID != "big" {
		t.Fatalf("delivered %+v, want only 'big'", events)
	}

	var many []armeventgrid.AdvancedFilterClassification
	for range 26 {
		many = append(many, &armeventgrid.IsNotNullAdvancedFilter{OperatorType: to.Ptr(armeventgrid.AdvancedFilterOperatorTypeIsNotNull), Key: to.Ptr("id")})
	}
	_, err = h.topicSubs().BeginCreateOrUpdate(ctx(t), resourceGroup, "orders", "too-many", armeventgrid.EventSubscription{
		Properties: &armeventgrid.EventSubscriptionProperties{Destination: webhook(hook.URL()),
			Filter: &armeventgrid.EventSubscriptionFilter{AdvancedFilters: many}}}, nil)
	if status, code := responseErrorCode(t, err); status != 400 || code != "InvalidRequest" {
		t.Fatalf("26 advanced filters: %d %s", status, code)
	}
}
