package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// publishToAPIDestination makes rule "all" on the default bus with an API
// destination to url as its target and puts n events on the bus.
func publishToAPIDestination(t testing.TB, emu *testkit.Emulator, url string, n int) {
	t.Helper()
	ctx := context.Background()
	eb := emu.EventBridge()
	conn, err := eb.CreateConnection(ctx, &eventbridge.CreateConnectionInput{Name: aws.String("key"), AuthorizationType: ebtypes.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &ebtypes.CreateConnectionAuthRequestParameters{
			ApiKeyAuthParameters: &ebtypes.CreateConnectionApiKeyAuthRequestParameters{ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("k")}}})
	if err != nil {
		t.Fatal(err)
	}
	api, err := eb.CreateApiDestination(ctx, &eventbridge.CreateApiDestinationInput{Name: aws.String("hook"), ConnectionArn: conn.ConnectionArn,
		InvocationEndpoint: aws.String(url), HttpMethod: ebtypes.ApiDestinationHttpMethodPost})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("all"), EventPattern: aws.String(`{"source":["shop"]}`)}); err != nil {
		t.Fatal(err)
	}
	if out, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("all"), Targets: []ebtypes.Target{{
		Id: aws.String("hook"), Arn: api.ApiDestinationArn, RoleArn: aws.String("arn:aws:iam::000000000000:role/r")}}}); err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v %v", out, err)
	}
	for i := 0; i < n; i += 10 {
		var entries []ebtypes.PutEventsRequestEntry
		for j := i; j < min(n, i+10); j++ {
			entries = append(entries, ebtypes.PutEventsRequestEntry{Source: aws.String("shop"), DetailType: aws.String("placed"), Detail: aws.String(fmt.Sprintf(`{"n":%d}`, j))})
		}
		if out, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: entries}); err != nil || out.FailedEntryCount != 0 {
			t.Fatalf("PutEvents: %+v %v", out, err)
		}
	}
}

// An hour's advance over events whose API destination never answers ends
// at +1 h having recorded every attempt's 5 s timeout on the clock, each
// event retried on EventBridge's schedule. (The wall time is in
// BenchmarkEventBridgeAdvanceOverHangingAPIDestination.)
func TestEventBridgeHangingAPIDestinationTimesOutEveryAttemptOverAnHour(t *testing.T) {
	t.Parallel()
	emu := startDefaultSettle(t)
	hook := fakes.NewWebhook(t, fakes.NoAnswer())
	start := emu.Now()
	publishToAPIDestination(t, emu, hook.URL(), hangingEvents)

	if now := emu.Advance(time.Hour); !now.Equal(start.Add(time.Hour)) {
		t.Fatalf("advance ended at %s, want %s", now, start.Add(time.Hour))
	}
	attempts := emu.Deliveries(testkit.Filter{Rule: "all"})
	perEvent := map[string]int{}
	for _, a := range attempts {
		if a.Outcome != "TIMEOUT" {
			t.Fatalf("attempt %+v, want every attempt TIMEOUT", a)
		}
		for _, id := range a.EventIDs {
			perEvent[id]++
		}
	}
	if len(perEvent) != hangingEvents {
		t.Fatalf("%d events attempted, want %d", len(perEvent), hangingEvents)
	}
	for id, n := range perEvent {
		// Backoff from 1 s doubling, each after a 5 s timeout: far more
		// than 5 attempts fit in the hour.
		if n < 5 {
			t.Fatalf("event %s: %d TIMEOUT attempts within the hour, want at least 5 (%d attempts in all)", id, n, len(attempts))
		}
	}
	if got := len(hook.Deliveries()); got < len(attempts) {
		t.Fatalf("the endpoint saw %d requests, fewer than the %d attempts journalled", got, len(attempts))
	}
}

// BenchmarkEventBridgeAdvanceOverHangingAPIDestination is the wall time of
// the hour's advance above, with the default settle bound, beside the same
// advance over an endpoint that answers 200 at once (the baseline).
func BenchmarkEventBridgeAdvanceOverHangingAPIDestination(b *testing.B) {
	for _, c := range []struct {
		name  string
		reply []fakes.Option
	}{{"answering", nil}, {"hanging", []fakes.Option{fakes.NoAnswer()}}} {
		for _, n := range []int{hangingEvents, 4 * hangingEvents} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					emu := startDefaultSettle(b)
					hook := fakes.NewWebhook(b, c.reply...)
					publishToAPIDestination(b, emu, hook.URL(), n)
					b.StartTimer()
					emu.Advance(time.Hour)
				}
			})
		}
	}
}

// BenchmarkAdvanceOverHangingEndpointsBinary is the same hour's advance on
// the built binary with its default flags (retry jitter and Event Grid
// probation on, --clock virtual), for both clouds: jitter starts each retry
// at an instant of its own.
func BenchmarkAdvanceOverHangingEndpointsBinary(b *testing.B) {
	for _, cloud := range []string{"eventgrid", "eventbridge"} {
		for _, n := range []int{hangingEvents, 4 * hangingEvents} {
			b.Run(fmt.Sprintf("%s/%d", cloud, n), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					proc := testbinary.Start(b, "--clock", "virtual")
					emu := testkit.Connect(b, proc.Endpoints["http"], testkit.AsConfigured())
					hook := fakes.NewWebhook(b, fakes.NoAnswer())
					if cloud == "eventgrid" {
						publishToHook(b, emu, hook.URL(), n)
					} else {
						publishToAPIDestination(b, emu, hook.URL(), n)
					}
					b.StartTimer()
					emu.Advance(time.Hour)
				}
			})
		}
	}
}
