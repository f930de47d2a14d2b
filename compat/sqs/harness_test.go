package sqs_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"net/http/httptest"

	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// t0 is where every test's virtual clock starts.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const (
	account = "123456789012"
	region  = "us-east-1"
)

// harness is GridBridge's SQS on a virtual clock behind a real HTTP server,
// with an SDK client pointed at it as users point theirs.
type harness struct {
	t      testing.TB
	clock  *engine.VirtualClock
	store  *sqs.Store
	server *httptest.Server
	client *sqssdk.Client
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	env := facetest.New(t, facetest.Options{Start: t0})
	store := sqs.NewStore(env.Clock)
	sqs.New(store).Register(env.Router)
	h := &harness{t: t, clock: env.Clock, store: store, server: env.ServeHTTP(t)}
	h.client = h.clientFor(account, region)
	return h
}

func (h *harness) clientFor(accessKey, region string) *sqssdk.Client {
	return sqssdk.NewFromConfig(facetest.AWSConfig(h.server.URL, accessKey, region, h.server.Client()))
}

func ctx(t testing.TB) context.Context { return facetest.Context(t) }

// createQueue creates a queue through the SDK and returns its URL.
func (h *harness) createQueue(name string, attrs map[string]string) string {
	h.t.Helper()
	out, err := h.client.CreateQueue(ctx(h.t), &sqssdk.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
	if err != nil {
		h.t.Fatalf("CreateQueue %s: %v", name, err)
	}
	return aws.ToString(out.QueueUrl)
}

func (h *harness) send(url, body string, mod ...func(*sqssdk.SendMessageInput)) *sqssdk.SendMessageOutput {
	h.t.Helper()
	in := &sqssdk.SendMessageInput{QueueUrl: aws.String(url), MessageBody: aws.String(body)}
	for _, m := range mod {
		m(in)
	}
	out, err := h.client.SendMessage(ctx(h.t), in)
	if err != nil {
		h.t.Fatalf("SendMessage: %v", err)
	}
	return out
}

// receive takes up to max messages without waiting, with every attribute.
func (h *harness) receive(url string, max int32, mod ...func(*sqssdk.ReceiveMessageInput)) []types.Message {
	h.t.Helper()
	in := &sqssdk.ReceiveMessageInput{
		QueueUrl: aws.String(url), MaxNumberOfMessages: max,
		MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll},
		MessageAttributeNames:       []string{"All"},
	}
	for _, m := range mod {
		m(in)
	}
	out, err := h.client.ReceiveMessage(ctx(h.t), in)
	if err != nil {
		h.t.Fatalf("ReceiveMessage: %v", err)
	}
	return out.Messages
}

func bodies(msgs []types.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = aws.ToString(m.Body)
	}
	return out
}
