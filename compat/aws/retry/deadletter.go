package retry

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// errorMessageLimit bounds ERROR_MESSAGE, as EventBridge truncates it.
const errorMessageLimit = 1024

// DeadLetterTarget says where a target's undeliverable events go.
type DeadLetterTarget struct {
	QueueArn  string
	RuleArn   string
	TargetArn string
	// Envelope returns the original event of an item: the DLQ message body
	// is the event the rule matched, not the target's transformed input.
	Envelope func(*engine.Item) []byte
}

// DeadLetterPolicy returns the engine policy that sends one SQS message per
// undeliverable event to queues.
func DeadLetterPolicy(queues sqssend.Queues, t DeadLetterTarget) *engine.DeadLetterPolicy {
	return sqssend.DeadLetterPolicy(queues, func(b *engine.Batch, reason string, _ time.Time) ([]sqssend.Message, error) {
		attrs := Attributes(t.RuleArn, t.TargetArn, b.LastOutcome, reason, b.Attempts-1)
		out := make([]sqssend.Message, 0, len(b.Items))
		for _, it := range b.Items {
			body := it.Body
			if t.Envelope != nil {
				body = t.Envelope(it)
			}
			out = append(out, sqssend.Message{QueueArn: t.QueueArn, Body: body, Attributes: attrs, EventIDs: []string{it.ID}})
		}
		return out, nil
	})
}

// Attributes are the message attributes of a dead-letter message, all of
// SQS type String. EXHAUSTED_RETRY_CONDITION is only present when a limit was
// reached: an error that is never retried exhausted nothing.
func Attributes(ruleArn, targetArn string, last engine.Outcome, reason string, retries int) []engine.Attribute {
	code := cmp.Or(last.Name, CodeUnknown)
	attrs := []engine.Attribute{
		{Name: "RULE_ARN", Type: "String", Value: ruleArn},
		{Name: "TARGET_ARN", Type: "String", Value: targetArn},
		{Name: "ERROR_CODE", Type: "String", Value: code},
		{Name: "ERROR_MESSAGE", Type: "String", Value: ErrorMessage(last.Message, code)},
	}
	if Exhausted(reason) {
		attrs = append(attrs, engine.Attribute{Name: "EXHAUSTED_RETRY_CONDITION", Type: "String", Value: reason})
	}
	attrs = append(attrs, engine.Attribute{Name: "RETRY_ATTEMPTS", Type: "String", Value: strconv.Itoa(max(retries, 0))})
	return attrs
}

// ErrorMessage is a dead letter's ERROR_MESSAGE: the last failure's message
// (a sentence naming code when it had none), truncated as AWS truncates it.
func ErrorMessage(message, code string) string {
	if message == "" {
		message = fmt.Sprintf("The target invocation failed (%s).", code)
	}
	if len(message) > errorMessageLimit {
		message = strings.ToValidUTF8(message[:errorMessageLimit], "")
	}
	return message
}

// Exhausted reports whether a give-up reason is a retry limit reached, the
// value of a dead letter's EXHAUSTED_RETRY_CONDITION; an error that is never
// retried exhausted nothing.
func Exhausted(reason string) bool {
	return reason == ReasonMaximumRetryAttempts || reason == ReasonMaximumEventAgeInSeconds
}
