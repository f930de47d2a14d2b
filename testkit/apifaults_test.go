package testkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/scheduler"
	schedtypes "github.com/aws/aws-sdk-go-v2/service/scheduler/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/testkit"
)

func putOneEvent(ctx context.Context, eb *eventbridge.Client) error {
	_, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
		{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"id":1}`)},
	}})
	return err
}

// TestThrottledPutEventsIsSeenAsThrottlingException: with the SDK's
// retries off, an injected ThrottlingException reaches the caller as that
// code with AWS's status; the fault then expires and the next call is
// served. The failed call is journalled.
func TestThrottledPutEventsIsSeenAsThrottlingException(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := testkit.Start(t)
	emu.InjectAPIError(testkit.APIFault{Service: "events", Operation: "PutEvents", Error: "ThrottlingException", Count: 1})
	eb := emu.EventBridge() // one attempt per call
	err := putOneEvent(ctx, eb)
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "ThrottlingException" {
		t.Fatalf("PutEvents error = %v, want ThrottlingException", err)
	}
	var respErr *awshttp.ResponseError
	if !errors.As(err, &respErr) || respErr.HTTPStatusCode() != http.StatusBadRequest {
		t.Fatalf("PutEvents error = %#v, want HTTP 400", err)
	}
	if err := putOneEvent(ctx, eb); err != nil {
		t.Fatalf("PutEvents after the fault expired: %v", err)
	}
	calls, err := emu.Inspector().Entries(ctx, testkit.KindAPIFault, testkit.Filter{Labels: map[string]string{"service": "events"}})
	if err != nil || len(calls.Entries) != 1 || calls.Entries[0].Outcome != "ThrottlingException" || calls.Entries[0].Labels["operation"] != "PutEvents" {
		t.Fatalf("journalled API faults = %+v, %v", calls.Entries, err)
	}
	if left := emu.APIFaults(); len(left) != 0 {
		t.Fatalf("faults left after their count: %+v", left)
	}
}

// TestThrottledPutEventsIsRetriedByTheSDK: with retries on, the SDK's own
// standard retryer takes ThrottlingException as retryable and the call
// succeeds on its third attempt. Only its back-off is set to zero, so the
// test does not wait it out in real time.
func TestThrottledPutEventsIsRetriedByTheSDK(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := testkit.Start(t)
	emu.InjectAPIError(testkit.APIFault{Service: "events", Operation: "PutEvents", Error: "ThrottlingException", Count: 2})
	cfg := emu.AWSConfig()
	cfg.RetryMaxAttempts = 0
	cfg.Retryer = func() aws.Retryer {
		return retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = 3
			o.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
		})
	}
	if err := putOneEvent(ctx, eventbridge.NewFromConfig(cfg)); err != nil {
		t.Fatalf("PutEvents with retries: %v", err)
	}
	calls := emu.Journal(testkit.Filter{Labels: map[string]string{"service": "events", "operation": "PutEvents"}})
	if len(calls) != 2 {
		t.Fatalf("journalled %d failed calls, want the 2 the SDK retried: %+v", len(calls), calls)
	}
}

// TestSQSAndARMFaultsAnswerInTheirShapes: SQS answers an injected error
// in its JSON protocol, ARM with its error body and x-ms-error-code, and
// a fault stays until removed when it has no count.
func TestSQSAndARMFaultsAnswerInTheirShapes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := testkit.Start(t)
	queue := emu.CreateQueue("orders")
	f := emu.InjectAPIError(testkit.APIFault{Service: "sqs", Operation: "ReceiveMessage", Error: "InternalError"})
	for range 2 {
		_, err := emu.SQS().ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(queue.URL)})
		var apiErr smithy.APIError
		var respErr *awshttp.ResponseError
		if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "InternalError" || !errors.As(err, &respErr) || respErr.HTTPStatusCode() != 500 {
			t.Fatalf("ReceiveMessage error = %v, want InternalError 500", err)
		}
	}
	if _, err := emu.SQS().SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(queue.URL), MessageBody: aws.String("x")}); err != nil {
		t.Fatalf("SendMessage, which no fault names: %v", err)
	}
	if got := emu.APIFaults(); len(got) != 1 || got[0].ID != f.ID || got[0].Used != 2 {
		t.Fatalf("API faults = %+v", got)
	}
	emu.RemoveAPIFault(f.ID)
	if _, err := emu.SQS().ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(queue.URL)}); err != nil {
		t.Fatalf("ReceiveMessage after the fault was removed: %v", err)
	}

	emu.InjectAPIError(testkit.APIFault{Service: "arm", Operation: "put topics", Status: 429, Count: 1})
	_, err := emu.ARM().NewTopicsClient().BeginCreateOrUpdate(ctx, testkit.ResourceGroup, "orders",
		armeventgrid.Topic{Location: to.Ptr("westus")}, nil)
	var azErr *azcore.ResponseError
	if !errors.As(err, &azErr) || azErr.StatusCode != 429 || azErr.ErrorCode != "TooManyRequests" {
		t.Fatalf("topic PUT error = %v, want 429 TooManyRequests", err)
	}
	emu.CreateTopic("orders", nil) // the fault is spent
}

func TestAPIFaultsRefuseBadInput(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	for body, want := range map[string]string{
		`{"service":"lambda","error":"X"}`:              `"service" must be one of`,
		`{"service":"events"}`:                          `needs an "error" code`,
		`{"service":"arm","operation":"PUT topics"}`:    `needs a "status"`,
		`{"service":"events","error":"X","status":200}`: `from 400 to 599`,
		`{"service":"events","error":"X","count":-1}`:   `"count"`,
		`{"service":"events","error":"X","unknown":1}`:  `unknown`,
	} {
		req, _ := http.NewRequest(http.MethodPost, emu.URL()+"/_emulator/api-faults", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var answer struct {
			Error struct{ Message string } `json:"error"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&answer)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(answer.Error.Message, want) {
			t.Errorf("%s: %d %q, want 400 saying %s", body, resp.StatusCode, answer.Error.Message, want)
		}
	}
}

