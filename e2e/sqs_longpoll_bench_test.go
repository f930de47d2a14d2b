package e2e

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// BenchmarkSQSLongPolls is 2,000 ReceiveMessage long polls
// (WaitTimeSeconds 20) waiting on a queue whose only message is in flight
// for 12 hours, through the SDK against the binary: the binary's resident
// memory before and while they wait, and its CPU time per second of their
// wait, measured over 8 seconds once they are all waiting. A waiting poll
// should cost memory for its request and nothing per second. Run it with
//
//	go test ./e2e -run '^$' -bench SQSLongPolls -benchtime 1x
func BenchmarkSQSLongPolls(b *testing.B) {
	const polls, window = 2000, 8 * time.Second
	proc := testbinary.Start(b)
	emu := testkit.Connect(b, proc.Endpoints["http"])
	client := emu.SQS()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url := createBenchQueue(b, client, "polled")
	if _, err := client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(url), MessageBody: aws.String("in flight")}); err != nil {
		b.Fatal(err)
	}
	got, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), VisibilityTimeout: 12 * 3600})
	if err != nil || len(got.Messages) != 1 {
		b.Fatalf("ReceiveMessage: %v", err)
	}
	idle := residentMB(b, proc)
	var wg sync.WaitGroup
	for range polls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), WaitTimeSeconds: 20})
			if err == nil && len(out.Messages) > 0 {
				b.Errorf("a poll got %d messages", len(out.Messages))
			}
		}()
	}
	time.Sleep(2 * time.Second) // the polls reach the binary
	for b.Loop() {
	}
	cpu0 := cpuSeconds(b, proc)
	time.Sleep(window) // the measurement: what waiting costs per second
	cpu := cpuSeconds(b, proc) - cpu0
	waiting := residentMB(b, proc)
	cancel()
	wg.Wait()
	b.ReportMetric(idle, "idle-RSS-MB")
	b.ReportMetric(waiting, "RSS-MB")
	b.ReportMetric(cpu*1000/window.Seconds(), "CPU-ms/s")
}
