package sqs_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/internal/facetest"
)

func TestQueueLifecycleThroughTheSDK(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("orders", map[string]string{"VisibilityTimeout": "45"})
	if want := h.Server.URL + "/" + account + "/orders"; url != want {
		t.Fatalf("QueueUrl = %s, want %s", url, want)
	}
	// CreateQueue is idempotent with the same attributes, refused with others.
	if again := h.createQueue("orders", map[string]string{"VisibilityTimeout": "45"}); again != url {
		t.Fatalf("second CreateQueue = %s", again)
	}
	_, err := h.client.CreateQueue(ctx(t), &sqssdk.CreateQueueInput{QueueName: aws.String("orders"), Attributes: map[string]string{"VisibilityTimeout": "10"}})
	var exists *types.QueueNameExists
	if !errors.As(err, &exists) {
		t.Fatalf("CreateQueue with other attributes: %v, want QueueNameExists", err)
	}
	got, err := h.client.GetQueueUrl(ctx(t), &sqssdk.GetQueueUrlInput{QueueName: aws.String("orders")})
	if err != nil || aws.ToString(got.QueueUrl) != url {
		t.Fatalf("GetQueueUrl = %v, %v", got, err)
	}
	attrs, err := h.client.GetQueueAttributes(ctx(t), &sqssdk.GetQueueAttributesInput{
		QueueUrl: aws.String(url), AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameAll},
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"QueueArn": "arn:aws:sqs:us-east-1:" + account + ":orders", "VisibilityTimeout": "45",
		"MaximumMessageSize": "1048576", "MessageRetentionPeriod": "345600", "ApproximateNumberOfMessages": "0",
		"CreatedTimestamp": fmt.Sprint(t0.Unix()),
	} {
		if attrs.Attributes[k] != want {
			t.Errorf("attribute %s = %q, want %q", k, attrs.Attributes[k], want)
		}
	}
	if _, err := h.client.SetQueueAttributes(ctx(t), &sqssdk.SetQueueAttributesInput{
		QueueUrl: aws.String(url), Attributes: map[string]string{"DelaySeconds": "5"},
	}); err != nil {
		t.Fatal(err)
	}
	_, err = h.client.SetQueueAttributes(ctx(t), &sqssdk.SetQueueAttributesInput{
		QueueUrl: aws.String(url), Attributes: map[string]string{"DelaySeconds": "901"},
	})
	if code := errorCode(err); code != "InvalidAttributeValue" {
		t.Fatalf("DelaySeconds 901: %v", err)
	}
	if _, err := h.client.DeleteQueue(ctx(t), &sqssdk.DeleteQueueInput{QueueUrl: aws.String(url)}); err != nil {
		t.Fatal(err)
	}
	_, err = h.client.GetQueueUrl(ctx(t), &sqssdk.GetQueueUrlInput{QueueName: aws.String("orders")})
	var missing *types.QueueDoesNotExist
	if !errors.As(err, &missing) || errorCode(err) != "AWS.SimpleQueueService.NonExistentQueue" {
		t.Fatalf("GetQueueUrl after delete: %v (code %s)", err, errorCode(err))
	}
}

func errorCode(err error) string {
	var api smithy.APIError
	if errors.As(err, &api) {
		return api.ErrorCode()
	}
	return ""
}

func TestListQueuesByPrefixAndPages(t *testing.T) {
	h := startTest(t)
	for _, n := range []string{"b-2", "a-1", "b-1", "b-3"} {
		h.createQueue(n, nil)
	}
	h.clientFor("210987654321", region) // another account's queues are not listed
	other := h.clientFor("210987654321", region)
	if _, err := other.CreateQueue(ctx(t), &sqssdk.CreateQueueInput{QueueName: aws.String("b-0")}); err != nil {
		t.Fatal(err)
	}
	var names []string
	var token *string
	pages := 0
	for {
		out, err := h.client.ListQueues(ctx(t), &sqssdk.ListQueuesInput{QueueNamePrefix: aws.String("b-"), MaxResults: aws.Int32(2), NextToken: token})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, u := range out.QueueUrls {
			names = append(names, u[strings.LastIndex(u, "/")+1:])
		}
		if out.NextToken == nil {
			break
		}
		token = out.NextToken
	}
	if !slices.Equal(names, []string{"b-1", "b-2", "b-3"}) || pages != 2 {
		t.Fatalf("listed %v in %d pages", names, pages)
	}
}

