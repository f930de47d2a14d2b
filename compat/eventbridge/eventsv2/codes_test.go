package eventsv2

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// TestEB8_ErrorCodesFromHTTPAnswers: an HTTP target's status names the
// record's code and message, and the attempt log keeps the request.
func TestEB8_ErrorCodesFromHTTPAnswers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		status  int
		body    string
		code    string
		message string // "" means EB-8's "can't access" sentence
	}{
		{400, `{"message":"Field total is required."}`, CodeCustomerValidation, "Field total is required."},
		{422, "plain text refusal", CodeCustomerValidation, "plain text refusal"},
		{401, "", CodeAccessDenied, ""},
		{403, `{"message":"nope"}`, CodeAccessDenied, ""},
		{404, "", CodeResourceNotFound, ""},
		{409, "", CodeResourceConflict, GenericErrorMessage},
		{413, "", CodeRequestTooLarge, GenericErrorMessage},
		{429, "slow down", CodeThrottling, GenericErrorMessage},
		{500, "boom", CodeInvocationDependencyInternal, GenericErrorMessage},
		{503, "", CodeInvocationDependencyInternal, GenericErrorMessage},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, harnessOptions{})
			target := newHTTPTarget(t, h.clock, always(tc.status, tc.body))
			bus := h.createBus("orders")
			sub, dlq := h.oneShotSubscriber(bus, "s", target.url, nil)
			ids := h.put(bus, m{})
			h.settle()
			rec, attrs := h.onlyRecord(dlq)
			want := tc.message
			if want == "" {
				want = cantAccessMessage(target.url)
			}
			if rec.ErrorCode != tc.code || rec.ErrorMessage != want {
				t.Fatalf("record %s %q, want %s %q", rec.ErrorCode, rec.ErrorMessage, tc.code, want)
			}
			if attrs[AttrErrorCode].Value != tc.code || attrs[AttrErrorMessage].Value != want {
				t.Fatalf("attributes %+v", attrs)
			}
			// EB-8: the attempt log holds the request that was sent.
			logs := h.svc.DeliveryAttempts(sub.SubscriberArn)
			if len(logs) != 1 || logs[0].LogType != LogTypeDeliveryAttempt || logs[0].Outcome != tc.code || logs[0].Status != tc.status {
				t.Fatalf("attempt log = %+v", logs)
			}
			req := logs[0].Request
			if req == nil || req.URL != target.url || req.Header.Get("aws-EventId") != ids[0] || !strings.Contains(string(req.Body), ids[0]) {
				t.Fatalf("recorded request = %+v", req)
			}
		})
	}
}

func TestEB8_ExecutionTimeoutOnTheClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{settle: 100 * time.Millisecond})
	release := make(chan struct{})
	target := newHTTPTarget(t, h.clock, func(targetRequest) (int, string) {
		<-release
		return 200, ""
	})
	// Registered after the target, so it runs before the target's server
	// waits for its handlers to end.
	t.Cleanup(func() { close(release) })
	bus := h.createBus("orders")
	_, dlq := h.oneShotSubscriber(bus, "s", target.url, m{"InvokeConfiguration": m{"TargetArn": target.url, "InvocationTimeoutSeconds": 5}})
	h.put(bus, m{})
	h.advance(5*time.Second - time.Millisecond)
	if recs, _ := h.records(dlq); len(recs) != 0 {
		t.Fatalf("gave up before the timeout: %+v", recs)
	}
	h.advance(time.Millisecond)
	rec, _ := h.onlyRecord(dlq)
	if rec.ErrorCode != CodeExecutionTimeout || rec.ErrorMessage != GenericErrorMessage {
		t.Fatalf("record = %+v", rec)
	}
}

