package e2e

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/internal/facetest"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// recorder is an HTTP endpoint that keeps every request it got and answers
// the status its path names (/ok 200, /bad 400).
type recorder struct {
	mu   sync.Mutex
	seen []string // method, URL, headers and body of each request, as text
	srv  *httptest.Server
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var b strings.Builder
		b.WriteString(req.Method + " " + req.URL.String() + "\n")
		_ = req.Header.Write(&b)
		b.Write(body)
		r.mu.Lock()
		r.seen = append(r.seen, b.String())
		r.mu.Unlock()
		if strings.HasPrefix(req.URL.Path, "/bad") {
			w.WriteHeader(http.StatusBadRequest)
		}
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) all() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.seen, "\n")
}

// inspectionViews reads every /_emulator/ view a user or test can see.
func inspectionViews(t *testing.T, emu *testkit.Emulator, queues ...string) map[string]string {
	t.Helper()
	paths := []string{"/deliveries", "/deadletters", "/drops", "/journal", "/metrics", "/faults", "/sqs",
		"/eventbridge/subscribers", "/info"}
	for _, q := range queues {
		paths = append(paths, "/sqs/messages?queue="+q)
	}
	out := map[string]string{}
	for _, p := range paths {
		resp, err := emu.HTTPClient().Get(emu.URL() + "/_emulator" + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET /_emulator%s = %d %s", p, resp.StatusCode, body)
		}
		out[p] = string(body)
	}
	return out
}