// TestSchedulerFaultAnswersInRESTJSON: Scheduler, a REST API, names its
// operations by route; a fault on CreateSchedule leaves GetSchedule alone.
func TestSchedulerFaultAnswersInRESTJSON(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := testkit.Start(t)
	q := emu.CreateQueue("ticks")
	emu.InjectAPIError(testkit.APIFault{Service: "scheduler", Operation: "CreateSchedule", Error: "ServiceQuotaExceededException", Status: 402, Count: 1})
	target := testkit.ScheduleTarget(q.ARN, "")
	_, err := emu.Scheduler().CreateSchedule(ctx, &scheduler.CreateScheduleInput{Name: aws.String("tick"), ScheduleExpression: aws.String("rate(1 minute)"),
		FlexibleTimeWindow: &schedtypes.FlexibleTimeWindow{Mode: schedtypes.FlexibleTimeWindowModeOff}, Target: &target})
	var quota *schedtypes.ServiceQuotaExceededException
	if !errors.As(err, &quota) {
		t.Fatalf("CreateSchedule = %v, want the SDK's ServiceQuotaExceededException", err)
	}
	emu.CreateSchedule("tick", "rate(1 minute)", target)
	if _, err := emu.Scheduler().GetSchedule(ctx, &scheduler.GetScheduleInput{Name: aws.String("tick")}); err != nil {
		t.Fatal(err)
	}
}

// TestEventGridPublishFaultAnswersInItsShape: a 503 on publish reaches
// azeventgrid as a ResponseError with Event Grid's code; the next publish
// is accepted and delivered.
func TestEventGridPublishFaultAnswersInItsShape(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := testkit.Start(t)
	emu.CreateTopic("orders", nil)
	emu.InjectAPIError(testkit.APIFault{Service: "eventgrid", Operation: "publish", Status: 503, Count: 1})
	publish := func() error {
		_, err := emu.EventGridPublisher("orders").PublishEvents(ctx, []azeventgrid.Event{{
			ID: to.Ptr("1"), EventType: to.Ptr("Order.Placed"), Subject: to.Ptr("orders/1"),
			DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: map[string]int{"total": 42},
		}}, nil)
		return err
	}
	var azErr *azcore.ResponseError
	if err := publish(); !errors.As(err, &azErr) || azErr.StatusCode != 503 || azErr.ErrorCode != "ServiceUnavailable" {
		t.Fatalf("publish = %v, want 503 ServiceUnavailable", err)
	}
	if err := publish(); err != nil {
		t.Fatalf("publish after the fault: %v", err)
	}
}
