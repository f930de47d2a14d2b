package eventsv2

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Bus v2 backs off as classic targets do (retry.Wait: 1 s doubling up to 8
// minutes, tested there), so its largest policy spans EB-3's day.
func TestEB2_BackoffIsTheClassicSchedule(t *testing.T) {
	t.Parallel()
	var total time.Duration
	for n := 1; n <= maxRetryAttempts; n++ {
		if got, want := retryWait(n), retry.Wait(n); got != want {
			t.Errorf("retry %d waits %s, want the classic %s", n, got, want)
		}
		total += retryWait(n)
	}
	if total < 23*time.Hour || total > 24*time.Hour {
		t.Fatalf("185 retries span %s", total)
	}
}

func TestEB2_JitterStaysWithinTwentyPercent(t *testing.T) {
	t.Parallel()
	for n := 1; n < 50; n++ {
		w := retryWait(n)
		j := jittered(w, 42, "event-1", n)
		if j < w*8/10 || j > w*12/10 {
			t.Fatalf("retry %d: %s jittered to %s", n, w, j)
		}
		if j != jittered(w, 42, "event-1", n) {
			t.Fatal("jitter is not reproducible")
		}
	}
}

func TestEB8_CodeForStatus(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]string{
		400: CodeCustomerValidation, 401: CodeAccessDenied, 403: CodeAccessDenied, 404: CodeResourceNotFound,
		408: CodeExecutionTimeout, 409: CodeResourceConflict, 410: CodeResourceNotFound, 413: CodeRequestTooLarge,
		422: CodeCustomerValidation, 429: CodeThrottling, 500: CodeInvocationDependencyInternal,
		502: CodeInvocationDependencyInternal, 0: CodeInvocationDependencyInternal,
	} {
		if got := codeForStatus(status); got != want {
			t.Errorf("%d → %s, want %s", status, got, want)
		}
	}
	for _, c := range []string{CodeCustomerValidation, CodeAccessDenied, CodeResourceNotFound, CodeInputTransformationFailure,
		CodeThrottling, CodeExecutionTimeout, CodeRequestTooLarge, CodePartialBatchFailure, CodeResourceConflict,
		CodeKMSInvalidState, CodeSFNTypeNotSupported, CodeComputeExecutionError, CodeInvocationDependencyInternal,
		CodeLoopDetected, CodeInternalServerError} {
		if !IsErrorCode(c) {
			t.Errorf("%s is not an error code", c)
		}
	}
	if IsErrorCode(OutcomeInternalFailure) || IsErrorCode("Busy") {
		t.Error("non-codes accepted")
	}
}

func TestEB7_EB8_RecordMessage(t *testing.T) {
	t.Parallel()
	const target = "arn:aws:sqs:us-east-1:111122223333:q"
	cases := []struct {
		code, msg string
		injected  bool
		want      string
	}{
		{CodeCustomerValidation, "bad field", false, "bad field"},
		{CodeCustomerValidation, "", false, GenericErrorMessage},
		{CodeInputTransformationFailure, "no value", false, "no value"},
		{CodeThrottling, "Rate exceeded", false, GenericErrorMessage},
		{CodeAccessDenied, "failure injected by a fault rule", true, cantAccessMessage(target)},
		{CodeAccessDenied, cantAssumeRoleMessage("r"), true, cantAssumeRoleMessage("r")},
		{CodeResourceNotFound, "", false, cantAccessMessage(target)},
		{"Busy", "x", true, GenericErrorMessage},
		{CodeCustomerValidation, strings.Repeat("ж", 2000), false, strings.Repeat("ж", ErrorMessageLimit)},
	}
	for _, tc := range cases {
		if got := recordMessage(tc.code, tc.msg, tc.injected, target); got != tc.want {
			t.Errorf("%s %q → %q, want %q", tc.code, tc.msg, got, tc.want)
		}
	}
}

func TestEB_D3_TransportNamesAreValidForSQSAndHTTP(t *testing.T) {
	t.Parallel()
	for _, k := range []string{MetaEventID, MetaEventGroupID, MetaDeduplicationID, MetaIngestionTime, MetaDeliveryType, MetaEventBusArn, MetaSubscriberArn} {
		n := TransportName(k)
		if strings.ContainsAny(n, ": ") || strings.HasPrefix(strings.ToLower(n), "aws.") || !strings.HasPrefix(n, "aws-") {
			t.Errorf("%s travels as %q", k, n)
		}
	}
}

func TestEB12_ReplayWindowIsInclusiveToTheSecond(t *testing.T) {
	t.Parallel()
	w := &replayWindow{start: t0, end: t0.Add(time.Minute)}
	for offset, want := range map[time.Duration]bool{
		-time.Millisecond:                     false,
		0:                                     true,
		time.Minute:                           true,
		time.Minute + 999*time.Millisecond:    true, // 18:41:00.999 is "18:41:00Z" in a record
		time.Minute + 1000*time.Millisecond:   false,
		30*time.Second + 500*time.Millisecond: true,
	} {
		if got := w.contains(t0.Add(offset)); got != want {
			t.Errorf("%s: %v, want %v", offset, got, want)
		}
	}
	open := &replayWindow{start: t0, open: true}
	if !open.contains(t0.Add(1000 * time.Hour)) {
		t.Error("an open window ends")
	}
}

// TestEB11_TransientRecordFailuresRetriedThenCounted: a queue server that
// keeps failing is retried on the schedule, then the record is lost and
// counted once.
func TestEB11_TransientRecordFailuresRetriedThenCounted(t *testing.T) {
	t.Parallel()
	calls := 0
	failing := func(sqssend.Queues) sqssend.Queues {
		return queuesFunc(func(_ context.Context, msg sqssend.Message) error {
			if msg.QueueArn == memoryDLQ {
				calls++
				return errors.New("connection refused")
			}
			return nil
		})
	}
	h := newHarness(t, harnessOptions{wrapSQS: failing})
	bus := h.createBus("orders")
	sub := h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": "arn:aws:lambda:us-east-1:111122223333:function:f"},
		"RetryPolicy": m{"MaxRetryAttempts": 0}, "OnFailureConfiguration": m{"Arn": memoryDLQ}})
	h.failSubscriber("s", CodeThrottling, 0)
	h.put(bus, m{})
	h.settle()
	h.advance(time.Hour)
	if got := h.metrics(sub.SubscriberArn); got.OnFailureDestinationFailed != 1 || calls != sqssend.MaxDeadLetterWrites+1 {
		t.Fatalf("metrics %+v after %d writes", got, calls)
	}
	if drops := h.journal(engine.KindDrop, sub.SubscriberArn); len(drops) != 1 || drops[0].Outcome != engine.ReasonDeadLetterUnavailable {
		t.Fatalf("drops = %+v", drops)
	}
}

func TestPagingTokens(t *testing.T) {
	t.Parallel()
	names := []string{"c", "a", "b", "ab"}
	var seen []string
	var token *string
	for {
		page, next, err := page(append([]string(nil), names...), nil, token, ptr(int32(3)))
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, page...)
		if next == "" {
			break
		}
		token = &next
	}
	if strings.Join(seen, ",") != "a,ab,b,c" {
		t.Fatalf("pages gave %v", seen)
	}
}