// TestSecretsAreRedactedInEveryInspectionView: the endpoints get every
// secret; no /_emulator/ view (journal, deliveries, dead letters, DLQ
// messages) shows one, and the deliveries still show that each was sent.
func TestSecretsAreRedactedInEveryInspectionView(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	emu := testkit.Connect(t, proc.Endpoints["http"])
	ctx := context.Background()
	endpoint := newRecorder(t)
	basicSecret := base64.StdEncoding.EncodeToString([]byte("user:HIDDEN-PASSWORD"))
	secrets := []string{"HIDDEN-APIKEY", "HIDDEN-HEADER", "HIDDEN-QS", "HIDDEN-BODY", "HIDDEN-PASSWORD", basicSecret,
		"HIDDEN-CODE", "HIDDEN-STATIC"}

	// EventBridge: API destinations over an API-key and a Basic connection,
	// each with secret invocation parameters; one answers 400, one cannot
	// be reached; both end in a DLQ at once.
	eb := emu.EventBridge()
	params := &ebtypes.ConnectionHttpParameters{
		HeaderParameters: []ebtypes.ConnectionHeaderParameter{
			{Key: aws.String("X-Secret-H"), Value: aws.String("HIDDEN-HEADER"), IsValueSecret: true},
			{Key: aws.String("X-Plain"), Value: aws.String("visible")}},
		QueryStringParameters: []ebtypes.ConnectionQueryStringParameter{{Key: aws.String("qs"), Value: aws.String("HIDDEN-QS"), IsValueSecret: true}},
		BodyParameters:        []ebtypes.ConnectionBodyParameter{{Key: aws.String("bs"), Value: aws.String("HIDDEN-BODY"), IsValueSecret: true}},
	}
	key, err := eb.CreateConnection(ctx, &eventbridge.CreateConnectionInput{Name: aws.String("key"), AuthorizationType: ebtypes.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &ebtypes.CreateConnectionAuthRequestParameters{
			ApiKeyAuthParameters:     &ebtypes.CreateConnectionApiKeyAuthRequestParameters{ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("HIDDEN-APIKEY")},
			InvocationHttpParameters: params}})
	if err != nil {
		t.Fatal(err)
	}
	basic, err := eb.CreateConnection(ctx, &eventbridge.CreateConnectionInput{Name: aws.String("basic"), AuthorizationType: ebtypes.ConnectionAuthorizationTypeBasic,
		AuthParameters: &ebtypes.CreateConnectionAuthRequestParameters{
			BasicAuthParameters: &ebtypes.CreateConnectionBasicAuthRequestParameters{Username: aws.String("user"), Password: aws.String("HIDDEN-PASSWORD")}}})
	if err != nil {
		t.Fatal(err)
	}
	dlq := "arn:aws:sqs:us-east-1:000000000000:secrets-dlq"
	noRetry := &ebtypes.RetryPolicy{MaximumRetryAttempts: aws.Int32(0)}
	var targets []ebtypes.Target
	for _, d := range []struct{ name, conn, url string }{
		{"ok", *key.ConnectionArn, endpoint.srv.URL + "/ok"},
		{"bad", *key.ConnectionArn, endpoint.srv.URL + "/bad"},
		{"down", *key.ConnectionArn, "http://127.0.0.1:1/down"},
		{"basic", *basic.ConnectionArn, endpoint.srv.URL + "/ok"},
	} {
		out, err := eb.CreateApiDestination(ctx, &eventbridge.CreateApiDestinationInput{Name: aws.String(d.name), ConnectionArn: aws.String(d.conn),
			InvocationEndpoint: aws.String(d.url), HttpMethod: ebtypes.ApiDestinationHttpMethodPost})
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, ebtypes.Target{Id: aws.String(d.name), Arn: out.ApiDestinationArn, RoleArn: aws.String("arn:aws:iam::000000000000:role/r"),
			RetryPolicy: noRetry, DeadLetterConfig: &ebtypes.DeadLetterConfig{Arn: aws.String(dlq)}})
	}
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("all"), EventPattern: aws.String(`{"source":["shop"]}`)}); err != nil {
		t.Fatal(err)
	}
	if out, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("all"), Targets: targets}); err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v %v", out, err)
	}
	if _, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
		{Source: aws.String("shop"), DetailType: aws.String("placed"), Detail: aws.String(`{"id":1}`)}}}); err != nil {
		t.Fatal(err)
	}

	// Event Grid: a webhook whose URL query is a secret, with a static
	// delivery property marked isSecret; a second one answers 400 and
	// dead-letters.
	hook := fakes.NewWebhook(t)
	refusing := fakes.NewWebhook(t, fakes.Script(fakes.Status(400)))
	emu.CreateTopic("orders", nil)
	for _, s := range []struct{ name, url string }{{"audit", hook.URL() + "?code=HIDDEN-CODE"}, {"refused", refusing.URL() + "?code=HIDDEN-CODE"}} {
		dest := testkit.WebHookDestination(s.url)
		dest.Properties.DeliveryAttributeMappings = []armeventgrid.DeliveryAttributeMappingClassification{
			&armeventgrid.StaticDeliveryAttributeMapping{Name: to.Ptr("X-Static-Secret"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
				Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr("HIDDEN-STATIC"), IsSecret: to.Ptr(true)}},
			&armeventgrid.StaticDeliveryAttributeMapping{Name: to.Ptr("X-Static-Plain"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
				Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr("plain-value")}},
		}
		emu.CreateEventSubscription("orders", s.name, armeventgrid.EventSubscriptionProperties{
			Destination: dest, DeadLetterDestination: egDeadLetterTo("devstoreaccount1", "dead")})
	}
	egPublish(t, emu, "orders", azeventgrid.Event{ID: to.Ptr("e-1"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(testkit.DefaultStart()), Data: map[string]any{"id": 1}})

	emu.WaitForDeliveries(testkit.Filter{Rule: "all"}, 4)
	emu.WaitForDeliveries(testkit.Filter{Topic: "orders"}, 2)
	emu.WaitForDeadLetters(testkit.Filter{Rule: "all"}, 2)
	emu.WaitForDeliveries(testkit.Filter{Subscription: "refused", Outcome: "BadRequest"}, 1)
	emu.Advance(5 * time.Minute) // Event Grid writes a dead letter 5 minutes after giving up (EG-21)
	emu.WaitForDeadLetters(testkit.Filter{Subscription: "refused"}, 1)
	if got := emu.SQSMessages(dlq); len(got) != 2 {
		t.Fatalf("DLQ holds %d messages, want 2 (bad and down)", len(got))
	}

	// The endpoints got every secret as it is.
	got := endpoint.all()
	for _, s := range []string{"x-Api-Key: HIDDEN-APIKEY", "X-Secret-H: HIDDEN-HEADER", "qs=HIDDEN-QS", `"bs":"HIDDEN-BODY"`, "Authorization: Basic " + basicSecret} {
		if !strings.Contains(strings.ToLower(got), strings.ToLower(s)) {
			t.Errorf("the API destination endpoint did not get %q:\n%s", s, got)
		}
	}
	delivered, _ := hook.WaitForDeliveries(ctx, 1)
	if len(delivered) == 0 || delivered[0].Header.Get("X-Static-Secret") != "HIDDEN-STATIC" || !strings.Contains(delivered[0].RawQuery, "HIDDEN-CODE") {
		t.Fatalf("the webhook did not get its secrets: %+v", delivered)
	}

	// No view shows one; the deliveries show that each was sent.
	views := inspectionViews(t, emu, dlq)
	for path, body := range views {
		for _, s := range secrets {
			if strings.Contains(body, s) {
				t.Errorf("GET /_emulator%s shows the secret %q", path, s)
			}
		}
	}
	deliveries := views["/deliveries"]
	for _, s := range []string{`"X-Secret-H":["<redacted>"]`, `"X-Api-Key":["<redacted>"]`, `"Authorization":["<redacted>"]`,
		`qs=<redacted>`, `"bs":"<redacted>"`, `"X-Static-Secret":["<redacted>"]`, `code=<redacted>`,
		`"X-Plain":["visible"]`, `"X-Static-Plain":["plain-value"]`} {
		if !strings.Contains(unescapeHTML(deliveries), s) {
			t.Errorf("the deliveries do not show %s", s)
		}
	}
	if msgs := views["/sqs/messages?queue="+dlq]; !strings.Contains(msgs, "ERROR_MESSAGE") {
		t.Errorf("the DLQ messages carry no ERROR_MESSAGE: %s", msgs)
	}
}

