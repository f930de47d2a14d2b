package e2e

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// Benchmarks of GridBridge's own SQS. Run them with
//
//	go test ./e2e -run '^$' -bench SQS -benchtime 20000x -cpu 2
//
// b.N is the number of events. Each pipeline has 8 senders (PutEvents or
// SendMessageBatch, 10 entries per call) and 4 consumers (ReceiveMessage of
// 10, DeleteMessageBatch), through the SDKs over loopback HTTP.

// realClock runs a benchmark's emulator on the real clock: on the virtual
// clock, a delivery that a loaded machine slows past the settle bound is
// retried at a time that never comes.
var realClock = testkit.WithRealClock()

const (
	benchSenders   = 8
	benchConsumers = 4
)

// BenchmarkSQSPutEventsToReceive measures events/s from PutEvents through a
// rule into an embedded queue and out through ReceiveMessage and
// DeleteMessageBatch, beside SendMessageBatch → ReceiveMessage on a queue of
// the same emulator in the same run (the baseline), and reports the ratio.
func BenchmarkSQSPutEventsToReceive(b *testing.B) {
	emu := testkit.Start(b, realClock)
	benchPutEventsToReceive(b, emu, emu.SQS(), "")
}

// benchPutEventsToReceive runs the PutEvents → rule → queue pipeline on
// queues "via-rule"+suffix and "direct"+suffix of client's server against
// the SendMessageBatch baseline, and reports both rates and their ratio.
func benchPutEventsToReceive(b *testing.B, emu *testkit.Emulator, client *sqs.Client, suffix string) {
	ctx := context.Background()
	viaRule := createBenchQueue(b, client, "via-rule"+suffix)
	direct := createBenchQueue(b, client, "direct"+suffix)
	eb := emu.EventBridge()
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("bench"), EventPattern: aws.String(`{"source":["bench"]}`)}); err != nil {
		b.Fatal(err)
	}
	if _, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("bench"), Targets: []ebtypes.Target{
		{Id: aws.String("q"), Arn: aws.String("arn:aws:sqs:" + testkit.AWSRegion + ":" + testkit.AWSAccount + ":via-rule" + suffix)},
	}}); err != nil {
		b.Fatal(err)
	}
	entries := make([]ebtypes.PutEventsRequestEntry, 10)
	batch := make([]sqstypes.SendMessageBatchRequestEntry, 10)
	for i := range entries {
		entries[i] = ebtypes.PutEventsRequestEntry{Source: aws.String("bench"), DetailType: aws.String("Tick"), Detail: aws.String(`{"order":{"id":"o-1","total":12.5}}`)}
		batch[i] = sqstypes.SendMessageBatchRequestEntry{Id: aws.String(fmt.Sprint("m", i)), MessageBody: aws.String(`{"order":{"id":"o-1","total":12.5}}`)}
	}
	b.ResetTimer()
	baseline := pipeline(b, client, direct, b.N, func() error {
		out, err := client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(direct), Entries: batch})
		if err == nil && len(out.Failed) > 0 {
			err = fmt.Errorf("%d entries failed", len(out.Failed))
		}
		return err
	})
	rate := pipeline(b, client, viaRule, b.N, func() error {
		out, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: entries})
		if err == nil && out.FailedEntryCount > 0 {
			err = fmt.Errorf("%d entries failed", out.FailedEntryCount)
		}
		return err
	})
	b.StopTimer()
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(baseline, "baseline-events/s")
	b.ReportMetric(rate/baseline, "ratio")
	reportRetries(b, emu)
}

// reportRetries reports the delivery retries of the run: a send the SQS
// server failed waits out EventBridge's back-off, which the rate shows.
func reportRetries(b *testing.B, emu *testkit.Emulator) {
	var retries uint64
	for _, m := range emu.Metrics().Routes {
		retries += m.Retries
	}
	b.ReportMetric(float64(retries), "retries")
}

func createBenchQueue(b *testing.B, client *sqs.Client, name string) string {
	out, err := client.CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String(name)})
	if err != nil {
		b.Fatal(err)
	}
	return aws.ToString(out.QueueUrl)
}

// pipeline sends n messages (rounded up to whole calls of 10) with send from
// benchSenders goroutines while benchConsumers goroutines receive and delete
// them, and returns the messages per second from the first send to the last
// delete.
func pipeline(b *testing.B, client *sqs.Client, url string, n int, send func() error) float64 {
	rate, _ := countedPipeline(b, client, url, n, send)
	return rate
}

