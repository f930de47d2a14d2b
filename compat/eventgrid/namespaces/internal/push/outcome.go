package push

import (
	"context"
	"errors"
	"net"
	"net/http"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Outcome names as Event Grid reports delivery results (EG-24), used for
// journal entries and as a push dead letter's deliveryresult ("Unauthorized"
// in the docs' example).
const (
	OutcomeSuccess         = "Success"
	OutcomeBadRequest      = "BadRequest"
	OutcomeUnauthorized    = "Unauthorized"
	OutcomeForbidden       = "Forbidden"
	OutcomeNotFound        = "NotFound"
	OutcomeTimedOut        = "TimedOut"
	OutcomePayloadTooLarge = "PayloadTooLarge"
	OutcomeBusy            = "Busy"
	OutcomeAborted         = "Aborted"
	OutcomeSocketError     = "SocketError"
	OutcomeResolutionError = "ResolutionError"
)

// IsSuccess reports a delivered answer: 200 to 204 [DOC].
func IsSuccess(status int) bool { return status >= 200 && status <= 204 }

// OutcomeForStatus names an HTTP answer. 414 has no name of its own in the
// list and is a BadRequest; other 5xx are Busy; anything else that is not a
// success (1xx, 205..3xx) is Aborted.
func OutcomeForStatus(status int) string {
	switch {
	case IsSuccess(status):
		return OutcomeSuccess
	case status == http.StatusUnauthorized:
		return OutcomeUnauthorized
	case status == http.StatusForbidden:
		return OutcomeForbidden
	case status == http.StatusNotFound || status == http.StatusGone:
		return OutcomeNotFound
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		return OutcomeTimedOut
	case status == http.StatusRequestEntityTooLarge:
		return OutcomePayloadTooLarge
	case status >= 400 && status < 500 && status != http.StatusTooManyRequests:
		return OutcomeBadRequest
	case status == http.StatusTooManyRequests || status >= 500:
		return OutcomeBusy
	default:
		return OutcomeAborted
	}
}

// outcomeForError names a request that got no answer.
func outcomeForError(ctx context.Context, err error) string {
	var dnsErr *net.DNSError
	switch {
	case errors.Is(context.Cause(ctx), engine.ErrResponseTimeout), errors.Is(err, context.DeadlineExceeded):
		return OutcomeTimedOut
	case errors.As(err, &dnsErr):
		return OutcomeResolutionError
	default:
		return OutcomeSocketError
	}
}