func TestSendReceiveDeleteWithAttributes(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("orders", nil)
	// The SDK checks MD5OfMessageBody and MD5OfMessageAttributes itself.
	sent := h.send(url, `{"id":1}`, func(in *sqssdk.SendMessageInput) {
		in.MessageAttributes = map[string]types.MessageAttributeValue{
			"kind":  {DataType: aws.String("String"), StringValue: aws.String("order")},
			"total": {DataType: aws.String("Number"), StringValue: aws.String("12.5")},
			"blob":  {DataType: aws.String("Binary"), BinaryValue: []byte{0, 1, 2}},
		}
	})
	if sent.MD5OfMessageAttributes == nil {
		t.Fatal("no MD5OfMessageAttributes")
	}
	msgs := h.receive(url, 10)
	if len(msgs) != 1 || aws.ToString(msgs[0].MessageId) != aws.ToString(sent.MessageId) {
		t.Fatalf("received %v", bodies(msgs))
	}
	m := msgs[0]
	if v := m.MessageAttributes["blob"]; string(v.BinaryValue) != "\x00\x01\x02" || aws.ToString(m.MessageAttributes["kind"].StringValue) != "order" {
		t.Fatalf("attributes %v", m.MessageAttributes)
	}
	if aws.ToString(m.MD5OfMessageAttributes) != aws.ToString(sent.MD5OfMessageAttributes) {
		t.Fatalf("MD5OfMessageAttributes %s != sent %s", aws.ToString(m.MD5OfMessageAttributes), aws.ToString(sent.MD5OfMessageAttributes))
	}
	for k, want := range map[string]string{
		"ApproximateReceiveCount": "1", "SentTimestamp": fmt.Sprint(t0.UnixMilli()),
		"ApproximateFirstReceiveTimestamp": fmt.Sprint(t0.UnixMilli()), "SenderId": account,
	} {
		if m.Attributes[k] != want {
			t.Errorf("system attribute %s = %q, want %q", k, m.Attributes[k], want)
		}
	}
	// Only the attributes asked for come back.
	h.Clock.Advance(31 * 1e9)
	again := h.receive(url, 1, func(in *sqssdk.ReceiveMessageInput) {
		in.MessageSystemAttributeNames = []types.MessageSystemAttributeName{"ApproximateReceiveCount"}
		in.MessageAttributeNames = []string{"kind"}
	})
	if len(again) != 1 || len(again[0].Attributes) != 1 || again[0].Attributes["ApproximateReceiveCount"] != "2" || len(again[0].MessageAttributes) != 1 {
		t.Fatalf("second receive: %+v", again)
	}
	if _, err := h.client.DeleteMessage(ctx(t), &sqssdk.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: again[0].ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	h.Clock.Advance(31 * 1e9)
	if left := h.receive(url, 10); len(left) != 0 {
		t.Fatalf("deleted message came back: %v", bodies(left))
	}
	_, err := h.client.DeleteMessage(ctx(t), &sqssdk.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: aws.String("not a handle")})
	facetest.WantAPIError(t, err, "ReceiptHandleIsInvalid", "")
}

