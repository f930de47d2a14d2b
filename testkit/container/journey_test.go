package container_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// One test body, three emulators: in-process (testkit.Start), the binary
// started with the flags the testkit documents (testkit.Connect checks
// them), and the container with WithTestkitDefaults. It passes the same
// way in all three: exact retry times, an injected API error, a schedule.

func TestSameJourneyEverywhere_InProcess(t *testing.T) {
	t.Parallel()
	sameJourney(t, testkit.Start(t))
}

func TestSameJourneyEverywhere_Binary(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	sameJourney(t, testkit.Connect(t, proc.Endpoints["http"]))
}

// The binary started with the environment Run gives the container
// (GRIDBRIDGE_CLOCK, GRIDBRIDGE_NO_JITTER, GRIDBRIDGE_NO_PROBATION from
// WithTestkitDefaults): where no Docker engine answers, this shows the
// container's configuration is one Connect takes.
func TestSameJourneyEverywhere_ContainerEnv(t *testing.T) {
	t.Parallel()
	sameJourney(t, runBinaryWithContainerEnv(t))
}

func TestSameJourneyEverywhere_Container(t *testing.T) {
	t.Parallel()
	sameJourney(t, runContainer(t).Emulator(t))
}

// TestConnectNamesTheFlags: an emulator on the binary's default flags
// (real clock, jitter, probation) is refused at connect time, with the
// flags that make it run as Start does.
func TestConnectNamesTheFlags(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual")
	_, err := testkit.Dial(proc.Endpoints["http"])
	if err == nil || !strings.Contains(err.Error(), "--clock virtual --no-jitter --no-probation") || !strings.Contains(err.Error(), "jitters retries") {
		t.Fatalf("Dial = %v, want a refusal naming --clock virtual --no-jitter --no-probation", err)
	}
	emu, err := testkit.Dial(proc.Endpoints["http"], testkit.WithJitter(0), testkit.WithProbation())
	if err != nil {
		t.Fatalf("Dial with the options the emulator runs with: %v", err)
	}
	_ = emu.Close()
	if _, err := testkit.Dial(proc.Endpoints["http"], testkit.AsConfigured(), testkit.WithConfig("x.yaml")); err == nil || !strings.Contains(err.Error(), "--config") {
		t.Fatalf("Dial with a Start-only option = %v, want a refusal naming --config", err)
	}
}

func sameJourney(t *testing.T, emu *testkit.Emulator) {
	ctx := context.Background()

	// Event Grid: a 503 is retried 30 s later, exactly (EG-7; no jitter).
	emu.CreateTopic("orders", nil)
	emu.CreateEventSubscription("orders", "billing", armeventgrid.EventSubscriptionProperties{Destination: serviceBusQueue("billing")})
	emu.FailDeliveries(testkit.Filter{Subscription: "billing"}, 503, 1)
	if _, err := emu.EventGridPublisher("orders").PublishEvents(ctx, []azeventgrid.Event{{
		ID: to.Ptr("order-1"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: map[string]int{"total": 42},
	}}, nil); err != nil {
		t.Fatal(err)
	}
	busy := emu.WaitForDeliveries(testkit.Filter{Subscription: "billing", Outcome: "Busy"}, 1)
	emu.Advance(30 * time.Second)
	ok := emu.WaitForDeliveries(testkit.Filter{Subscription: "billing", Outcome: "Success"}, 1)
	if gap := ok[0].Time.Sub(busy[0].Time); gap != 30*time.Second {
		t.Fatalf("the retry came %v after the 503, want 30s", gap)
	}

	// EventBridge: a throttled PutEvents, then a rule's queue.
	q := emu.CreateQueue("billing")
	emu.CreateRule("", "placed", `{"detail-type":["OrderPlaced"]}`, testkit.SQSTarget("billing", q.ARN))
	emu.InjectAPIError(testkit.APIFault{Service: "events", Operation: "PutEvents", Error: "ThrottlingException", Count: 1})
	put := func() error {
		_, err := emu.EventBridge().PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
			{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"id":"o-1"}`)},
		}})
		return err
	}
	var apiErr smithy.APIError
	if err := put(); !errors.As(err, &apiErr) || apiErr.ErrorCode() != "ThrottlingException" {
		t.Fatalf("PutEvents = %v, want ThrottlingException", err)
	}
	if err := put(); err != nil {
		t.Fatal(err)
	}
	emu.WaitForTargetDeliveries("", "placed", "billing", 1)
	if got := emu.WaitForSQSMessages(q.URL, 1); len(got) != 1 {
		t.Fatalf("%d messages", len(got))
	}

	// Scheduler: a rate schedule fires each minute of virtual time.
	ticks := emu.CreateQueue("ticks")
	emu.CreateSchedule("tick", "rate(1 minute)", testkit.ScheduleTarget(ticks.ARN, `{"tick":true}`))
	emu.Advance(2 * time.Minute)
	emu.WaitForScheduleFirings("", "tick", 2)
	emu.WaitForSQSMessages(ticks.URL, 2)
}
