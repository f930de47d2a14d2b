package testkit

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// SQS returns an SQS client for the emulator's own SQS API, which serves
// the queues EventBridge targets and dead-letter queues write to. With
// --sqs-endpoint set the emulator sends those to that server instead, and
// the client points there.
func (e *Emulator) SQS() *sqs.Client {
	e.t.Helper()
	cfg := e.AWSConfig()
	info, err := e.inspect.Info(context.Background())
	if err != nil {
		e.fatalf("reading the emulator's info: %v", err)
	}
	if info.SQSEndpoint != "" {
		cfg.BaseEndpoint = aws.String(info.SQSEndpoint)
	}
	return sqs.NewFromConfig(cfg)
}

// SQSQueueURL returns the URL of the queue named name (GetQueueUrl), failing
// the test when it does not exist.
func (e *Emulator) SQSQueueURL(name string) string {
	e.t.Helper()
	out, err := e.SQS().GetQueueUrl(context.Background(), &sqs.GetQueueUrlInput{QueueName: aws.String(name)})
	if err != nil {
		e.fatalf("GetQueueUrl %s: %v", name, err)
	}
	return aws.ToString(out.QueueUrl)
}

// ReceiveSQSMessages receives from queueURL until it has n messages, with
// every system and message attribute, long polling (the emulator answers
// as soon as a message arrives: no sleeps). The messages stay in flight for
// the queue's visibility timeout; delete them as a consumer would. On
// timeout it fails the test saying how many arrived.
func (e *Emulator) ReceiveSQSMessages(queueURL string, n int) []types.Message {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), e.wait)
	defer cancel()
	client := e.SQS()
	var out []types.Message
	for len(out) < n {
		wait := int32(min(20, max(1, time.Until(deadline(ctx))/time.Second)))
		got, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(queueURL), MaxNumberOfMessages: int32(min(10, n-len(out))), WaitTimeSeconds: wait,
			MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll},
			MessageAttributeNames:       []string{"All"},
		})
		if err != nil {
			e.fatalf("%s", fmt.Sprintf("receiving %d messages from %s: %d arrived, then %v", n, queueURL, len(out), err))
		}
		out = append(out, got.Messages...)
	}
	return out
}

func deadline(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}