func TestBatchesAndEntryErrors(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("batch", nil)
	out, err := h.client.SendMessageBatch(ctx(t), &sqssdk.SendMessageBatchInput{QueueUrl: aws.String(url), Entries: []types.SendMessageBatchRequestEntry{
		{Id: aws.String("a"), MessageBody: aws.String("one")},
		{Id: aws.String("b"), MessageBody: aws.String("bad \u0001 char")},
		{Id: aws.String("c"), MessageBody: aws.String("three"), DelaySeconds: 901},
		{Id: aws.String("d"), MessageBody: aws.String("four")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Successful) != 2 || len(out.Failed) != 2 || aws.ToString(out.Failed[0].Code) != "InvalidMessageContents" ||
		aws.ToString(out.Failed[1].Code) != "InvalidParameterValue" || !out.Failed[0].SenderFault {
		t.Fatalf("batch result %+v", out)
	}
	for name, entries := range map[string][]types.SendMessageBatchRequestEntry{
		"AWS.SimpleQueueService.EmptyBatchRequest":            {},
		"AWS.SimpleQueueService.BatchEntryIdsNotDistinct":     {{Id: aws.String("x"), MessageBody: aws.String("1")}, {Id: aws.String("x"), MessageBody: aws.String("2")}},
		"AWS.SimpleQueueService.InvalidBatchEntryId":          {{Id: aws.String("x y"), MessageBody: aws.String("1")}},
		"AWS.SimpleQueueService.TooManyEntriesInBatchRequest": manyEntries(11, 1),
		"AWS.SimpleQueueService.BatchRequestTooLong":          manyEntries(2, 600_000),
	} {
		_, err := h.client.SendMessageBatch(ctx(t), &sqssdk.SendMessageBatchInput{QueueUrl: aws.String(url), Entries: entries})
		if errorCode(err) != name {
			t.Errorf("%s: got %v", name, err)
		}
	}
	msgs := h.receive(url, 10)
	if !slices.Equal(bodies(msgs), []string{"one", "four"}) {
		t.Fatalf("received %v", bodies(msgs))
	}
	del, err := h.client.DeleteMessageBatch(ctx(t), &sqssdk.DeleteMessageBatchInput{QueueUrl: aws.String(url), Entries: []types.DeleteMessageBatchRequestEntry{
		{Id: aws.String("1"), ReceiptHandle: msgs[0].ReceiptHandle},
		{Id: aws.String("2"), ReceiptHandle: aws.String("garbage")},
	}})
	if err != nil || len(del.Successful) != 1 || len(del.Failed) != 1 || aws.ToString(del.Failed[0].Code) != "ReceiptHandleIsInvalid" {
		t.Fatalf("DeleteMessageBatch = %+v, %v", del, err)
	}
	vis, err := h.client.ChangeMessageVisibilityBatch(ctx(t), &sqssdk.ChangeMessageVisibilityBatchInput{QueueUrl: aws.String(url), Entries: []types.ChangeMessageVisibilityBatchRequestEntry{
		{Id: aws.String("1"), ReceiptHandle: msgs[1].ReceiptHandle, VisibilityTimeout: 0},
		{Id: aws.String("2"), ReceiptHandle: msgs[0].ReceiptHandle, VisibilityTimeout: 10},
	}})
	if err != nil || len(vis.Successful) != 1 || len(vis.Failed) != 1 || aws.ToString(vis.Failed[0].Code) != "AWS.SimpleQueueService.MessageNotInflight" {
		t.Fatalf("ChangeMessageVisibilityBatch = %+v, %v", vis, err)
	}
	if again := h.receive(url, 10); !slices.Equal(bodies(again), []string{"four"}) {
		t.Fatalf("after visibility 0: %v", bodies(again))
	}
}

func manyEntries(n, size int) []types.SendMessageBatchRequestEntry {
	out := make([]types.SendMessageBatchRequestEntry, n)
	for i := range out {
		out[i] = types.SendMessageBatchRequestEntry{Id: aws.String(fmt.Sprint("e", i)), MessageBody: aws.String(strings.Repeat("x", size))}
	}
	return out
}

func TestTagsAndDeadLetterSources(t *testing.T) {
	h := startTest(t)
	dlq := h.createQueue("dlq", nil)
	redrive := `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:` + account + `:dlq","maxReceiveCount":3}`
	src := h.createQueue("src", map[string]string{"RedrivePolicy": redrive})
	h.createQueue("other", nil)
	out, err := h.client.ListDeadLetterSourceQueues(ctx(t), &sqssdk.ListDeadLetterSourceQueuesInput{QueueUrl: aws.String(dlq)})
	if err != nil || !slices.Equal(out.QueueUrls, []string{src}) {
		t.Fatalf("ListDeadLetterSourceQueues = %v, %v", out, err)
	}
	if _, err := h.client.TagQueue(ctx(t), &sqssdk.TagQueueInput{QueueUrl: aws.String(src), Tags: map[string]string{"team": "a", "env": "test"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.UntagQueue(ctx(t), &sqssdk.UntagQueueInput{QueueUrl: aws.String(src), TagKeys: []string{"env"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := h.client.ListQueueTags(ctx(t), &sqssdk.ListQueueTagsInput{QueueUrl: aws.String(src)})
	if err != nil || len(tags.Tags) != 1 || tags.Tags["team"] != "a" {
		t.Fatalf("ListQueueTags = %v, %v", tags, err)
	}
}

func TestPurgeQueue(t *testing.T) {
	h := startTest(t)
	url := h.createQueue("p", nil)
	h.send(url, "1")
	h.send(url, "2")
	if _, err := h.client.PurgeQueue(ctx(t), &sqssdk.PurgeQueueInput{QueueUrl: aws.String(url)}); err != nil {
		t.Fatal(err)
	}
	if got := h.receive(url, 10); len(got) != 0 {
		t.Fatalf("after purge: %v", bodies(got))
	}
}
