package testkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/testkit"
)

// webhook is an Event Grid webhook that answers the validation handshake
// and then each delivery with the next of statuses (the last one again
// when they run out).
func webhook(statuses ...int) *httptest.Server {
	var mu sync.Mutex
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("aeg-event-type") == "SubscriptionValidation" {
			var events []struct {
				Data struct {
					ValidationCode string `json:"validationCode"`
				} `json:"data"`
			}
			_ = json.NewDecoder(r.Body).Decode(&events)
			_ = json.NewEncoder(w).Encode(map[string]string{"validationResponse": events[0].Data.ValidationCode})
			return
		}
		mu.Lock()
		status := statuses[0]
		if len(statuses) > 1 {
			statuses = statuses[1:]
		}
		mu.Unlock()
		w.WriteHeader(status)
	}))
}

func publishOrder(emu *testkit.Emulator, topic, id string) {
	_, err := emu.EventGridPublisher(topic).PublishEvents(context.Background(), []azeventgrid.Event{{
		ID: to.Ptr(id), EventType: to.Ptr("Order.Placed"), Subject: to.Ptr("orders/" + id),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: map[string]int{"total": 42},
	}}, nil)
	if err != nil {
		panic(err)
	}
}

// An Event Grid webhook answers 503, then 200: Event Grid retries a 503
// after 30 seconds (EG-7), which Advance makes pass at once.
func Example_retryThenDeliver() {
	emu, err := testkit.New()
	if err != nil {
		panic(err)
	}
	defer emu.Close()
	hook := webhook(503, 200)
	defer hook.Close()

	emu.CreateTopic("orders", nil)
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL),
	})
	publishOrder(emu, "orders", "1")

	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit", Outcome: "Busy"}, 1)
	emu.Advance(30 * time.Second)
	for _, a := range emu.WaitForDeliveries(testkit.Filter{Subscription: "audit", Outcome: "Success"}, 1) {
		fmt.Println("delivered on attempt", a.Attempt, "after", a.Time.Sub(testkit.DefaultStart()))
	}
	// Output: delivered on attempt 2 after 30s
}

// A webhook that always answers 400 makes Event Grid give up at once
// (EG-6); the dead letter is written to the subscription's blob container
// five minutes later (EG-21), in the emulator's own store when no Azure
// Storage is configured.
func Example_deadLetter() {
	emu, err := testkit.New()
	if err != nil {
		panic(err)
	}
	defer emu.Close()
	hook := webhook(400)
	defer hook.Close()

	emu.CreateTopic("orders", nil)
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL),
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				ResourceID: to.Ptr(testkit.StorageAccountID("devstoreaccount1")), BlobContainerName: to.Ptr("dead"),
			},
		},
	})
	publishOrder(emu, "orders", "7")

	emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 1)
	emu.Advance(5 * time.Minute)
	for _, r := range emu.WaitForEventGridDeadLetters(testkit.Filter{Subscription: "audit"}, 1) {
		fmt.Println(r.ID, r.DeadLetterReason, r.LastDeliveryOutcome, r.LastHTTPStatusCode)
	}
	// Output: 7 UndeliverableDueToClientError BadRequest 400
}

// An EventBridge rule sends matching events to an SQS queue, where a
// consumer receives them with the SQS SDK.
func Example_ruleToQueue() {
	emu, err := testkit.New()
	if err != nil {
		panic(err)
	}
	defer emu.Close()
	ctx := context.Background()

	billing := emu.CreateQueue("billing")
	emu.CreateRule("", "big-orders", `{"detail-type":["OrderPlaced"],"detail":{"total":[{"numeric":[">",100]}]}}`,
		testkit.SQSTarget("billing", billing.ARN))

	_, err = emu.EventBridge().PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
		{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"id":"a","total":250}`)},
		{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"id":"b","total":5}`)},
	}})
	if err != nil {
		panic(err)
	}

	for _, m := range emu.WaitForSQSMessages(billing.URL, 1) {
		var event struct {
			Detail struct{ ID string } `json:"detail"`
		}
		_ = json.Unmarshal([]byte(aws.ToString(m.Body)), &event)
		fmt.Println("billing order", event.Detail.ID)
		_, _ = emu.SQS().DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(billing.URL), ReceiptHandle: m.ReceiptHandle})
	}
	// Output: billing order a
}

// An EventBridge Scheduler schedule fires on the virtual clock: three
// minutes of a rate(1 minute) schedule pass in one Advance.
func Example_scheduleFiring() {
	emu, err := testkit.New()
	if err != nil {
		panic(err)
	}
	defer emu.Close()

	ticks := emu.CreateQueue("ticks")
	emu.CreateSchedule("tick", "rate(1 minute)", testkit.ScheduleTarget(ticks.ARN, `{"tick":true}`))
	emu.Advance(3 * time.Minute)

	firings := emu.WaitForScheduleFirings("default", "tick", 3)
	fmt.Println(len(firings), "firings, the first at", firings[0].Time.Sub(testkit.DefaultStart()))
	fmt.Println(len(emu.WaitForSQSMessages(ticks.URL, 3)), "messages")
	// Output:
	// 3 firings, the first at 1m0s
	// 3 messages
}

// PutEvents answers ThrottlingException for the next call, in
// EventBridge's own error shape: what the SDK (with its retries off, as
// the testkit's clients have them) hands the caller's retry code.
func Example_injectedThrottle() {
	emu, err := testkit.New()
	if err != nil {
		panic(err)
	}
	defer emu.Close()
	ctx := context.Background()

	emu.InjectAPIError(testkit.APIFault{Service: "events", Operation: "PutEvents", Error: "ThrottlingException", Count: 1})
	put := func() error {
		_, err := emu.EventBridge().PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
			{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{}`)},
		}})
		return err
	}
	var apiErr smithy.APIError
	if err := put(); errors.As(err, &apiErr) {
		fmt.Println("first call:", apiErr.ErrorCode())
	}
	fmt.Println("second call:", put())
	// Output:
	// first call: ThrottlingException
	// second call: <nil>
}

// One emulator for every test of a package, started in TestMain with New
// and bound to each test with For:
//
//	var shared *testkit.Emulator
//
//	func TestMain(m *testing.M) {
//		emu, err := testkit.New()
//		if err != nil {
//			log.Fatal(err)
//		}
//		shared = emu
//		code := m.Run()
//		emu.Close()
//		os.Exit(code)
//	}
//
//	func TestOrders(t *testing.T) {
//		emu := shared.For(t) // failures fail t
//		emu.Reset()          // or distinct resource names per test
//		…
//	}
//
// Against a running binary or container, Dial takes New's place.
func ExampleNew() {
	emu, err := testkit.New()
	if err != nil {
		panic(err)
	}
	defer emu.Close()
	info := emu.Info()
	fmt.Println(info.Clock, "clock, jitter", info.Jitter, "probation", info.Probation)
	// Output: virtual clock, jitter false probation false
}