func TestEB8_InputAndTransformer(t *testing.T) {
	h, target, bus := startWithTarget(t, always(200, ""))
	h.oneShotSubscriber(bus, "input", target.url, m{"InvokeConfiguration": m{"TargetArn": target.url, "Input": "$.detail"}})
	_, missingDLQ := h.oneShotSubscriber(bus, "missing", target.url, m{"InvokeConfiguration": m{"TargetArn": target.url, "Input": "$.detail.total"}})
	h.oneShotSubscriber(bus, "transformed", target.url, m{"InvokeConfiguration": m{"TargetArn": target.url,
		"Transformer": m{"InputPathsMap": m{"n": "$.detail.n", "src": "$.source"}, "InputTemplate": `{"number": <n>, "from": "<src>"}`}}})
	_, badDLQ := h.oneShotSubscriber(bus, "bad-template", target.url, m{"InvokeConfiguration": m{"TargetArn": target.url,
		"Transformer": m{"InputPathsMap": m{"total": "$.detail.total"}, "InputTemplate": `{"total": <total>}`}}})
	ids := h.put(bus, m{"Detail": `{"n": 7}`})
	h.settle()
	bodies := map[string]bool{}
	for _, r := range target.received() {
		bodies[string(r.Body)] = true
	}
	if !bodies[`{"n":7}`] || !bodies[`{"number": 7, "from": "orders"}`] || len(bodies) != 2 {
		t.Fatalf("bodies = %v", bodies)
	}
	for dlq, want := range map[string]string{
		missingDLQ: "Input $.detail.total produced no value for event " + ids[0] + ".",
		badDLQ:     "Transformer InputPathsMap entry total ($.detail.total) produced no value for event " + ids[0] + ".",
	} {
		rec, _ := h.onlyRecord(dlq)
		if rec.ErrorCode != CodeInputTransformationFailure || rec.ErrorMessage != want {
			t.Errorf("%s: record %s %q, want %q", dlq, rec.ErrorCode, rec.ErrorMessage, want)
		}
	}
}

// TestEB8_PartialBatchFailure: the target accepts part of a batch; the
// accepted events count as delivered and only the refused one is retried
// and recorded.
func TestEB8_PartialBatchFailure(t *testing.T) {
	h := startTest(t)
	// The target refuses the event whose detail is {"n":1}, wherever it is.
	target := newHTTPTarget(t, h.clock, func(r targetRequest) (int, string) {
		var events []struct {
			ID     string          `json:"id"`
			Detail struct{ N int } `json:"detail"`
		}
		body := r.Body
		if len(body) > 0 && body[0] == '{' {
			body = append(append([]byte("["), body...), ']')
		}
		_ = json.Unmarshal(body, &events)
		for _, ev := range events {
			if ev.Detail.N == 1 {
				return 200, fmt.Sprintf(`{"batchItemFailures":[{"itemIdentifier":%q}]}`, ev.ID)
			}
		}
		return 200, ""
	})
	bus := h.createBus("orders")
	sub := h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": target.url, "MaxBatchSize": 3},
		"RetryPolicy": m{"MaxRetryAttempts": 1}, "OnFailureConfiguration": m{"Arn": memoryDLQ}})
	ids := h.put(bus, m{}, m{}, m{})
	h.settle()
	h.advance(time.Minute)
	got := target.received()
	if len(got) != 2 {
		t.Fatalf("%d requests, want 2 (the batch, then the refused event)", len(got))
	}
	var first []json.RawMessage
	if err := json.Unmarshal(got[0].Body, &first); err != nil || len(first) != 3 {
		t.Fatalf("first request is not the batch of 3: %s", got[0].Body)
	}
	if got[1].eventID() != ids[1] {
		t.Fatalf("retry carried %q, want %s", got[1].eventID(), ids[1])
	}
	rec, _ := h.onlyRecord(memoryDLQ)
	if rec.ErrorCode != CodePartialBatchFailure || len(rec.FailedMessages) != 1 || rec.FailedMessages[0].EventID != ids[1] {
		t.Fatalf("record = %+v", rec)
	}
	if m := h.metrics(sub.SubscriberArn); m.Deliveries != 2 || m.DeadLetteredEvents != 1 {
		t.Fatalf("metrics = %+v", m)
	}
}

