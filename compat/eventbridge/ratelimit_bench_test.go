package eventbridge_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// BenchmarkAPIDestinationRateLimit sends 3,500 events at an API destination
// limited to 300 invocations a second, and beside it the same with no
// practical limit (the baseline). It reports the most invocations any one
// second of the emulator clock saw, the clock seconds the burst took, and
// real events per second, so the cost of pacing is the ratio of the two
// runs' events/s.
func BenchmarkAPIDestinationRateLimit(b *testing.B) {
	for _, limit := range []int32{300, 1 << 30} {
		name := fmt.Sprint("limit=", limit)
		if limit == 1<<30 {
			name = "limit=none(baseline)"
		}
		b.Run(name, func(b *testing.B) {
			var hits atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1) }))
			b.Cleanup(srv.Close)
			worst, clockSeconds, total := 0, 0.0, 0
			start := time.Now()
			for range b.N {
				h := newHarness(b)
				c := ctx(b)
				conn := must[*ebsdk.CreateConnectionOutput](b)(h.client.CreateConnection(c, &ebsdk.CreateConnectionInput{
					Name: aws.String("key"), AuthorizationType: types.ConnectionAuthorizationTypeApiKey,
					AuthParameters: &types.CreateConnectionAuthRequestParameters{ApiKeyAuthParameters: &types.CreateConnectionApiKeyAuthRequestParameters{
						ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("k")}},
				}))
				dest := must[*ebsdk.CreateApiDestinationOutput](b)(h.client.CreateApiDestination(c, &ebsdk.CreateApiDestinationInput{
					Name: aws.String("d"), ConnectionArn: conn.ConnectionArn, InvocationEndpoint: aws.String(srv.URL),
					HttpMethod: types.ApiDestinationHttpMethodPost, InvocationRateLimitPerSecond: aws.Int32(limit),
				}))
				putRule(b, h, "r", "", orderPattern)
				putTargets(b, h, "r", types.Target{Id: aws.String("d"), Arn: dest.ApiDestinationArn})
				batch := make([]types.PutEventsRequestEntry, 10)
				for i := range batch {
					batch[i] = entry(`{"n":1}`)
				}
				for range 350 {
					must[*ebsdk.PutEventsOutput](b)(h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: batch}))
				}
				h.settle()
				for h.Engine.Journal().Stats().Counts[engine.KindDelivered] < 3500 {
					h.Clock.Advance(time.Second)
				}
				perSecond := map[int64]int{}
				first, last := time.Time{}, time.Time{}
				for _, e := range h.Engine.Journal().Query(engine.Filter{Kind: engine.KindAttempt}) {
					perSecond[e.Time.Unix()]++
					if first.IsZero() {
						first = e.Time
					}
					last = e.Time
				}
				for _, n := range perSecond {
					worst = max(worst, n)
				}
				clockSeconds += last.Sub(first).Seconds()
				total += 3500
			}
			b.ReportMetric(float64(worst), "max-invocations/clock-s")
			b.ReportMetric(clockSeconds/float64(b.N), "clock-s/op")
			b.ReportMetric(float64(total)/time.Since(start).Seconds(), "events/s")
		})
	}
}
