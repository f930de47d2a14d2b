package sqssend

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Cause is why a send failed, in terms each face names with its own error
// codes (ERROR_CODE of a dead letter, an attempt's outcome).
type Cause int

const (
	// CauseInternal: SQS failed, or answered with an error GridBridge does
	// not know. Worth retrying.
	CauseInternal Cause = iota
	// CauseQueueMissing: the queue does not exist, or can never take the
	// message (engine.ErrDestinationNotFound).
	CauseQueueMissing
	// CauseTimeout: SQS did not answer in time.
	CauseTimeout
	// CauseUnreachable: no connection to SQS.
	CauseUnreachable
	// CauseThrottled: SQS asked the sender to slow down.
	CauseThrottled
	// CauseAccessDenied: the sender may not write to the queue.
	CauseAccessDenied
	// CauseKMSInvalidState: the queue's KMS key is disabled or unusable.
	CauseKMSInvalidState
	// CauseKMSKeyMissing: the queue's KMS key does not exist.
	CauseKMSKeyMissing
	// CauseRejected: SQS refused the message as a client error.
	CauseRejected
	// CauseTooLarge: the message is larger than the queue's
	// MaximumMessageSize (ErrMessageTooLarge). Sending it again cannot help.
	CauseTooLarge
)

// MaxMessageBytes is the most any SQS queue takes in one message, its body
// and attributes: 1 MiB, the largest MaximumMessageSize. A queue may take
// less; it says so by refusing the message (CauseTooLarge).
const MaxMessageBytes = 1 << 20

// ErrMessageTooLarge is in the error of a send that a queue refused because
// the message is larger than its MaximumMessageSize.
var ErrMessageTooLarge = errors.New("the message is larger than the queue's MaximumMessageSize")

// NonExistentQueue is SQS's message for a queue that does not exist.
const NonExistentQueue = "The specified queue does not exist."

// CauseOf says why a send failed with err. The sink's own error text
// (sqssink: …, a Go network error) names GridBridge's plumbing, not the
// cloud: faces word their messages from the cause, not from err.
func CauseOf(err error) Cause {
	if errors.Is(err, ErrMessageTooLarge) {
		return CauseTooLarge
	}
	if errors.Is(err, engine.ErrDestinationNotFound) {
		return CauseQueueMissing
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, engine.ErrResponseTimeout) {
		return CauseTimeout
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		name := apiErr.ErrorCode()
		switch {
		case strings.Contains(name, "Throttl") || name == "RequestThrottled" || name == "OverLimit":
			return CauseThrottled
		case strings.HasPrefix(name, "KMS.Disabled") || strings.HasPrefix(name, "KMS.KMSInvalidState") || strings.HasPrefix(name, "KmsDisabled"):
			return CauseKMSInvalidState
		case strings.HasPrefix(name, "KMS.NotFound"):
			return CauseKMSKeyMissing
		case strings.Contains(name, "AccessDenied") || strings.Contains(name, "NotAuthorized") || strings.Contains(name, "AuthorizationError"):
			return CauseAccessDenied
		case strings.HasSuffix(name, "InvalidParameterValue") && strings.Contains(apiErr.ErrorMessage(), "Message must be shorter than"):
			// SQS's code, which some servers qualify (AWS.SimpleQueueService.…).
			return CauseTooLarge
		}
		if s := StatusOf(err); s >= 400 && s < 500 || apiErr.ErrorFault() == smithy.FaultClient {
			return CauseRejected
		}
		return CauseInternal
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return CauseUnreachable
	}
	return CauseInternal
}

// StatusOf is the HTTP status SQS answered a failed send with, 0 for none.
func StatusOf(err error) int {
	var withStatus interface{ HTTPStatusCode() int }
	if errors.As(err, &withStatus) {
		return withStatus.HTTPStatusCode()
	}
	return 0
}

// Answer is the error code and message SQS answered a failed send with, ok
// false when the failure was no answer of SQS's (a network error).
func Answer(err error) (code, message string, ok bool) {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return "", "", false
	}
	return apiErr.ErrorCode(), apiErr.ErrorMessage(), true
}

// Rendered is SQS's answer to a failed send as EventBridge and Pipes pass
// it on, in the Java SDK's rendering: "<message> (Service: AmazonSQS;
// Status Code: <status>; Error Code: <code>)", with the status it names; ok
// false when SQS did not answer (a network error). A batch entry's refusal
// carries no status of its own: a refusal (CauseRejected) is taken as 400,
// anything else as 500.
func Rendered(c Cause, err error) (status int, message string, ok bool) {
	name, text, answered := Answer(err)
	if !answered {
		return 0, "", false
	}
	status = StatusOf(err)
	if status == 0 {
		status = http.StatusBadRequest
		if c != CauseRejected {
			status = http.StatusInternalServerError
		}
	}
	return status, fmt.Sprintf("%s (Service: AmazonSQS; Status Code: %d; Error Code: %s)", text, status, name), true
}

// TooLargeMessage is what SQS said refusing a message too large for the
// queue (CauseTooLarge): "One or more parameters are invalid. Reason:
// Message must be shorter than N bytes."
func TooLargeMessage(err error) string {
	if _, msg, ok := Answer(err); ok && msg != "" {
		return msg
	}
	return "The message is larger than the queue's MaximumMessageSize."
}
