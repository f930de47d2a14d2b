package retry

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// dlqWriteWaits is how long GridBridge waits before re-trying a dead-letter
// write that failed (the SQS server down or slow): short, because EventBridge
// gives up on a failing DLQ quickly and counts the event as lost
// (InvocationsFailedToBeSentToDLQ).
var dlqWriteWaits = []time.Duration{time.Second, 5 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute}

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

// DeadLetterPolicy returns the engine policy that writes one SQS message per
// undeliverable event into sink.
func DeadLetterPolicy(sink engine.Sink, t DeadLetterTarget) *engine.DeadLetterPolicy {
	return &engine.DeadLetterPolicy{
		Sink:       sink,
		RetryAfter: retryDeadLetterWrite,
		Build: func(b *engine.Batch, reason string, _ time.Time) ([]engine.DeadLetter, error) {
			attrs := Attributes(t.RuleArn, t.TargetArn, b.LastOutcome, reason, b.Attempts-1)
			out := make([]engine.DeadLetter, 0, len(b.Items))
			for _, it := range b.Items {
				body := it.Body
				if t.Envelope != nil {
					body = t.Envelope(it)
				}
				out = append(out, engine.DeadLetter{
					Destination: t.QueueArn, Body: body, ContentType: "application/json",
					Attributes: attrs, EventIDs: []string{it.ID},
				})
			}
			return out, nil
		},
	}
}

func retryDeadLetterWrite(n int, _ time.Duration) (time.Duration, bool) {
	if n > len(dlqWriteWaits) {
		return 0, false
	}
	return dlqWriteWaits[n-1], true
}

// Attributes are the message attributes of a dead-letter message, all of
// SQS type String. EXHAUSTED_RETRY_CONDITION is only present when a limit was
// reached: an error that is never retried exhausted nothing.
func Attributes(ruleArn, targetArn string, last engine.Outcome, reason string, retries int) []engine.Attribute {
	code := last.Name
	if code == "" {
		code = CodeUnknown
	}
	msg := last.Message
	if msg == "" {
		msg = fmt.Sprintf("The target invocation failed (%s).", code)
	}
	if len(msg) > errorMessageLimit {
		msg = strings.ToValidUTF8(msg[:errorMessageLimit], "")
	}
	attrs := []engine.Attribute{
		{Name: "RULE_ARN", Type: "String", Value: ruleArn},
		{Name: "TARGET_ARN", Type: "String", Value: targetArn},
		{Name: "ERROR_CODE", Type: "String", Value: code},
		{Name: "ERROR_MESSAGE", Type: "String", Value: msg},
	}
	if reason == ReasonMaximumRetryAttempts || reason == ReasonMaximumEventAgeInSeconds {
		attrs = append(attrs, engine.Attribute{Name: "EXHAUSTED_RETRY_CONDITION", Type: "String", Value: reason})
	}
	attrs = append(attrs, engine.Attribute{Name: "RETRY_ATTEMPTS", Type: "String", Value: strconv.Itoa(max(retries, 0))})
	return attrs
}
