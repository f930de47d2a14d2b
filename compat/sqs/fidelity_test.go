package sqs_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/internal/facetest"
)

// The limits and rules of SQS's API reference, each checked through the SDK
// as a user meets them; raw requests where the SDK cannot send the input.

// postJSON sends a JSON-protocol request for operation with body as it is,
// and returns the status and the answer.
func (h *harness) postJSON(t *testing.T, operation, body string) (int, string) {
	t.Helper()
	req := h.rawRequest(t, http.MethodPost, "/", body)
	req.Header.Set("X-Amz-Target", "AmazonSQS."+operation)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestMaximumMessageSizeIsOneMiBAndBounded(t *testing.T) {
	h := startTest(t)
	for _, bad := range []string{"1023", "1048577"} {
		_, err := h.client.CreateQueue(ctx(t), &sqssdk.CreateQueueInput{QueueName: aws.String("q" + bad), Attributes: map[string]string{"MaximumMessageSize": bad}})
		facetest.WantAPIError(t, err, "InvalidAttributeValue", "Invalid value for the parameter MaximumMessageSize.")
	}
	h.createQueue("largest", map[string]string{"MaximumMessageSize": "1048576"})
	small := h.createQueue("small", map[string]string{"MaximumMessageSize": "1024"})
	// Attributes count: 1,000 bytes of body and 24 of attribute fill 1 KiB.
	attr := map[string]types.MessageAttributeValue{"k": {DataType: aws.String("String"), StringValue: aws.String(strings.Repeat("v", 17))}}
	h.send(small, strings.Repeat("x", 1000), func(in *sqssdk.SendMessageInput) { in.MessageAttributes = attr })
	_, err := h.client.SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String(small), MessageBody: aws.String(strings.Repeat("x", 1001)), MessageAttributes: attr})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.")
}

func TestABatchMayTotalOneMiB(t *testing.T) {
	h := startTest(t)
	q := h.createQueue("batch-limit", nil)
	entries := func(total int) []types.SendMessageBatchRequestEntry {
		out := manyEntries(10, total/10)
		out[9].MessageBody = aws.String(strings.Repeat("x", total-9*(total/10)))
		return out
	}
	out, err := h.client.SendMessageBatch(ctx(t), &sqssdk.SendMessageBatchInput{QueueUrl: aws.String(q), Entries: entries(1 << 20)})
	if err != nil || len(out.Successful) != 10 {
		t.Fatalf("a batch of exactly 1 MiB: %+v, %v", out, err)
	}
	_, err = h.client.SendMessageBatch(ctx(t), &sqssdk.SendMessageBatchInput{QueueUrl: aws.String(q), Entries: entries(1<<20 + 1)})
	facetest.WantAPIError(t, err, "AWS.SimpleQueueService.BatchRequestTooLong", "Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.")
}

