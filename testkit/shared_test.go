package testkit_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/testkit"
)

// TestNewIsSharedThroughFor: an emulator from New, the TestMain pattern,
// is one emulator behind every handle For hands out; Reset on one handle
// forgets what another made, API faults included; a failure on a handle no
// test holds panics with the testkit's message.
func TestNewIsSharedThroughFor(t *testing.T) {
	t.Parallel()
	shared, err := testkit.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = shared.Close() })

	a, b := shared.For(t), shared.For(t)
	a.CreateQueue("orders")
	a.InjectAPIError(testkit.APIFault{Service: "sqs", Operation: "SendMessage", Error: "InternalError"})
	if got := b.APIFaults(); len(got) != 1 {
		t.Fatalf("the other handle sees %d API faults", len(got))
	}
	b.Reset()
	if got := a.APIFaults(); len(got) != 0 {
		t.Fatalf("after Reset: API faults %+v", got)
	}
	if _, err := a.SQS().GetQueueUrl(context.Background(), &sqs.GetQueueUrlInput{QueueName: aws.String("orders")}); err == nil {
		t.Fatal("after Reset the queue is still there")
	}

	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "testkit: removing API fault nope") || !strings.Contains(msg, "until For binds it to a test") {
			t.Fatalf("an unbound handle's failure = %q", msg)
		}
	}()
	shared.RemoveAPIFault("nope")
	t.Fatal("removing a fault that does not exist did not fail")
}
