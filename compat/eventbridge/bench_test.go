package eventbridge_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// BenchmarkPutEventsToDelivery measures events per second from PutEvents
// (10 entries per call, through the SDK over HTTP, from 16 concurrent
// clients) to a completed delivery on a captured Lambda target, then, in the
// same run, a bare net/http loop posting the same request body from as
// many goroutines to a handler that only reads it. Target: ≥ 100,000
// events/s on 2 cores.
func BenchmarkPutEventsToDelivery(b *testing.B) {
	const clients = 16
	h := newHarness(b)
	putRule(b, h, "r", "", orderPattern)
	putTargets(b, h, "r", types.Target{Id: aws.String("fn"), Arn: aws.String("arn:aws:lambda:us-east-1:123456789012:function:f")})
	batch := make([]types.PutEventsRequestEntry, 10)
	for i := range batch {
		batch[i] = entry(`{"order":{"id":"o-1","total":12.5,"items":["a","b"]}}`)
	}
	// Enough idle connections for every client: the httptest client keeps
	// Go's default of 2, and the rest would dial per call.
	tr := h.Server.Client().Transport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = clients
	client := ebsdk.New(ebsdk.Options{
		BaseEndpoint: aws.String(h.Server.URL), Region: region, RetryMaxAttempts: 1,
		Credentials: credentials.NewStaticCredentialsProvider(account, "secret", ""),
		HTTPClient:  &http.Client{Transport: tr},
	})
	var sent atomic.Int64
	b.SetParallelism(clients / runtime.GOMAXPROCS(0))
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		c := ctx(b)
		for pb.Next() {
			out, err := client.PutEvents(c, &ebsdk.PutEventsInput{Entries: batch})
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
	delivered := h.Engine.Journal().Stats().Counts[engine.KindDelivered]
	if int64(delivered) != sent.Load() {
		b.Fatalf("delivered %d of %d events", delivered, sent.Load())
	}
	rate := float64(sent.Load()) / elapsed.Seconds()
	bare := bareRate(b, int(sent.Load())/len(batch), clients, len(batch))
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(bare, "bare-events/s")
	b.ReportMetric(rate/bare, "ratio")
}

// bareRate posts calls PutEvents-sized bodies from clients goroutines to a
// bare net/http handler that reads them, and returns the events per second
// that makes at perCall events a call.
func bareRate(b *testing.B, calls, clients, perCall int) float64 {
	body := []byte(`{"Entries":[` + strings.TrimSuffix(strings.Repeat(`{"Source":"shop","DetailType":"OrderPlaced","Detail":"{\"order\":{\"id\":\"o-1\",\"total\":12.5,\"items\":[\"a\",\"b\"]}}"},`, perCall), ",") + `]}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write([]byte(`{"FailedEntryCount":0}`))
	}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(calls) {
				resp, err := client.Post(srv.URL, "application/x-amz-json-1.1", bytes.NewReader(body))
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	return float64(calls*perCall) / time.Since(start).Seconds()
}