// countedPipeline is pipeline that also returns how many requests the
// clients made (sends, receives, empty or not, and deletes), which a bare
// server's baseline answers as many of.
//
// The consumers receive with a visibility timeout of 5 s and count each
// message id once: aws-sdk-go-v2 now and then drops a connection while it
// reads a receive's answer (its request-body close races net/http's
// writer) and retries, so those messages come back only once their
// visibility timeout ends; 30 s of it would stall the run.
func countedPipeline(b *testing.B, client *sqs.Client, url string, n int, send func() error) (rate float64, requests int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	calls := (n + 9) / 10
	total := int64(calls * 10)
	var next, consumed, errs, requestsMade atomic.Int64
	var seenMu sync.Mutex
	seen := make(map[string]bool, total)
	var wg sync.WaitGroup
	start := time.Now()
	for range benchSenders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(calls) {
				requestsMade.Add(1)
				if err := send(); err != nil {
					b.Error(err)
					cancel()
					return
				}
			}
		}()
	}
	for range benchConsumers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for consumed.Load() < total && ctx.Err() == nil {
				requestsMade.Add(1)
				out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 5})
				if err != nil {
					// An SQS server may drop a keep-alive connection under a
					// long poll; that costs a retry, not the run.
					if ctx.Err() == nil && errs.Add(1) > 100 {
						b.Error(err)
						return
					}
					continue
				}
				if len(out.Messages) == 0 {
					continue
				}
				del := make([]sqstypes.DeleteMessageBatchRequestEntry, len(out.Messages))
				for i, m := range out.Messages {
					del[i] = sqstypes.DeleteMessageBatchRequestEntry{Id: aws.String(fmt.Sprint(i)), ReceiptHandle: m.ReceiptHandle}
				}
				requestsMade.Add(1)
				if _, err := client.DeleteMessageBatch(ctx, &sqs.DeleteMessageBatchInput{QueueUrl: aws.String(url), Entries: del}); err != nil {
					b.Error(err)
					return
				}
				fresh := int64(0)
				seenMu.Lock()
				for _, m := range out.Messages {
					if id := aws.ToString(m.MessageId); !seen[id] {
						seen[id] = true
						fresh++
					}
				}
				seenMu.Unlock()
				if consumed.Add(fresh) >= total {
					cancel() // wakes the other consumers' long polls
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if got := consumed.Load(); got != total {
		b.Fatalf("consumed %d of %d messages", got, total)
	}
	return float64(total) / elapsed.Seconds(), requestsMade.Load()
}

// BenchmarkSQSReceiveReady measures one ReceiveMessage (through the SDK over
// loopback HTTP) when messages are ready, and reports its p50 beside the
// p50 of GetQueueUrl, the cheapest call of the same API, as a baseline.
func BenchmarkSQSReceiveReady(b *testing.B) {
	emu := testkit.Start(b, realClock)
	ctx := context.Background()
	client := emu.SQS()
	url := createBenchQueue(b, client, "ready")
	batch := make([]sqstypes.SendMessageBatchRequestEntry, 10)
	for i := range batch {
		batch[i] = sqstypes.SendMessageBatchRequestEntry{Id: aws.String(fmt.Sprint("m", i)), MessageBody: aws.String(`{"n":1}`)}
	}
	for i := 0; i < b.N; i += 10 {
		if _, err := client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(url), Entries: batch}); err != nil {
			b.Fatal(err)
		}
	}
	receive := make([]time.Duration, 0, b.N)
	lookup := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 1})
		receive = append(receive, time.Since(t0))
		if err != nil || len(out.Messages) != 1 {
			b.Fatalf("ReceiveMessage: %v, %d messages", err, len(out.Messages))
		}
		t0 = time.Now()
		if _, err := client.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("ready")}); err != nil {
			b.Fatal(err)
		}
		lookup = append(lookup, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(float64(p50(receive).Microseconds())/1000, "receive-p50-ms")
	b.ReportMetric(float64(p50(lookup).Microseconds())/1000, "baseline-p50-ms")
}

func p50(d []time.Duration) time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

// BenchmarkSQSExternalPutEventsToReceive measures the --sqs-endpoint path:
// PutEvents through a rule into a queue of an external SQS server (fauxqs
// under scripts/test.sh), read back with ReceiveMessage/DeleteMessageBatch,
// beside SendMessageBatch → ReceiveMessage on the same server in the same
// run (the baseline), and reports the ratio.
func BenchmarkSQSExternalPutEventsToReceive(b *testing.B) {
	endpoint := testenv.SQSEndpoint(b)
	emu := testkit.Start(b, realClock, testkit.WithSQSEndpoint(endpoint))
	// emu.SQS() points at the external server.
	benchPutEventsToReceive(b, emu, emu.SQS(), fmt.Sprint("-", time.Now().UnixNano()))
}
