package testkit

import (
	"context"
	"net/url"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
)

// AWSRegion and AWSAccount are what the testkit's AWS config signs with;
// the emulator takes the account from a 12-digit access key id.
const (
	AWSRegion  = "us-east-1"
	AWSAccount = "000000000000"
)

// AWSConfig is an aws.Config for the emulator: its HTTP endpoint, static
// credentials, one attempt per call (the emulator answers at once).
func (e *Emulator) AWSConfig() aws.Config {
	return aws.Config{
		Region:           AWSRegion,
		Credentials:      credentials.NewStaticCredentialsProvider("test", "test", ""),
		BaseEndpoint:     aws.String(e.URL()),
		HTTPClient:       e.client,
		RetryMaxAttempts: 1,
	}
}

// EventBridge returns an EventBridge client for the emulator.
func (e *Emulator) EventBridge() *eventbridge.Client {
	return eventbridge.NewFromConfig(e.AWSConfig())
}

// SQSMessages lists the messages the in-memory SQS default holds for
// queueARN, oldest first. With a real SQS server configured, read it with
// the SQS SDK instead.
func (e *Emulator) SQSMessages(queueARN string) []SQSMessage {
	e.t.Helper()
	var out struct {
		Messages []SQSMessage `json:"messages"`
	}
	if err := e.inspect.do(context.Background(), "GET", "/sqs/messages?queue="+url.QueryEscape(queueARN), nil, &out); err != nil {
		e.fatalf("reading in-memory SQS queue %s: %v", queueARN, err)
	}
	return out.Messages
}
