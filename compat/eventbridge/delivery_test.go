package eventbridge_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

const dlqArn = "arn:aws:sqs:us-east-1:123456789012:dlq"

func putTargets(t testing.TB, h *harness, rule string, targets ...types.Target) {
	t.Helper()
	out := must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(ctx(t), &ebsdk.PutTargetsInput{Rule: aws.String(rule), Targets: targets}))
	if out.FailedEntryCount != 0 {
		t.Fatalf("PutTargets failed entries: %+v", out.FailedEntries)
	}
}

func putEvent(t testing.TB, h *harness, e types.PutEventsRequestEntry) string {
	t.Helper()
	out := must[*ebsdk.PutEventsOutput](t)(h.client.PutEvents(ctx(t), &ebsdk.PutEventsInput{Entries: []types.PutEventsRequestEntry{e}}))
	if out.FailedEntryCount != 0 {
		t.Fatalf("PutEvents: %s", aws.ToString(out.Entries[0].ErrorMessage))
	}
	return aws.ToString(out.Entries[0].EventId)
}

// onlyDeadLetter fails the test unless the DLQ (dlqArn) holds exactly one
// dead letter, and returns it with its attributes.
func (h *harness) onlyDeadLetter() (sqssend.Message, map[string]string) {
	h.T.Helper()
	dlq := h.sqs.Messages(dlqArn)
	if len(dlq) != 1 {
		h.T.Fatalf("%d DLQ messages: %+v", len(dlq), dlq)
	}
	return dlq[0], attributes(dlq[0])
}

// eventID is the id of the event a message body holds.
func eventID(t testing.TB, body []byte) string {
	t.Helper()
	var ev struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		t.Fatalf("message body %s is not an event: %v", body, err)
	}
	return ev.ID
}

func attributes(dl sqssend.Message) map[string]string {
	m := map[string]string{}
	for _, a := range dl.Attributes {
		if a.Type != "String" {
			m[a.Name] = "type " + a.Type
			continue
		}
		m[a.Name] = a.Value
	}
	return m
}

func TestRuleDeliversToSQS(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	putRule(t, h, "orders", "", `{"source":["shop.orders"],"detail":{"total":[{"exists":true}]}}`)
	putTargets(t, h, "orders",
		types.Target{Id: aws.String("a"), Arn: aws.String(queueArn)},
		types.Target{Id: aws.String("b"), Arn: aws.String("arn:aws:sqs:us-east-1:123456789012:audit")})
	putRule(t, h, "off", "", orderPattern)
	putTargets(t, h, "off", types.Target{Id: aws.String("x"), Arn: aws.String("arn:aws:sqs:us-east-1:123456789012:off")})
	must[*ebsdk.DisableRuleOutput](t)(h.client.DisableRule(ctx(t), &ebsdk.DisableRuleInput{Name: aws.String("off")}))

	id := putEvent(t, h, entry(`{"total":12}`))
	putEvent(t, h, entry(`{"other":1}`))
	other := entry(`{"total":1}`)
	other.Source = aws.String("shop.returns")
	putEvent(t, h, other)
	h.settle()

	a, b := h.sqs.Messages(queueArn), h.sqs.Messages("arn:aws:sqs:us-east-1:123456789012:audit")
	if len(a) != 1 || len(b) != 1 {
		t.Fatalf("deliveries: %d to a, %d to b", len(a), len(b))
	}
	var ev map[string]any
	if err := json.Unmarshal(a[0].Body, &ev); err != nil || ev["id"] != id {
		t.Fatalf("body %s: %v", a[0].Body, err)
	}
	if string(a[0].Body) != string(b[0].Body) {
		t.Fatal("both targets must receive the same event, with the same id")
	}
	if len(h.sqs.Messages("arn:aws:sqs:us-east-1:123456789012:off")) != 0 {
		t.Fatal("a disabled rule matched")
	}
	delivered := h.entries(engine.KindDelivered, map[string]string{"cloud": "eventbridge", "bus": "default", "rule": "orders", "target": "a"})
	if len(delivered) != 1 || delivered[0].EventIDs[0] != id {
		t.Fatalf("journal: %+v", delivered)
	}
}

