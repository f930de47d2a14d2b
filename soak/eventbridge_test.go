package soak

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/testkit"
)

// failingEndpoint answers 500 to every request and counts them.
func failingEndpoint(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		n.Add(1)
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// sqsEventIDs returns the "id" of every event in the in-memory queue's
// messages.
func sqsEventIDs(t *testing.T, emu *testkit.Emulator, queueARN string) []string {
	t.Helper()
	msgs := emu.SQSMessages(queueARN)
	out := make([]string, len(msgs))
	for i, m := range msgs {
		var ev struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(m.Body, &ev); err != nil {
			t.Fatalf("DLQ message %s: %v", m.Body, err)
		}
		out[i] = ev.ID
	}
	return out
}

// EB-3, EB-4: an API destination that fails every invocation, the target's
// default RetryPolicy (185 retries, 24 h) and an SQS dead-letter queue:
// every event ends in the queue exactly once.
func TestSoakEventBridgeAPIDestinationAlwaysFails(t *testing.T) {
	t.Parallel()
	emu := start(t, 0)
	endpoint, calls := failingEndpoint(t)
	ctx := context.Background()
	eb := emu.EventBridge()
	conn, err := eb.CreateConnection(ctx, &ebsdk.CreateConnectionInput{
		Name: aws.String("key"), AuthorizationType: ebtypes.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &ebtypes.CreateConnectionAuthRequestParameters{
			ApiKeyAuthParameters: &ebtypes.CreateConnectionApiKeyAuthRequestParameters{ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("s3cret")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	dest, err := eb.CreateApiDestination(ctx, &ebsdk.CreateApiDestinationInput{
		Name: aws.String("hook"), ConnectionArn: conn.ConnectionArn, InvocationEndpoint: aws.String(endpoint.URL + "/orders"),
		HttpMethod: ebtypes.ApiDestinationHttpMethodPost,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutRule(ctx, &ebsdk.PutRuleInput{Name: aws.String("placed"), EventPattern: aws.String(`{"source":["shop"]}`)}); err != nil {
		t.Fatal(err)
	}
	const dlq = "arn:aws:sqs:us-east-1:000000000000:orders-dlq"
	out, err := eb.PutTargets(ctx, &ebsdk.PutTargetsInput{Rule: aws.String("placed"), Targets: []ebtypes.Target{{
		Id: aws.String("hook"), Arn: dest.ApiDestinationArn, DeadLetterConfig: &ebtypes.DeadLetterConfig{Arn: aws.String(dlq)},
	}}})
	if err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v %v", out, err)
	}
	var all []string
	for range 2 {
		entries := make([]ebtypes.PutEventsRequestEntry, 10)
		for i := range entries {
			entries[i] = ebtypes.PutEventsRequestEntry{Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"n":1}`)}
		}
		put, err := eb.PutEvents(ctx, &ebsdk.PutEventsInput{Entries: entries})
		if err != nil || put.FailedEntryCount != 0 {
			t.Fatalf("PutEvents: %+v %v", put, err)
		}
		for _, e := range put.Entries {
			all = append(all, aws.ToString(e.EventId))
		}
	}
	f := testkit.Filter{Rule: "placed", Target: "hook"}
	accounted(t, "after PutEvents", emu.RouteMetrics(f))
	advanceUntilEnded(t, emu, f, time.Hour, 25*time.Hour)
	m := emu.RouteMetrics(f)
	if m.DeadLettered != uint64(len(all)) || m.Delivered != 0 {
		t.Fatalf("%+v, want all %d dead-lettered", m, len(all))
	}
	if calls.Load() < int64(len(all))*2 {
		t.Fatalf("the endpoint saw %d calls for %d events: retries were not made", calls.Load(), len(all))
	}
	onceEach(t, "DLQ messages", sqsEventIDs(t, emu, dlq), all)
}

// EB-1, EB-2, EB-6: a bus-v2 subscriber whose HTTP target always fails,
// with the default policy (5 retries, 300 s) and an SQS dead-letter queue.
func TestSoakEventBridgeV2SubscriberAlwaysFails(t *testing.T) {
	t.Parallel()
	emu := start(t, 0)
	endpoint, _ := failingEndpoint(t)
	v2 := v2Client{url: emu.URL()}
	var bus struct{ EventBusArn string }
	v2.call(t, "CreateEventBus", map[string]any{"Name": "orders"}, &bus)
	const dlq = "arn:aws:sqs:us-east-1:000000000000:v2-dlq"
	v2.call(t, "CreateSubscriber", map[string]any{"Name": "billing", "EventBusArn": bus.EventBusArn,
		"InvokeConfiguration": map[string]any{"TargetArn": endpoint.URL + "/billing"}, "OnFailureConfiguration": map[string]any{"Arn": dlq}}, nil)
	var all []string
	for range 20 {
		entries := make([]map[string]any, 10)
		for i := range entries {
			entries[i] = map[string]any{"EventBusArn": bus.EventBusArn, "Source": "shop", "DetailType": "OrderPlaced", "Detail": `{"n":1}`}
		}
		var out struct {
			FailedEntryCount int
			Entries          []struct{ EventId string }
		}
		v2.call(t, "PutEvents", map[string]any{"Entries": entries}, &out)
		if out.FailedEntryCount != 0 {
			t.Fatalf("PutEvents: %+v", out)
		}
		for _, e := range out.Entries {
			all = append(all, e.EventId)
		}
	}
	f := testkit.Filter{Labels: map[string]string{"api": "eventsv2", "subscriber": "billing"}}
	accounted(t, "after PutEvents", emu.RouteMetrics(f))
	advanceUntilEnded(t, emu, f, 10*time.Second, 10*time.Minute)
	if m := emu.RouteMetrics(f); m.DeadLettered != uint64(len(all)) {
		t.Fatalf("%+v, want all %d dead-lettered", m, len(all))
	}
	// A v2 record lists the failed batch's events (EB-5).
	var got []string
	for _, msg := range emu.SQSMessages(dlq) {
		var rec struct {
			FailedMessages []struct {
				EventID string `json:"eventId"`
			} `json:"failedMessages"`
		}
		if err := json.Unmarshal(msg.Body, &rec); err != nil {
			t.Fatalf("DLQ record %s: %v", msg.Body, err)
		}
		for _, fm := range rec.FailedMessages {
			got = append(got, fm.EventID)
		}
	}
	onceEach(t, "DLQ records", got, all)
}

// v2Client speaks the bus-v2 API (AWS JSON 1.1, AWSEventsV2.*), for which
// no SDK exists.
type v2Client struct{ url string }

func (c v2Client) call(t *testing.T, op string, in, out any) {
	t.Helper()
	body, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, c.url+"/", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", "AWSEventsV2."+op)
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=000000000000/20260101/us-east-1/events/aws4_request, SignedHeaders=host, Signature="+strings.Repeat("0", 64))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", op, resp.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v in %s", op, err, b)
		}
	}
}
