package eventbridge_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// InvocationRateLimitPerSecond holds for an API destination across every
// target that calls it: the excess waits, queued, for later seconds of the
// emulator clock, and nothing is lost.
func TestAPIDestinationInvocationRateLimit(t *testing.T) {
	h, c := startTest(t)
	ep := newEndpoint(t)
	conn := createAPIKeyConnection(t, h)
	dest := aws.ToString(must[*ebsdk.CreateApiDestinationOutput](t)(h.client.CreateApiDestination(c, &ebsdk.CreateApiDestinationInput{
		Name: aws.String("slow"), ConnectionArn: aws.String(conn), InvocationEndpoint: aws.String(ep.URL + "/slow"),
		HttpMethod: types.ApiDestinationHttpMethodPost, InvocationRateLimitPerSecond: aws.Int32(3),
	})).ApiDestinationArn)
	for _, rule := range []string{"a", "b"} {
		putRule(t, h, rule, "", orderPattern)
		putTargets(t, h, rule, types.Target{Id: aws.String("slow"), Arn: aws.String(dest)})
	}
	entries := make([]types.PutEventsRequestEntry, 5)
	for i := range entries {
		entries[i] = entry(fmt.Sprintf(`{"n":%d}`, i))
	}
	must[*ebsdk.PutEventsOutput](t)(h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: entries}))
	h.settle()

	// Ten invocations (five events, two rules) at three a second.
	for second, want := range []int{3, 6, 9, 10, 10} {
		if got := len(ep.got("/slow")); got != want {
			t.Fatalf("after %d s: %d requests, want %d", second, got, want)
		}
		h.Clock.Advance(time.Second)
	}
	perSecond := map[int64]int{}
	for _, e := range h.entries(engine.KindAttempt, map[string]string{"target": "slow"}) {
		perSecond[e.Time.Unix()]++
	}
	for sec, n := range perSecond {
		if n > 3 {
			t.Errorf("%d attempts in the second at %d, over the limit of 3", n, sec)
		}
	}

	// A new limit applies to what comes next.
	must[*ebsdk.UpdateApiDestinationOutput](t)(h.client.UpdateApiDestination(c, &ebsdk.UpdateApiDestinationInput{
		Name: aws.String("slow"), InvocationRateLimitPerSecond: aws.Int32(10),
	}))
	must[*ebsdk.PutEventsOutput](t)(h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: entries}))
	h.settle()
	if got := len(ep.got("/slow")); got != 20 {
		t.Fatalf("at 10 a second, %d requests in all, want 20", got)
	}
}