func TestTargetInputs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	putRule(t, h, "r", "", orderPattern)
	q := func(n string) string { return "arn:aws:sqs:us-east-1:123456789012:" + n }
	putTargets(t, h, "r",
		types.Target{Id: aws.String("const"), Arn: aws.String(q("const")), Input: aws.String(`{"fixed":true}`)},
		types.Target{Id: aws.String("path"), Arn: aws.String(q("path")), InputPath: aws.String("$.detail.user")},
		types.Target{Id: aws.String("text"), Arn: aws.String(q("text")), InputTransformer: &types.InputTransformer{
			InputPathsMap: map[string]string{"user": "$.detail.user", "type": "$.detail-type"},
			InputTemplate: aws.String(`"<user> did <type> (rule <aws.events.rule-name>)"`)}},
		types.Target{Id: aws.String("json"), Arn: aws.String(q("json")), InputTransformer: &types.InputTransformer{
			InputPathsMap: map[string]string{"user": "$.detail.user", "n": "$.detail.n", "missing": "$.detail.none"},
			InputTemplate: aws.String(`{"who": <user>, "path": "users/<user>", "n": <n>, "m": <missing>}`)}},
		types.Target{Id: aws.String("broken"), Arn: aws.String(q("broken")), InputTransformer: &types.InputTransformer{
			InputPathsMap: map[string]string{"obj": "$.detail"}, InputTemplate: aws.String(`{"x": "<obj>"}`)},
			DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}},
	)
	id := putEvent(t, h, entry(`{"user":"u-1","n":7}`))
	h.settle()
	want := map[string]string{
		"const": `{"fixed":true}`,
		"path":  `"u-1"`,
		"text":  `"u-1 did OrderPlaced (rule r)"`,
		"json":  `{"who": "u-1", "path": "users/u-1", "n": 7, "m": ""}`,
	}
	for name, body := range want {
		msgs := h.sqs.Messages(q(name))
		if len(msgs) != 1 || string(msgs[0].Body) != body {
			t.Errorf("%s: got %d messages %q, want %s", name, len(msgs), bodies(msgs), body)
		}
	}
	// A template whose result is not JSON delivers nothing: the event goes
	// to the dead-letter queue as a non-retryable INVALID_JSON failure.
	if n := len(h.sqs.Messages(q("broken"))); n != 0 {
		t.Fatalf("broken template delivered %d messages", n)
	}
	// Its body is the event the rule matched, not the target's input.
	if dl, got := h.onlyDeadLetter(); got["ERROR_CODE"] != "INVALID_JSON" || eventID(t, dl.Body) != id {
		t.Fatalf("broken template DLQ: %+v", dl)
	}
}

func bodies(msgs []sqssend.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = string(m.Body)
	}
	return out
}