// A full batch fits the request limit however a client encodes it: the
// query protocol's percent-encoded base64 (four characters a byte) and JSON
// escaping every character (six).
func TestAFullBatchFitsTheRequestLimitInEitherEncoding(t *testing.T) {
	h := startTest(t)
	q := h.createQueue("encoded", nil)
	// 0xFB 0xEF 0xBE is "++++" in base64, "%2B%2B%2B%2B" in a form.
	const per = 1 << 20 / 10
	form := url.Values{"Action": {"SendMessageBatch"}, "QueueUrl": {q}}
	for i := 1; i <= 10; i++ {
		p := fmt.Sprintf("SendMessageBatchRequestEntry.%d.", i)
		value := strings.Repeat("\xfb\xef\xbe", (per-1-len("bin")-len("Binary"))/3)
		form.Set(p+"Id", strconv.Itoa(i))
		form.Set(p+"MessageBody", "b")
		form.Set(p+"MessageAttribute.1.Name", "bin")
		form.Set(p+"MessageAttribute.1.Value.DataType", "Binary")
		form.Set(p+"MessageAttribute.1.Value.BinaryValue", base64.StdEncoding.EncodeToString([]byte(value)))
	}
	encoded := form.Encode()
	if len(encoded) < 4<<20 {
		t.Fatalf("the form is %d bytes, not the worst case", len(encoded))
	}
	status, body := h.postForm(t, "/", form)
	if status != 200 || strings.Count(body, "<SendMessageBatchResultEntry>") != 10 {
		t.Fatalf("query batch of %d bytes: %d %.300s", len(encoded), status, body)
	}

	var sb strings.Builder
	sb.WriteString(`{"QueueUrl":"` + q + `","Entries":[`)
	for i := 0; i < 10; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"Id":"` + strconv.Itoa(i) + `","MessageBody":"` + strings.Repeat(`\u003c`, per) + `"}`)
	}
	sb.WriteString(`]}`)
	status, body = h.postJSON(t, "SendMessageBatch", sb.String())
	if status != 200 || strings.Count(body, `"MessageId"`) != 10 {
		t.Fatalf("JSON batch of %d bytes: %d %.300s", sb.Len(), status, body)
	}
}

// FIFO queues refuse a per-message delay, but take an explicit 0, which the
// Go SDK never sends and boto3 and the CLI do.
func TestFIFOTakesAnExplicitZeroDelay(t *testing.T) {
	h := startTest(t)
	q := h.createQueue("zero.fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})
	status, body := h.postJSON(t, "SendMessage", `{"QueueUrl":"`+q+`","MessageBody":"a","MessageGroupId":"g","DelaySeconds":0}`)
	if status != 200 {
		t.Fatalf("DelaySeconds 0: %d %s", status, body)
	}
	status, body = h.postForm(t, "/", url.Values{"Action": {"SendMessageBatch"}, "QueueUrl": {q},
		"SendMessageBatchRequestEntry.1.Id": {"b"}, "SendMessageBatchRequestEntry.1.MessageBody": {"b"},
		"SendMessageBatchRequestEntry.1.MessageGroupId": {"g"}, "SendMessageBatchRequestEntry.1.DelaySeconds": {"0"}})
	if status != 200 || !strings.Contains(body, "<SendMessageBatchResultEntry>") {
		t.Fatalf("batch entry with DelaySeconds 0: %d %s", status, body)
	}
	_, err := h.client.SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String(q), MessageBody: aws.String("c"), MessageGroupId: aws.String("g"), DelaySeconds: 2})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.")
	if got := h.receive(q, 10); !slices.Equal(bodies(got), []string{"a", "b"}) {
		t.Fatalf("received %v", bodies(got))
	}
}

func TestAQueueURLMayBeTheQueuesName(t *testing.T) {
	h := startTest(t)
	h.createQueue("by-name", nil)
	sent := h.send("by-name", "hello")
	got := h.receive("by-name", 1)
	if len(got) != 1 || aws.ToString(got[0].MessageId) != aws.ToString(sent.MessageId) {
		t.Fatalf("received %v", bodies(got))
	}
	if _, err := h.client.DeleteMessage(ctx(t), &sqssdk.DeleteMessageInput{QueueUrl: aws.String("by-name"), ReceiptHandle: got[0].ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	attrs, err := h.client.GetQueueAttributes(ctx(t), &sqssdk.GetQueueAttributesInput{QueueUrl: aws.String("by-name"), AttributeNames: []types.QueueAttributeName{"QueueArn"}})
	if err != nil || attrs.Attributes["QueueArn"] != "arn:aws:sqs:"+region+":"+account+":by-name" {
		t.Fatalf("GetQueueAttributes by name = %v, %v", attrs, err)
	}
	// Another account's queue of that name is not the caller's.
	_, err = h.clientFor("210987654321", region).SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String("by-name"), MessageBody: aws.String("x")})
	facetest.WantAPIError(t, err, "AWS.SimpleQueueService.NonExistentQueue", "The specified queue does not exist.")
}

func TestMessageAttributeNameWildcards(t *testing.T) {
	h := startTest(t)
	q := h.createQueue("wildcards", map[string]string{"VisibilityTimeout": "0"})
	h.send(q, "msg", func(in *sqssdk.SendMessageInput) {
		in.MessageAttributes = map[string]types.MessageAttributeValue{
			"Help.Me": {DataType: aws.String("String"), StringValue: aws.String("Me")},
			"Hello":   {DataType: aws.String("String"), StringValue: aws.String("There")},
			"General": {DataType: aws.String("String"), StringValue: aws.String("Kenobi")},
		}
	})
	for names, want := range map[string][]string{
		"All": {"General", "Hello", "Help.Me"}, ".*": {"General", "Hello", "Help.Me"}, "*": {"General", "Hello", "Help.Me"},
		"Hel.*": {"Hello", "Help.Me"}, "Help.*": {"Help.Me"}, "Foo,Hello": {"Hello"}, "Foo": nil,
	} {
		got := h.receive(q, 1, func(in *sqssdk.ReceiveMessageInput) { in.MessageAttributeNames = strings.Split(names, ",") })
		if len(got) != 1 {
			t.Fatalf("%s: received %d messages", names, len(got))
		}
		var have []string
		for k := range got[0].MessageAttributes {
			have = append(have, k)
		}
		slices.Sort(have)
		if !slices.Equal(have, want) {
			t.Errorf("MessageAttributeNames %s returned %v, want %v", names, have, want)
		}
	}
}

func TestRedrivePolicyNamesAQueueOfTheSameTypeAndNotItself(t *testing.T) {
	h := startTest(t)
	policy := func(name string) string {
		return `{"deadLetterTargetArn":"arn:aws:sqs:` + region + `:` + account + `:` + name + `","maxReceiveCount":3}`
	}
	h.createQueue("dlq", nil)
	h.createQueue("dlq.fifo", map[string]string{"FifoQueue": "true"})
	_, err := h.client.CreateQueue(ctx(t), &sqssdk.CreateQueueInput{QueueName: aws.String("src.fifo"), Attributes: map[string]string{"FifoQueue": "true", "RedrivePolicy": policy("dlq")}})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "Value "+policy("dlq")+" for parameter RedrivePolicy is invalid. Reason: Dead-letter queue must be same type of queue as the source..")
	_, err = h.client.CreateQueue(ctx(t), &sqssdk.CreateQueueInput{QueueName: aws.String("src"), Attributes: map[string]string{"RedrivePolicy": policy("dlq.fifo")}})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "Value "+policy("dlq.fifo")+" for parameter RedrivePolicy is invalid. Reason: Dead-letter queue must be same type of queue as the source..")
	h.createQueue("src.fifo", map[string]string{"FifoQueue": "true", "RedrivePolicy": policy("dlq.fifo")})
	src := h.createQueue("src", map[string]string{"RedrivePolicy": policy("dlq")})

	// A queue is not its own dead-letter queue, at creation or later.
	_, err = h.client.CreateQueue(ctx(t), &sqssdk.CreateQueueInput{QueueName: aws.String("self"), Attributes: map[string]string{"RedrivePolicy": policy("self")}})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "Value "+policy("self")+" for parameter RedrivePolicy is invalid. Reason: A queue cannot be its own dead-letter queue.")
	_, err = h.client.SetQueueAttributes(ctx(t), &sqssdk.SetQueueAttributesInput{QueueUrl: aws.String(src), Attributes: map[string]string{"RedrivePolicy": policy("src")}})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "Value "+policy("src")+" for parameter RedrivePolicy is invalid. Reason: A queue cannot be its own dead-letter queue.")
	attrs, err := h.client.GetQueueAttributes(ctx(t), &sqssdk.GetQueueAttributesInput{QueueUrl: aws.String(src), AttributeNames: []types.QueueAttributeName{"RedrivePolicy"}})
	if err != nil || !strings.Contains(attrs.Attributes["RedrivePolicy"], ":dlq\"") {
		t.Fatalf("the refused policy replaced the old one: %v, %v", attrs, err)
	}
}

func TestMessageAttributeNamesAreChecked(t *testing.T) {
	h := startTest(t)
	q := h.createQueue("names", nil)
	for _, name := range []string{
		"with space", "ümlaut", ".lead", "trail.", "two..periods", "AWS.x", "aws.x", "Amazon.x", "amazon.X", strings.Repeat("n", 257),
	} {
		_, err := h.client.SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String(q), MessageBody: aws.String("x"),
			MessageAttributes: map[string]types.MessageAttributeValue{name: {DataType: aws.String("String"), StringValue: aws.String("v")}}})
		facetest.WantAPIError(t, err, "InvalidParameterValue", "The message attribute name '"+name+"' is invalid. Attribute name can contain A-Z, a-z, 0-9, underscore (_), hyphen (-), and period (.) characters.")
	}
	good := map[string]types.MessageAttributeValue{}
	for _, name := range []string{"a.b-c_D9", "AWSx", "amazon-ok", strings.Repeat("n", 256)} {
		good[name] = types.MessageAttributeValue{DataType: aws.String("String"), StringValue: aws.String("v")}
	}
	h.send(q, "x", func(in *sqssdk.SendMessageInput) { in.MessageAttributes = good })
	if got := h.receive(q, 1); len(got) != 1 || len(got[0].MessageAttributes) != len(good) {
		t.Fatalf("received %+v", got)
	}
}

func TestBatchErrorTexts(t *testing.T) {
	h := startTest(t)
	q := h.createQueue("texts", nil)
	_, err := h.client.SendMessageBatch(ctx(t), &sqssdk.SendMessageBatchInput{QueueUrl: aws.String(q), Entries: []types.SendMessageBatchRequestEntry{}})
	facetest.WantAPIError(t, err, "AWS.SimpleQueueService.EmptyBatchRequest", "There should be at least one SendMessageBatchRequestEntry in the request.")
	_, err = h.client.DeleteMessageBatch(ctx(t), &sqssdk.DeleteMessageBatchInput{QueueUrl: aws.String(q), Entries: []types.DeleteMessageBatchRequestEntry{}})
	facetest.WantAPIError(t, err, "AWS.SimpleQueueService.EmptyBatchRequest", "There should be at least one DeleteMessageBatchRequestEntry in the request.")
	_, err = h.client.ChangeMessageVisibilityBatch(ctx(t), &sqssdk.ChangeMessageVisibilityBatchInput{QueueUrl: aws.String(q), Entries: []types.ChangeMessageVisibilityBatchRequestEntry{}})
	facetest.WantAPIError(t, err, "AWS.SimpleQueueService.EmptyBatchRequest", "There should be at least one ChangeMessageVisibilityBatchRequestEntry in the request.")
	_, err = h.client.SendMessageBatch(ctx(t), &sqssdk.SendMessageBatchInput{QueueUrl: aws.String(q), Entries: []types.SendMessageBatchRequestEntry{
		{Id: aws.String("id_1"), MessageBody: aws.String("1")}, {Id: aws.String("id_2"), MessageBody: aws.String("2")}, {Id: aws.String("id_2"), MessageBody: aws.String("3")},
	}})
	facetest.WantAPIError(t, err, "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "Id id_2 repeated.")
	_, err = h.client.DeleteMessageBatch(ctx(t), &sqssdk.DeleteMessageBatchInput{QueueUrl: aws.String(q), Entries: []types.DeleteMessageBatchRequestEntry{
		{Id: aws.String("d"), ReceiptHandle: aws.String("x")}, {Id: aws.String("d"), ReceiptHandle: aws.String("y")},
	}})
	facetest.WantAPIError(t, err, "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "Id d repeated.")
}

// The query protocol words a missing queue as SQS's SOAP-era API did; the
// JSON protocol does not.
func TestMissingQueueTextPerProtocol(t *testing.T) {
	h := startTest(t)
	status, body := h.postForm(t, "/", url.Values{"Action": {"GetQueueUrl"}, "QueueName": {"nope"}})
	if status != 400 || !strings.Contains(body, "<Message>The specified queue does not exist for this wsdl version.</Message>") {
		t.Fatalf("query protocol: %d %s", status, body)
	}
	status, body = h.postForm(t, "/", url.Values{"Action": {"SendMessage"}, "QueueUrl": {h.Server.URL + "/" + account + "/nope"}, "MessageBody": {"x"}})
	if status != 400 || !strings.Contains(body, "for this wsdl version.") {
		t.Fatalf("query protocol SendMessage: %d %s", status, body)
	}
	_, err := h.client.GetQueueUrl(ctx(t), &sqssdk.GetQueueUrlInput{QueueName: aws.String("nope")})
	facetest.WantAPIError(t, err, "AWS.SimpleQueueService.NonExistentQueue", "The specified queue does not exist.")
}

func TestAddAndRemovePermission(t *testing.T) {
	h := startTest(t)
	q := h.createQueue("shared", nil)
	arn := "arn:aws:sqs:" + region + ":" + account + ":shared"
	policy := func() map[string]any {
		t.Helper()
		out, err := h.client.GetQueueAttributes(ctx(t), &sqssdk.GetQueueAttributesInput{QueueUrl: aws.String(q), AttributeNames: []types.QueueAttributeName{"Policy"}})
		if err != nil {
			t.Fatal(err)
		}
		raw, ok := out.Attributes["Policy"]
		if !ok {
			return nil
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(raw), &doc); err != nil {
			t.Fatalf("Policy %q: %v", raw, err)
		}
		return doc
	}
	if _, err := h.client.AddPermission(ctx(t), &sqssdk.AddPermissionInput{QueueUrl: aws.String(q), Label: aws.String("crossaccount"),
		AWSAccountIds: []string{"210987654321", account}, Actions: []string{"ReceiveMessage"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.AddPermission(ctx(t), &sqssdk.AddPermissionInput{QueueUrl: aws.String(q), Label: aws.String("senders"),
		AWSAccountIds: []string{"210987654321"}, Actions: []string{"SendMessage", "GetQueueUrl"}}); err != nil {
		t.Fatal(err)
	}
	doc := policy()
	want := map[string]any{
		"Version": "2008-10-17", "Id": arn + "/SQSDefaultPolicy",
		"Statement": []any{
			map[string]any{"Sid": "crossaccount", "Effect": "Allow", "Principal": map[string]any{"AWS": []any{"arn:aws:iam::210987654321:root", "arn:aws:iam::" + account + ":root"}},
				"Action": "SQS:ReceiveMessage", "Resource": arn},
			map[string]any{"Sid": "senders", "Effect": "Allow", "Principal": map[string]any{"AWS": "arn:aws:iam::210987654321:root"},
				"Action": []any{"SQS:SendMessage", "SQS:GetQueueUrl"}, "Resource": arn},
		},
	}
	if got, _ := json.Marshal(doc); string(got) != mustJSON(t, want) {
		t.Fatalf("Policy = %s\nwant     %s", got, mustJSON(t, want))
	}

	_, err := h.client.AddPermission(ctx(t), &sqssdk.AddPermissionInput{QueueUrl: aws.String(q), Label: aws.String("crossaccount"), AWSAccountIds: []string{account}, Actions: []string{"SendMessage"}})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "Value crossaccount for parameter Label is invalid. Reason: Already exists.")
	_, err = h.client.AddPermission(ctx(t), &sqssdk.AddPermissionInput{QueueUrl: aws.String(q), Label: aws.String("many"), AWSAccountIds: []string{account},
		Actions: []string{"SendMessage", "ReceiveMessage", "DeleteMessage", "ChangeMessageVisibility", "GetQueueAttributes", "GetQueueUrl", "PurgeQueue", "ListDeadLetterSourceQueues"}})
	facetest.WantAPIError(t, err, "OverLimit", "8 actions were found in a statement from the submitted policy, max allowed is 7.")
	_, err = h.client.AddPermission(ctx(t), &sqssdk.AddPermissionInput{QueueUrl: aws.String(q), Label: aws.String("owner"), AWSAccountIds: []string{account}, Actions: []string{"DeleteQueue"}})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "Value SQS:DeleteQueue for parameter ActionName is invalid. Reason: Only the queue owner is allowed to invoke this action.")
	_, err = h.client.AddPermission(ctx(t), &sqssdk.AddPermissionInput{QueueUrl: aws.String(q), Label: aws.String("bad label!"), AWSAccountIds: []string{account}, Actions: []string{"*"}})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "")
	_, err = h.client.AddPermission(ctx(t), &sqssdk.AddPermissionInput{QueueUrl: aws.String(h.Server.URL + "/" + account + "/nope"), Label: aws.String("x"), AWSAccountIds: []string{account}, Actions: []string{"*"}})
	facetest.WantAPIError(t, err, "AWS.SimpleQueueService.NonExistentQueue", "")

	if _, err := h.client.RemovePermission(ctx(t), &sqssdk.RemovePermissionInput{QueueUrl: aws.String(q), Label: aws.String("crossaccount")}); err != nil {
		t.Fatal(err)
	}
	if st := policy()["Statement"].([]any); len(st) != 1 || st[0].(map[string]any)["Sid"] != "senders" {
		t.Fatalf("after removing crossaccount: %v", st)
	}
	_, err = h.client.RemovePermission(ctx(t), &sqssdk.RemovePermissionInput{QueueUrl: aws.String(q), Label: aws.String("crossaccount")})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "Value crossaccount for parameter Label is invalid. Reason: can't find label.")
	if _, err := h.client.RemovePermission(ctx(t), &sqssdk.RemovePermissionInput{QueueUrl: aws.String(q), Label: aws.String("senders")}); err != nil {
		t.Fatal(err)
	}
	if doc := policy(); doc != nil {
		t.Fatalf("the last permission removed, Policy is still %v", doc)
	}
}

// AddPermission adds to a policy set with SetQueueAttributes, whose
// Statement may be a single statement, and keeps what was there.
func TestAddPermissionKeepsAPolicySetBefore(t *testing.T) {
	h := startTest(t)
	own := `{"Version":"2012-10-17","Statement":{"Sid":"mine","Effect":"Deny","Principal":"*","Action":"sqs:*","Resource":"*"}}`
	q := h.createQueue("policied", map[string]string{"Policy": own})
	status, body := h.postForm(t, "/", url.Values{"Action": {"AddPermission"}, "QueueUrl": {q}, "Label": {"query"},
		"AWSAccountId.1": {"210987654321"}, "ActionName.1": {"SendMessage"}, "ActionName.2": {"ReceiveMessage"}})
	if status != 200 || !strings.Contains(body, "<AddPermissionResponse") {
		t.Fatalf("AddPermission over the query protocol: %d %s", status, body)
	}
	out, err := h.client.GetQueueAttributes(ctx(t), &sqssdk.GetQueueAttributesInput{QueueUrl: aws.String(q), AttributeNames: []types.QueueAttributeName{"Policy"}})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version   string
		Statement []struct {
			Sid, Effect string
			Action      any
		}
	}
	if err := json.Unmarshal([]byte(out.Attributes["Policy"]), &doc); err != nil || doc.Version != "2012-10-17" || len(doc.Statement) != 2 ||
		doc.Statement[0].Sid != "mine" || doc.Statement[0].Effect != "Deny" || doc.Statement[1].Sid != "query" {
		t.Fatalf("Policy = %s (%v)", out.Attributes["Policy"], err)
	}
}

func TestAWSTraceHeaderSystemAttribute(t *testing.T) {
	h := startTest(t)
	q := h.createQueue("traced", map[string]string{"VisibilityTimeout": "0"})
	const trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
	sys := map[string]types.MessageSystemAttributeValue{"AWSTraceHeader": {DataType: aws.String("String"), StringValue: aws.String(trace)}}
	sent := h.send(q, "one", func(in *sqssdk.SendMessageInput) { in.MessageSystemAttributes = sys })
	if sent.MD5OfMessageSystemAttributes == nil {
		t.Fatal("no MD5OfMessageSystemAttributes")
	}
	batch, err := h.client.SendMessageBatch(ctx(t), &sqssdk.SendMessageBatchInput{QueueUrl: aws.String(q), Entries: []types.SendMessageBatchRequestEntry{
		{Id: aws.String("b"), MessageBody: aws.String("two"), MessageSystemAttributes: sys},
	}})
	if err != nil || len(batch.Successful) != 1 {
		t.Fatalf("SendMessageBatch = %+v, %v", batch, err)
	}
	h.send(q, "untraced")
	for _, ask := range []func(*sqssdk.ReceiveMessageInput){
		func(in *sqssdk.ReceiveMessageInput) {
			in.MessageSystemAttributeNames = []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAWSTraceHeader}
		},
		func(in *sqssdk.ReceiveMessageInput) {
			in.MessageSystemAttributeNames = nil
			in.AttributeNames = []types.QueueAttributeName{"AWSTraceHeader"} //nolint:staticcheck // the older member, which clients still send
		},
		func(in *sqssdk.ReceiveMessageInput) {},
	} {
		got := h.receive(q, 10, ask)
		traced := map[string]string{}
		for _, m := range got {
			traced[aws.ToString(m.Body)] = m.Attributes["AWSTraceHeader"]
		}
		if len(got) != 3 || traced["one"] != trace || traced["two"] != trace || traced["untraced"] != "" {
			t.Fatalf("received %v", traced)
		}
	}
	// Only AWSTraceHeader may be sent, and only as a String.
	_, err = h.client.SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String(q), MessageBody: aws.String("x"),
		MessageSystemAttributes: map[string]types.MessageSystemAttributeValue{"SenderId": {DataType: aws.String("String"), StringValue: aws.String("me")}}})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "")
	_, err = h.client.SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String(q), MessageBody: aws.String("x"),
		MessageSystemAttributes: map[string]types.MessageSystemAttributeValue{"AWSTraceHeader": {DataType: aws.String("Binary"), BinaryValue: []byte("x")}}})
	facetest.WantAPIError(t, err, "InvalidParameterValue", "")
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
