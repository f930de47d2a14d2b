package testkit_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/pipes"
	"github.com/aws/aws-sdk-go-v2/service/pipes/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/testkit"
)

func TestCreatePipeAndWaitForItsDeliveries(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	c := emu.SQS()
	var in string
	for _, name := range []string{"pipe-in", "pipe-out"} {
		q, err := c.CreateQueue(t.Context(), &sqs.CreateQueueInput{QueueName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		if in == "" {
			in = aws.ToString(q.QueueUrl)
		}
	}
	src := "arn:aws:sqs:us-east-1:" + testkit.AWSAccount + ":pipe-in"
	out := "arn:aws:sqs:us-east-1:" + testkit.AWSAccount + ":pipe-out"
	p := emu.CreatePipe("copy", src, out, func(in *pipes.CreatePipeInput) {
		in.TargetParameters = &types.PipeTargetParameters{InputTemplate: aws.String("<$.body>")}
	})
	if p.CurrentState != types.PipeStateRunning {
		t.Fatalf("the pipe is %s: %s", p.CurrentState, aws.ToString(p.StateReason))
	}
	emu.AddFault(testkit.Fault{Match: testkit.PipeFilter("copy", "target").Labels, Status: 500, Count: 1})
	for _, b := range []string{"a", "b"} {
		if _, err := c.SendMessage(t.Context(), &sqs.SendMessageInput{QueueUrl: aws.String(in), MessageBody: aws.String(b)}); err != nil {
			t.Fatal(err)
		}
	}
	emu.Settle()
	emu.Advance(30 * time.Second) // "a", failed, comes back after the queue's visibility timeout
	entries := emu.WaitForPipeDeliveries("copy", 2)
	if len(entries) == 0 {
		t.Fatal("no deliveries")
	}
	if got := emu.ReceiveSQSMessages(emu.SQSQueueURL("pipe-out"), 2); len(got) != 2 {
		t.Fatalf("the target queue holds %d messages", len(got))
	}
	m := emu.PipeMetrics("copy")
	if m.Received != 2 || m.Delivered != 2 || m.Redeliveries != 1 {
		t.Fatalf("metrics %+v", m)
	}
}