// TestRetriesThenDeadLetter follows a target that always fails: retries at
// 1 s, 2 s, 4 s (jitter off), then the DLQ message with all six attributes.
func TestRetriesThenDeadLetter(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ruleArn := putRule(t, h, "r", "", orderPattern)
	fn := "arn:aws:lambda:us-east-1:123456789012:function:orders"
	putTargets(t, h, "r", types.Target{Id: aws.String("fn"), Arn: aws.String(fn),
		RetryPolicy:      &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(3)},
		DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}})
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"rule": "r"}, Status: 500, Message: "function crashed"})

	id := putEvent(t, h, entry(`{"n":1}`))
	h.settle()
	h.Clock.Advance(time.Minute)

	attempts := h.entries(engine.KindAttempt, map[string]string{"rule": "r", "target": "fn"})
	wantAt := []time.Duration{0, time.Second, 3 * time.Second, 7 * time.Second}
	if len(attempts) != len(wantAt) {
		t.Fatalf("%d attempts, want %d", len(attempts), len(wantAt))
	}
	for i, a := range attempts {
		if !a.Time.Equal(t0.Add(wantAt[i])) || a.Outcome != "ERROR_FROM_TARGET" {
			t.Errorf("attempt %d at +%s (%s), want +%s", i+1, a.Time.Sub(t0), a.Outcome, wantAt[i])
		}
	}
	dl, got := h.onlyDeadLetter()
	want := map[string]string{
		"RULE_ARN": ruleArn, "TARGET_ARN": fn, "ERROR_CODE": "ERROR_FROM_TARGET", "ERROR_MESSAGE": "function crashed",
		"EXHAUSTED_RETRY_CONDITION": "MaximumRetryAttempts", "RETRY_ATTEMPTS": "3",
	}
	if len(got) != 6 || !equalMaps(got, want) {
		t.Fatalf("DLQ attributes:\n got  %v\n want %v", got, want)
	}
	var body map[string]any
	if err := json.Unmarshal(dl.Body, &body); err != nil || body["id"] != id || body["detail-type"] != "OrderPlaced" {
		t.Fatalf("the DLQ body is the event: %s", dl.Body)
	}
	written := h.entries(engine.KindDeadLetter, map[string]string{"rule": "r"})
	if len(written) != 1 || !written[0].Time.Equal(t0.Add(7*time.Second)) {
		t.Fatalf("dead letter journal: %+v", written)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestEventAgeLimit gives up at exactly MaximumEventAgeInSeconds.
func TestEventAgeLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("q"), Arn: aws.String(queueArn),
		RetryPolicy:      &types.RetryPolicy{MaximumEventAgeInSeconds: aws.Int32(60)},
		DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}})
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"rule": "r"}, Status: 429})
	putEvent(t, h, entry(`{}`))
	h.settle()
	h.Clock.Advance(10 * time.Minute)
	_, got := h.onlyDeadLetter()
	// Retries at 1, 3, 7, 15 and 31 s; the next (63 s) is past the age limit.
	if got["EXHAUSTED_RETRY_CONDITION"] != "MaximumEventAgeInSeconds" || got["RETRY_ATTEMPTS"] != "5" || got["ERROR_CODE"] != "THROTTLING" {
		t.Fatalf("attributes: %v", got)
	}
	if w := h.entries(engine.KindDeadLetter, nil); len(w) != 1 || !w[0].Time.Equal(t0.Add(60*time.Second)) {
		t.Fatalf("dead-lettered at %v, want +60s", w)
	}
}

// TestNonRetryableFailure: missing permissions go to the DLQ at once.
func TestNonRetryableFailure(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("sns"), Arn: aws.String("arn:aws:sns:us-east-1:123456789012:topic"),
		DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}})
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"target": "sns"}, Status: 403})
	putEvent(t, h, entry(`{}`))
	h.settle()
	_, got := h.onlyDeadLetter() // without advancing the clock
	if got["ERROR_CODE"] != "NO_PERMISSIONS" || got["RETRY_ATTEMPTS"] != "0" || len(got) != 5 {
		t.Fatalf("attributes: %v", got)
	}
	if n := len(h.entries(engine.KindAttempt, nil)); n != 1 {
		t.Fatalf("%d attempts, want 1", n)
	}
}

// TestWithoutDeadLetterQueueTheEventIsDropped and counted (D-DROP).
func TestWithoutDeadLetterQueueTheEventIsDropped(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("q"), Arn: aws.String(queueArn), RetryPolicy: &types.RetryPolicy{MaximumRetryAttempts: aws.Int32(0)}})
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"rule": "r"}, Status: 503})
	id := putEvent(t, h, entry(`{}`))
	h.settle()
	drops := h.Engine.Journal().Query(engine.Filter{Kind: engine.KindDrop, EventID: id})
	if len(drops) != 1 || drops[0].Outcome != "MaximumRetryAttempts" {
		t.Fatalf("drops: %+v", drops)
	}
	m, _ := h.Engine.RouteMetrics(drops[0].Route)
	if m.Dropped != 1 || m.Attempts != 1 {
		t.Fatalf("metrics: %+v", m)
	}
}

// TestRetrySucceeds: a fault that clears lets the retry deliver.
func TestRetrySucceeds(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("q"), Arn: aws.String(queueArn)})
	h.Engine.Faults().Add(engine.Fault{Labels: map[string]string{"rule": "r"}, Status: 500, Count: 2})
	putEvent(t, h, entry(`{}`))
	h.settle()
	if len(h.sqs.Messages(queueArn)) != 0 {
		t.Fatal("delivered despite the fault")
	}
	h.Clock.Advance(3 * time.Second)
	if len(h.sqs.Messages(queueArn)) != 1 {
		t.Fatal("the third attempt (at +3s) did not deliver")
	}
}