// TestSecretsAreRecordedWithTheDebugFlag: --record-secrets shows them.
func TestSecretsAreRecordedWithTheDebugFlag(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--record-secrets")
	emu := testkit.Connect(t, proc.Endpoints["http"], testkit.WithProbation())
	hook := fakes.NewWebhook(t)
	emu.CreateTopic("orders", nil)
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{Destination: testkit.WebHookDestination(hook.URL() + "?code=HIDDEN-CODE")})
	egPublish(t, emu, "orders", egEvents("e-1")...)
	d := emu.WaitForDeliveries(testkit.Filter{Subscription: "audit"}, 1)
	if d[0].Request == nil || !strings.Contains(d[0].Request.URL, "code=HIDDEN-CODE") {
		t.Fatalf("with --record-secrets the delivery shows %+v", d[0].Request)
	}
}

// TestHeaderValuesThatCannotBeSentFailAtOnce: a CR LF in a value mapped to
// a header fails that attempt for good, naming the mapping: Event Grid
// dead-letters it with no retry, EventBridge puts it in the DLQ.
func TestHeaderValuesThatCannotBeSentFailAtOnce(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	emu := testkit.Connect(t, proc.Endpoints["http"])
	ctx := context.Background()

	hook := fakes.NewWebhook(t)
	emu.CreateTopic("orders", nil)
	dest := testkit.WebHookDestination(hook.URL())
	dest.Properties.DeliveryAttributeMappings = []armeventgrid.DeliveryAttributeMappingClassification{
		&armeventgrid.DynamicDeliveryAttributeMapping{Name: to.Ptr("X-Note"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeDynamic),
			Properties: &armeventgrid.DynamicDeliveryAttributeMappingProperties{SourceField: to.Ptr("data.note")}}}
	emu.CreateEventSubscription("orders", "notes", armeventgrid.EventSubscriptionProperties{
		Destination: dest, DeadLetterDestination: egDeadLetterTo("devstoreaccount1", "dead")})
	egPublish(t, emu, "orders", azeventgrid.Event{ID: to.Ptr("crlf"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(testkit.DefaultStart()), Data: map[string]any{"note": "a\r\nInjected: yes"}})
	emu.WaitForDeliveries(testkit.Filter{Subscription: "notes"}, 1)
	emu.Advance(5 * time.Minute) // the dead letter is written 5 minutes after the give-up (EG-21)
	emu.WaitForDeadLetters(testkit.Filter{Subscription: "notes"}, 1)
	attempts := emu.Deliveries(testkit.Filter{Subscription: "notes"})
	if len(attempts) != 1 || attempts[0].Outcome != "BadRequest" || !strings.Contains(attempts[0].Message, `"X-Note"`) ||
		!strings.Contains(attempts[0].Message, "data.note") {
		t.Fatalf("attempts = %+v, want one BadRequest naming the mapping", attempts)
	}
	if len(hook.Deliveries()) != 0 {
		t.Fatalf("the webhook got %d deliveries", len(hook.Deliveries()))
	}

	endpoint := newRecorder(t)
	eb := emu.EventBridge()
	conn, err := eb.CreateConnection(ctx, &eventbridge.CreateConnectionInput{Name: aws.String("key"), AuthorizationType: ebtypes.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &ebtypes.CreateConnectionAuthRequestParameters{
			ApiKeyAuthParameters: &ebtypes.CreateConnectionApiKeyAuthRequestParameters{ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("k")}}})
	if err != nil {
		t.Fatal(err)
	}
	api, err := eb.CreateApiDestination(ctx, &eventbridge.CreateApiDestinationInput{Name: aws.String("api"), ConnectionArn: conn.ConnectionArn,
		InvocationEndpoint: aws.String(endpoint.srv.URL + "/ok"), HttpMethod: ebtypes.ApiDestinationHttpMethodPost})
	if err != nil {
		t.Fatal(err)
	}
	dlq := "arn:aws:sqs:us-east-1:000000000000:header-dlq"
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("all"), EventPattern: aws.String(`{"source":["shop"]}`)}); err != nil {
		t.Fatal(err)
	}
	if out, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("all"), Targets: []ebtypes.Target{{
		Id: aws.String("api"), Arn: api.ApiDestinationArn, RoleArn: aws.String("arn:aws:iam::000000000000:role/r"),
		HttpParameters:   &ebtypes.HttpParameters{HeaderParameters: map[string]string{"X-Note": "$.detail.note"}},
		DeadLetterConfig: &ebtypes.DeadLetterConfig{Arn: aws.String(dlq)}}}}); err != nil || out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets: %+v %v", out, err)
	}
	if _, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{
		{Source: aws.String("shop"), DetailType: aws.String("placed"), Detail: aws.String(`{"note":"a\u0000b"}`)}}}); err != nil {
		t.Fatal(err)
	}
	emu.WaitForDeadLetters(testkit.Filter{Rule: "all"}, 1)
	if n := len(emu.Deliveries(testkit.Filter{Rule: "all"})); n != 1 {
		t.Fatalf("%d attempts, want 1 (no retry)", n)
	}
	msgs := emu.SQSMessages(dlq)
	errorMessage := ""
	if len(msgs) == 1 {
		for _, a := range msgs[0].Attributes {
			if a.Name == "ERROR_MESSAGE" {
				errorMessage = a.Value
			}
		}
	}
	if !strings.Contains(errorMessage, "HeaderParameters") || !strings.Contains(errorMessage, "X-Note") {
		t.Fatalf("DLQ = %+v, want one message naming HeaderParameters X-Note", msgs)
	}
	if endpoint.all() != "" {
		t.Fatalf("the endpoint got a request: %s", endpoint.all())
	}
}

