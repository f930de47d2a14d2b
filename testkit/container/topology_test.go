package container_test

import (
	"context"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/testkit"
	"github.com/gridbridge/gridbridge/testkit/container"
)

const topologyFile = "testdata/topology.yaml"

func TestTopologyFile_InProcess(t *testing.T) {
	t.Parallel()
	topologyIsInPlace(t, testkit.Start(t, testkit.WithConfig(topologyFile)))
}

func TestTopologyFile_Container(t *testing.T) {
	t.Parallel()
	topologyIsInPlace(t, runContainer(t, container.WithTopology(topologyFile)).Emulator(t))
}

// topologyIsInPlace: the topic, subscription, bus, rule and target of the
// topology file exist when the emulator is up, with no setup calls.
func topologyIsInPlace(t *testing.T, emu *testkit.Emulator) {
	ctx := context.Background()
	_, err := emu.EventGridPublisher("orders").PublishEvents(ctx, []azeventgrid.Event{{
		ID: to.Ptr("order-1"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: map[string]int{"total": 1},
	}}, nil)
	if err != nil {
		t.Fatalf("publishing to the topology's topic: %v", err)
	}
	put, err := emu.EventBridge().PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{{
		EventBusName: aws.String("shop"), Source: aws.String("shop.orders"), DetailType: aws.String("Orders.Placed"), Detail: aws.String(`{}`),
	}}})
	if err != nil || put.FailedEntryCount != 0 {
		t.Fatalf("PutEvents to the topology's bus: %+v, %v", put, err)
	}
	emu.WaitForDeliveries(testkit.Filter{Subscription: "billing", Outcome: "Success"}, 1)
	emu.WaitForDeliveries(testkit.Filter{Rule: "all-orders", Target: "review", Outcome: "Success"}, 1)
	if msgs := emu.SQSMessages("arn:aws:sqs:us-east-1:000000000000:review"); len(msgs) != 1 {
		t.Fatalf("review queue holds %d messages, want 1", len(msgs))
	}
}
