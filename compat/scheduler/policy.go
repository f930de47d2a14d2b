package scheduler

import (
	"cmp"
	"strconv"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
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

// deadLetters writes a given-up invocation to the schedule's SQS
// dead-letter queue: the target's input as the body, and Scheduler's
// message attributes saying what failed.
func deadLetters(queues sqssend.Queues, queueArn, scheduleArn, targetArn string) *engine.DeadLetterPolicy {
	return sqssend.DeadLetterPolicy(queues, func(b *engine.Batch, reason string, _ time.Time) ([]sqssend.Message, error) {
		it := b.Items[0]
		inv := it.Meta.(*invocation)
		code := cmp.Or(b.LastOutcome.Name, errInternal)
		attr := func(name, value string) engine.Attribute {
			return engine.Attribute{Name: name, Type: "String", Value: value}
		}
		attrs := []engine.Attribute{
			attr("ERROR_CODE", code),
			attr("ERROR_MESSAGE", retry.ErrorMessage(b.LastOutcome.Message, code)),
			attr("EXECUTION_ID", inv.executionID),
			attr("RETRY_ATTEMPTS", strconv.Itoa(max(b.Attempts-1, 0))),
			attr("SCHEDULE_ARN", scheduleArn),
			attr("TARGET_ARN", targetArn),
		}
		if retry.Exhausted(reason) {
			attrs = append(attrs, attr("EXHAUSTED_RETRY_CONDITION", reason))
		}
		return []sqssend.Message{{
			QueueArn: queueArn, Body: []byte(inv.render(max(b.Attempts, 1))), Attributes: attrs, EventIDs: []string{it.ID},
		}}, nil
	})
}