// unescapeHTML undoes encoding/json's escaping of < > &.
func unescapeHTML(s string) string {
	return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(s)
}

// TestInvalidDeadLetterDestinationsAreRefused: ARM answers 400 in its error
// shape for a container or account Azure would refuse, for a topic's event
// subscription and for a namespace topic's subscription (EG-19).
func TestInvalidDeadLetterDestinationsAreRefused(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual")
	emu := testkit.Connect(t, proc.Endpoints["http"], testkit.WithJitter(0), testkit.WithProbation())
	ctx := context.Background()
	hook := fakes.NewWebhook(t)
	emu.CreateTopic("orders", nil)
	arm := emu.ARM()
	facetest.CreateNamespaceTopic(t, arm, testkit.ResourceGroup, "shop", "orders")

	account := testkit.StorageAccountID("devstoreaccount1")
	for _, c := range []struct{ name, resourceID, container, want string }{
		{"traversal", account, "../../etc", "blobContainerName"},
		{"slash", account, "a/b", "blobContainerName"},
		{"upper", account, "UPPER", "blobContainerName"},
		{"short", account, "ab", "blobContainerName"},
		{"double hyphen", account, "a--b", "blobContainerName"},
		{"leading hyphen", account, "-abc", "blobContainerName"},
		{"account traversal", "/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/../../x", "dead", "resource id"},
		{"not an account", "/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/rg/providers/Microsoft.Web/sites/x", "dead", "storage account"},
	} {
		dest := &armeventgrid.StorageBlobDeadLetterDestination{EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{ResourceID: to.Ptr(c.resourceID), BlobContainerName: to.Ptr(c.container)}}
		_, err := emu.TryCreateEventSubscription("orders", "bad", armeventgrid.EventSubscriptionProperties{
			Destination: testkit.WebHookDestination(hook.URL()), DeadLetterDestination: dest})
		assertARMError(t, "topic subscription, "+c.name, err, c.want)

		poller, err := arm.NewNamespaceTopicEventSubscriptionsClient().BeginCreateOrUpdate(ctx, testkit.ResourceGroup, "shop", "orders", "bad",
			armeventgrid.Subscription{Properties: &armeventgrid.SubscriptionProperties{DeliveryConfiguration: &armeventgrid.DeliveryConfiguration{
				DeliveryMode: to.Ptr(armeventgrid.DeliveryModeQueue),
				Queue:        &armeventgrid.QueueInfo{DeadLetterDestinationWithResourceIdentity: &armeventgrid.DeadLetterWithResourceIdentity{DeadLetterDestination: dest}},
			}}}, nil)
		if err == nil {
			_, err = poller.PollUntilDone(ctx, nil)
		}
		assertARMError(t, "namespace subscription, "+c.name, err, "")
	}
	// A valid destination is still taken.
	if _, err := emu.TryCreateEventSubscription("orders", "good", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(hook.URL()), DeadLetterDestination: egDeadLetterTo("devstoreaccount1", "dead-letters-1")}); err != nil {
		t.Fatalf("a valid destination was refused: %v", err)
	}
}

func assertARMError(t *testing.T, what string, err error, want string) {
	t.Helper()
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 400 || re.ErrorCode == "" {
		t.Errorf("%s: %v, want a 400 ARM error", what, err)
		return
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v, want it to mention %q", what, err, want)
	}
}
