package ui_test

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// attackPage is a web page on another local port that tries every request a
// page can send without the user's consent against the emulator: <img>
// GETs, an auto-submitted form, and no-cors fetches, at the SQS query
// protocol, ARM and the inspection API. It records when each has settled.
var attackPage = template.Must(template.New("attack").Parse(`<!doctype html>
<html><body>
<script>
window.settled = 0;
window.expected = {{len .Images}} + {{len .Fetches}} + 1;
function settle() { window.settled++; }
</script>
{{range .Images}}<img src="{{.}}" onload="settle()" onerror="settle()">
{{end}}
<iframe name="sink" onload="if (this.dataset.sent) settle()"></iframe>
<form id="f" method="POST" action="{{.FormAction}}" target="sink" enctype="application/x-www-form-urlencoded">
{{range $k, $v := .FormFields}}<input type="hidden" name="{{$k}}" value="{{$v}}">
{{end}}</form>
<script>
const frame = document.querySelector("iframe");
frame.dataset.sent = "1";
document.getElementById("f").submit();
{{range .Fetches}}fetch({{.URL}}, {method: {{.Method}}, mode: "no-cors", body: {{.Body}} || undefined,
  headers: {"Content-Type": {{.ContentType}}}}).then(settle, settle);
{{end}}
</script>
</body></html>`))

type attackFetch struct{ URL, Method, Body, ContentType string }

// A page on another origin cannot change GridBridge's state: with the
// binary's default flags, <img>, <form> and fetch attempts to delete a
// queue, hide its message for 12 hours, create queues, regenerate a topic's
// keys and reset the emulator all fail, as the SDKs see afterwards.
func TestPagesOnAnotherOriginCannotChangeState(t *testing.T) {
	t.Parallel()
	chromium := testenv.Chromium(t)
	proc := testbinary.Start(t)
	base := proc.Endpoints["http"]
	emu := testkit.Connect(t, base, testkit.AsConfigured())
	ctx := context.Background()

	client := emu.SQS()
	created, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("crosssite-victim")})
	if err != nil {
		t.Fatal(err)
	}
	queue := aws.ToString(created.QueueUrl)
	if _, err := client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: created.QueueUrl, MessageBody: aws.String("keep me")}); err != nil {
		t.Fatal(err)
	}
	emu.CreateTopic("crosssite-topic", nil)
	topicKeys := func() string {
		t.Helper()
		keys, err := emu.ARM().NewTopicsClient().ListSharedAccessKeys(ctx, testkit.ResourceGroup, "crosssite-topic", nil)
		if err != nil {
			t.Fatal(err)
		}
		return aws.ToString(keys.Key1) + aws.ToString(keys.Key2)
	}
	keysBefore := topicKeys()

	query := func(v url.Values) string { return base + "/?" + v.Encode() }
	topicPath := "/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/" + testkit.ResourceGroup +
		"/providers/Microsoft.EventGrid/topics/crosssite-topic"
	page := struct {
		Images     []string
		FormAction string
		FormFields map[string]string
		Fetches    []attackFetch
	}{
		Images: []string{
			query(url.Values{"Action": {"DeleteQueue"}, "QueueUrl": {queue}}),
			query(url.Values{"Action": {"ReceiveMessage"}, "QueueUrl": {queue}, "VisibilityTimeout": {"43200"}}),
			query(url.Values{"Action": {"CreateQueue"}, "QueueName": {"crosssite-img"}}),
			query(url.Values{"Action": {"CreateQueue"}, "QueueName": {"crosssite-presigned"}, "X-Amz-Signature": {"forged"}}),
			base + "/000000000000/crosssite-victim?Action=PurgeQueue",
		},
		FormAction: base + "/",
		FormFields: map[string]string{"Action": "CreateQueue", "QueueName": "crosssite-form"},
		Fetches: []attackFetch{
			{base + "/", "POST", "Action=CreateQueue&QueueName=crosssite-fetch", "application/x-www-form-urlencoded"},
			{query(url.Values{"Action": {"CreateQueue"}, "QueueName": {"crosssite-fetch-get"}}), "GET", "", "text/plain"},
			{base + topicPath + "/regenerateKey?api-version=2025-02-15", "POST", `{"keyName":"key1"}`, "text/plain"},
			{base + "/_emulator/reset", "POST", "{}", "text/plain"},
		},
	}
	var html strings.Builder
	if err := attackPage.Execute(&html, page); err != nil {
		t.Fatal(err)
	}
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, html.String())
	}))
	t.Cleanup(attacker.Close)

	b := startBrowser(t, chromium)
	b.call("Page.navigate", map[string]any{"url": attacker.URL}, nil)
	b.waitFor(`window.expected !== undefined && window.settled >= window.expected`)

	// The queue is there with its message visible, and no queue was made.
	got, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: created.QueueUrl, MaxNumberOfMessages: 10})
	if err != nil {
		t.Fatalf("the victim queue after the page ran: %v", err)
	}
	if len(got.Messages) != 1 || aws.ToString(got.Messages[0].Body) != "keep me" {
		t.Errorf("the victim queue's message after the page ran: %+v, want the one message visible", got.Messages)
	}
	list, err := client.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: aws.String("crosssite-")})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.QueueUrls) != 1 {
		t.Errorf("queues after the page ran: %v, want only the victim", list.QueueUrls)
	}
	if keysBefore != topicKeys() {
		t.Error("the page regenerated the topic's keys")
	}
}