func TestEB8_LoopDetectedAndBusTargets(t *testing.T) {
	h := startTest(t)
	a := h.createBus("a")
	b := h.createBus("b")
	lambda := "arn:aws:lambda:us-east-1:111122223333:function:f"
	h.createSubscriber(m{"Name": "a-to-b", "EventBusArn": a, "InvokeConfiguration": m{"TargetArn": b}})
	onB := h.createSubscriber(m{"Name": "b-to-lambda", "EventBusArn": b, "InvokeConfiguration": m{"TargetArn": lambda}})
	_, loopDLQ := h.oneShotSubscriber(b, "b-to-a", a, nil)
	_, selfDLQ := h.oneShotSubscriber(a, "a-to-a", a, nil)
	_, goneDLQ := h.oneShotSubscriber(a, "a-to-gone", "arn:aws:events:us-east-1:111122223333:event-busv2/gone/1", nil)
	ids := h.put(a, m{})
	h.settle()
	if d := h.journal(engine.KindDelivered, onB.SubscriberArn); len(d) != 1 || d[0].EventIDs[0] != ids[0] {
		t.Fatalf("forwarded event not delivered on b: %+v", d)
	}
	for dlq, code := range map[string]string{loopDLQ: CodeLoopDetected, selfDLQ: CodeLoopDetected, goneDLQ: CodeResourceNotFound} {
		rec, _ := h.onlyRecord(dlq)
		if rec.ErrorCode != code {
			t.Errorf("%s: %s, want %s", dlq, rec.ErrorCode, code)
		}
	}
}

// TestEB8_FaultRulesNameAnyCode: codes a target cannot produce here come
// from the engine's fault rules, by outcome or by status.
func TestEB8_FaultRulesNameAnyCode(t *testing.T) {
	h := startTest(t)
	lambda := "arn:aws:lambda:us-east-1:111122223333:function:f"
	bus := h.createBus("orders")
	assume := cantAssumeRoleMessage("arn:aws:iam::111122223333:role/EventBusDeliveryRole")
	cases := []struct {
		name  string
		fault engine.Fault
		code  string
		msg   string
	}{
		{"kms", engine.Fault{Outcome: CodeKMSInvalidState}, CodeKMSInvalidState, GenericErrorMessage},
		{"sfn", engine.Fault{Outcome: CodeSFNTypeNotSupported}, CodeSFNTypeNotSupported, GenericErrorMessage},
		{"compute", engine.Fault{Outcome: CodeComputeExecutionError, Message: "stack trace"}, CodeComputeExecutionError, GenericErrorMessage},
		{"internal-server", engine.Fault{Outcome: CodeInternalServerError}, CodeInternalServerError, GenericErrorMessage},
		{"status-403", engine.Fault{Status: 403}, CodeAccessDenied, cantAccessMessage(lambda)},
		{"status-429", engine.Fault{Status: 429}, CodeThrottling, GenericErrorMessage},
		{"assume-role", engine.Fault{Outcome: CodeAccessDenied, Message: assume}, CodeAccessDenied, assume},
		{"validation", engine.Fault{Outcome: CodeCustomerValidation, Message: "Invalid parameter: Message too long"}, CodeCustomerValidation, "Invalid parameter: Message too long"},
		{"free-form-name", engine.Fault{Outcome: "Busy", Status: 503}, CodeInvocationDependencyInternal, GenericErrorMessage},
	}
	dlqs := map[string]string{}
	for _, tc := range cases {
		_, dlqs[tc.name] = h.oneShotSubscriber(bus, tc.name, lambda, nil)
		f := tc.fault
		f.Labels = map[string]string{"subscriber": tc.name}
		h.engine.Faults().Add(f)
	}
	h.put(bus, m{})
	h.settle()
	for _, tc := range cases {
		rec, _ := h.onlyRecord(dlqs[tc.name])
		if rec.ErrorCode != tc.code || rec.ErrorMessage != tc.msg {
			t.Errorf("%s: %s %q, want %s %q", tc.name, rec.ErrorCode, rec.ErrorMessage, tc.code, tc.msg)
		}
	}
}

func TestEB7_ErrorMessageCutAt1024Characters(t *testing.T) {
	h := startTest(t)
	long := strings.Repeat("é", 3000)
	target := newHTTPTarget(t, h.clock, always(400, `{"message":"`+long+`"}`))
	bus := h.createBus("orders")
	_, dlq := h.oneShotSubscriber(bus, "s", target.url, nil)
	h.put(bus, m{})
	h.settle()
	rec, attrs := h.onlyRecord(dlq)
	if n := utf8.RuneCountInString(rec.ErrorMessage); n != ErrorMessageLimit || rec.ErrorMessage != long[:2*ErrorMessageLimit] {
		t.Fatalf("errorMessage has %d characters", n)
	}
	if attrs[AttrErrorMessage].Value != rec.ErrorMessage {
		t.Fatal("ERROR_MESSAGE differs from errorMessage")
	}
}
