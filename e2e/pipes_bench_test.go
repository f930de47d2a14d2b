package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/pipes"
	pipetypes "github.com/aws/aws-sdk-go-v2/service/pipes/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// BenchmarkPipeSQSToSQS measures an EventBridge pipe from one queue of the
// binary's own SQS to another: SendMessageBatch to the source, the pipe
// (batches of 10, no window) to the target, ReceiveMessage and
// DeleteMessageBatch there; beside it, in the same run and on the same
// binary, SendMessageBatch → ReceiveMessage on a queue of its own (the
// baseline). It reports both rates and the binary's CPU time per event of
// each (user and system, from /proc), so what the pipe adds shows apart
// from the SDK clients, which run in the test's process. Run it with
//
//	go test ./e2e -run '^$' -bench PipeSQSToSQS -benchtime 20000x -cpu 2
func BenchmarkPipeSQSToSQS(b *testing.B) {
	proc := testbinary.Start(b)
	emu := testkit.Connect(b, proc.Endpoints["http"], testkit.AsConfigured())
	ctx := context.Background()
	client := emu.SQS()
	direct := createBenchQueue(b, client, "direct")
	src := createBenchQueue(b, client, "pipe-src")
	dst := createBenchQueue(b, client, "pipe-dst")
	arn := func(name string) string {
		return "arn:aws:sqs:" + testkit.AWSRegion + ":" + testkit.AWSAccount + ":" + name
	}
	if _, err := emu.Pipes().CreatePipe(ctx, &pipes.CreatePipeInput{
		Name: aws.String("bench"), RoleArn: aws.String(testkit.PipeRole), Source: aws.String(arn("pipe-src")), Target: aws.String(arn("pipe-dst")),
		SourceParameters: &pipetypes.PipeSourceParameters{SqsQueueParameters: &pipetypes.PipeSourceSqsQueueParameters{BatchSize: aws.Int32(10)}},
		TargetParameters: &pipetypes.PipeTargetParameters{InputTemplate: aws.String("<$.body>")},
	}); err != nil {
		b.Fatal(err)
	}
	batch := make([]sqstypes.SendMessageBatchRequestEntry, 10)
	for i := range batch {
		batch[i] = sqstypes.SendMessageBatchRequestEntry{Id: aws.String(fmt.Sprint("m", i)), MessageBody: aws.String(`{"order":{"id":"o-1","total":12.5}}`)}
	}
	sendTo := func(url string) func() error {
		return func() error {
			out, err := client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(url), Entries: batch})
			if err == nil && len(out.Failed) > 0 {
				err = fmt.Errorf("%d entries failed", len(out.Failed))
			}
			return err
		}
	}
	events := float64((b.N + 9) / 10 * 10)
	b.ResetTimer()
	cpu0 := cpuSeconds(b, proc)
	baseline := pipeline(b, client, direct, b.N, sendTo(direct))
	cpu1 := cpuSeconds(b, proc)
	rate := pipeline(b, client, dst, b.N, sendTo(src))
	cpu2 := cpuSeconds(b, proc)
	b.StopTimer()
	if m := emu.PipeMetrics("bench"); m.Delivered != uint64(events) || m.Received != m.Delivered {
		b.Fatalf("the pipe delivered %d of %d events: %+v", m.Delivered, int(events), m)
	}
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(baseline, "baseline-events/s")
	b.ReportMetric((cpu2-cpu1)*1e6/events, "emulator-CPU-µs/event")
	b.ReportMetric((cpu1-cpu0)*1e6/events, "baseline-CPU-µs/event")
}
