package topology_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/emulator/topology"
)

func TestEmulatorGetsPipes(t *testing.T) {
	t.Parallel()
	h := startEmulator(t)
	mustApply(t, h,
		"eventbridge:",
		"  buses:",
		"    - name: shop",
		"  pipes:",
		"    - name: orders",
		"      source: arn:aws:sqs:us-east-1:000000000000:orders",
		"      sourceParameters:",
		"        filterCriteria: { filters: [ { pattern: { body: { type: [order] } } } ] }",
		"        sqsQueueParameters: { batchSize: 5, maximumBatchingWindowInSeconds: 30 }",
		"      target: arn:aws:events:us-east-1:000000000000:event-bus/shop",
		"      targetParameters:",
		"        inputTemplate: { order: '<$.body.order>' }",
		"        eventBridgeEventBusParameters: { detailType: OrderPlaced, source: shop.orders }",
		"      tags: { team: shop }",
		"    - Name: paused",
		"      Source: arn:aws:sqs:us-east-1:000000000000:other",
		"      Target: arn:aws:lambda:us-east-1:000000000000:function:f",
		"      DesiredState: STOPPED",
		"      RoleArn: arn:aws:iam::000000000000:role/mine",
	)
	_, p := call(t, h, "GET", "/v1/pipes/orders", "", "")
	if p["CurrentState"] != "RUNNING" || p["RoleArn"] != "arn:aws:iam::000000000000:role/gridbridge-pipe" ||
		field(p, "SourceParameters", "SqsQueueParameters", "BatchSize") != 5.0 || field(p, "Tags", "team") != "shop" ||
		field(p, "TargetParameters", "InputTemplate") != `{"order":"<$.body.order>"}` ||
		field(p, "TargetParameters", "EventBridgeEventBusParameters", "DetailType") != "OrderPlaced" {
		t.Errorf("DescribePipe orders = %v", p)
	}
	filters, _ := field(p, "SourceParameters", "FilterCriteria", "Filters").([]any)
	if len(filters) != 1 || field(filters[0], "Pattern") != `{"body":{"type":["order"]}}` {
		t.Errorf("filters = %v", filters)
	}
	_, paused := call(t, h, "GET", "/v1/pipes/paused", "", "")
	if paused["CurrentState"] != "STOPPED" || paused["RoleArn"] != "arn:aws:iam::000000000000:role/mine" {
		t.Errorf("DescribePipe paused = %v", paused)
	}
}

func TestPipeRefusalPointsAtTheFile(t *testing.T) {
	t.Parallel()
	err := apply(t, startEmulator(t), yamlLines(
		"eventbridge:",
		"  pipes:",
		"    - name: big",
		"      source: arn:aws:sqs:us-east-1:000000000000:orders",
		"      sourceParameters: { sqsQueueParameters: { batchSize: 20000 } }",
		"      target: arn:aws:lambda:us-east-1:000000000000:function:f",
	))
	var apiErr *topology.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "ValidationException" || apiErr.Operation != "CreatePipe" ||
		!strings.Contains(apiErr.Message, "batchSize") || !strings.Contains(err.Error(), "eventbridge.pipes[0]") {
		t.Fatalf("err = %v", err)
	}
}

func TestPipeFileProblems(t *testing.T) {
	t.Parallel()
	_, err := topology.Parse("topology.yaml", []byte(yamlLines(
		"eventbridge:",
		"  pipes:",
		"    - name: a",
		"      source: not-an-arn",
		"      target: arn:aws:lambda:us-east-1:000000000000:function:f",
		"    - name: a",
		"      target: arn:aws:lambda:us-east-1:000000000000:function:f",
		"      sourceParameter: {}",
	)))
	if err == nil {
		t.Fatal("parsed")
	}
	for _, want := range []string{"topology.yaml:4: eventbridge.pipes[0].source: must be an ARN", "eventbridge.pipes[1]", "sourceParameter", "name"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the problems do not say %q:\n%v", want, err)
		}
	}
}
