package sqs_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// t0 is where every test's virtual clock starts; the SDK client signs as
// account in region.
var t0 = facetest.AWSStart

const account, region = facetest.AWSAccount, facetest.AWSRegion

// harness is GridBridge's SQS on a virtual clock behind a real HTTP server,
// with an SDK client pointed at it as users point theirs.
type harness struct {
	*facetest.AWSFace
	svc    *sqs.Service
	store  *sqs.Store
	client *sqssdk.Client
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	h := &harness{}
	h.AWSFace = facetest.NewAWSFace(t, func(env *facetest.Env) {
		svc := sqs.New(sqs.Config{Clock: env.Clock})
		h.svc, h.store = svc, svc.Store()
		svc.Register(env.Router)
	})
	h.client = h.clientFor(account, region)
	return h
}

func (h *harness) clientFor(accessKey, region string) *sqssdk.Client {
	return sqssdk.NewFromConfig(h.Config(accessKey, region))
}

func ctx(t testing.TB) context.Context { return facetest.Context(t) }

// rawRequest is a request to the harness as an SDK would sign it: GridBridge
// checks no signature, but serves no SQS request without one (signed.go).
func (h *harness) rawRequest(t testing.TB, method, path, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx(t), method, h.Server.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+account+"/20260301/"+region+"/sqs/aws4_request, SignedHeaders=host, Signature=x")
	return req
}

// startTest marks the test parallel and gives it a harness: how most tests
// begin.
func startTest(t *testing.T) *harness {
	t.Parallel()
	return newHarness(t)
}

// createQueue creates a queue through the SDK and returns its URL.
func (h *harness) createQueue(name string, attrs map[string]string) string {
	h.T.Helper()
	out, err := h.client.CreateQueue(ctx(h.T), &sqssdk.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
	if err != nil {
		h.T.Fatalf("CreateQueue %s: %v", name, err)
	}
	return aws.ToString(out.QueueUrl)
}

func (h *harness) send(url, body string, mod ...func(*sqssdk.SendMessageInput)) *sqssdk.SendMessageOutput {
	h.T.Helper()
	in := &sqssdk.SendMessageInput{QueueUrl: aws.String(url), MessageBody: aws.String(body)}
	for _, m := range mod {
		m(in)
	}
	out, err := h.client.SendMessage(ctx(h.T), in)
	if err != nil {
		h.T.Fatalf("SendMessage: %v", err)
	}
	return out
}

// longPoll starts a ReceiveMessage that waits up to 20 seconds for
// messages of queue url; the channel gives what it returned.
func (h *harness) longPoll(url string) <-chan []types.Message {
	done := make(chan []types.Message, 1)
	go func() {
		out, err := h.client.ReceiveMessage(ctx(h.T), &sqssdk.ReceiveMessageInput{QueueUrl: aws.String(url), WaitTimeSeconds: 20})
		if err != nil {
			h.T.Error(err)
			done <- nil
			return
		}
		done <- out.Messages
	}()
	return done
}

// awaitWaiting returns once n long polls wait on the queue named name.
func (h *harness) awaitWaiting(name string, n int) {
	h.T.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for h.store.Waiting(name) < n {
		if time.Now().After(deadline) {
			h.T.Fatalf("%d long polls wait on %s, want %d", h.store.Waiting(name), name, n)
		}
		time.Sleep(time.Millisecond) // the poll's request is on its way
	}
}

// receive takes up to max messages without waiting, with every attribute.
func (h *harness) receive(url string, max int32, mod ...func(*sqssdk.ReceiveMessageInput)) []types.Message {
	h.T.Helper()
	in := &sqssdk.ReceiveMessageInput{
		QueueUrl: aws.String(url), MaxNumberOfMessages: max,
		MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll},
		MessageAttributeNames:       []string{"All"},
	}
	for _, m := range mod {
		m(in)
	}
	out, err := h.client.ReceiveMessage(ctx(h.T), in)
	if err != nil {
		h.T.Fatalf("ReceiveMessage: %v", err)
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
