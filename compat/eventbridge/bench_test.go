package eventbridge_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// BenchmarkPutEventsToDelivery measures events per second from PutEvents
// (10 entries per call, through the SDK over HTTP, from parallel clients)
// to a completed delivery on a captured Lambda target.
func BenchmarkPutEventsToDelivery(b *testing.B) {
	h := newHarness(b)
	putRule(b, h, "r", "", orderPattern)
	putTargets(b, h, "r", types.Target{Id: aws.String("fn"), Arn: aws.String("arn:aws:lambda:us-east-1:123456789012:function:f")})
	batch := make([]types.PutEventsRequestEntry, 10)
	for i := range batch {
		batch[i] = entry(`{"order":{"id":"o-1","total":12.5,"items":["a","b"]}}`)
	}
	var sent atomic.Int64
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		c := ctx(b)
		for pb.Next() {
			out, err := h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: batch})
			if err != nil || out.FailedEntryCount != 0 {
				b.Error(err)
				return
			}
			sent.Add(int64(len(batch)))
		}
	})
	h.settle()
	elapsed := time.Since(start)
	b.StopTimer()
	delivered := h.engine.Journal().Stats().Counts[engine.KindDelivered]
	if int64(delivered) != sent.Load() {
		b.Fatalf("delivered %d of %d events", delivered, sent.Load())
	}
	b.ReportMetric(float64(sent.Load())/elapsed.Seconds(), "events/s")
}
