package scheduler

import (
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// policy is Scheduler's RetryPolicy: EventBridge's back-off within
// MaximumRetryAttempts and MaximumEventAgeInSeconds (counted from the
// invocation), and no retry for a client error.
type policy struct{ inner *retry.Policy }

func (p policy) AfterFailure(b *engine.Batch, o engine.Outcome, now time.Time) engine.Decision {
	if !retryable(o.Name) {
		return engine.Decision{Action: engine.GiveUpDeadLetter, Reason: retry.ReasonNotRetryable}
	}
	return p.inner.AfterFailure(b, o, now)
}

func (p policy) BeforeRetry(b *engine.Batch, now time.Time) engine.Decision {
	return p.inner.BeforeRetry(b, now)
}

// dlqWriteWaits is how long a failing dead-letter write waits before each
// retry; after the last it is dropped with its reason.
var dlqWriteWaits = []time.Duration{time.Second, 5 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute}

const errorMessageLimit = 1024

// deadLetters writes a given-up invocation to the schedule's SQS
// dead-letter queue: the target's input as the body, and Scheduler's
// message attributes saying what failed.
func deadLetters(sink engine.Sink, queueArn, scheduleArn, targetArn string) *engine.DeadLetterPolicy {
	return &engine.DeadLetterPolicy{
		Sink: sink,
		RetryAfter: func(n int, _ time.Duration) (time.Duration, bool) {
			if n > len(dlqWriteWaits) {
				return 0, false
			}
			return dlqWriteWaits[n-1], true
		},
		Build: func(b *engine.Batch, reason string, _ time.Time) ([]engine.DeadLetter, error) {
			it := b.Items[0]
			inv := it.Meta.(*invocation)
			code := b.LastOutcome.Name
			if code == "" {
				code = errInternal
			}
			msg := b.LastOutcome.Message
			if msg == "" {
				msg = "The target invocation failed (" + code + ")."
			}
			if len(msg) > errorMessageLimit {
				msg = strings.ToValidUTF8(msg[:errorMessageLimit], "")
			}
			attr := func(name, value string) engine.Attribute {
				return engine.Attribute{Name: name, Type: "String", Value: value}
			}
			attrs := []engine.Attribute{
				attr("ERROR_CODE", code),
				attr("ERROR_MESSAGE", msg),
				attr("EXECUTION_ID", inv.executionID),
				attr("RETRY_ATTEMPTS", strconv.Itoa(max(b.Attempts-1, 0))),
				attr("SCHEDULE_ARN", scheduleArn),
				attr("TARGET_ARN", targetArn),
			}
			if reason == retry.ReasonMaximumRetryAttempts || reason == retry.ReasonMaximumEventAgeInSeconds {
				attrs = append(attrs, attr("EXHAUSTED_RETRY_CONDITION", reason))
			}
			return []engine.DeadLetter{{
				Destination: queueArn, Body: []byte(inv.render(max(b.Attempts, 1))), ContentType: "application/json",
				Attributes: attrs, EventIDs: []string{it.ID},
			}}, nil
		},
	}
}
