package webhook

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Delivery outcome names (EG-24), as lastDeliveryOutcome spells them.
const (
	OutcomeSuccess         = "Success"
	OutcomeBadRequest      = "BadRequest"
	OutcomeUnauthorized    = "Unauthorized"
	OutcomeForbidden       = "Forbidden"
	OutcomeNotFound        = "NotFound"
	OutcomePayloadTooLarge = "PayloadTooLarge"
	OutcomeBusy            = "Busy"
	OutcomeTimedOut        = "TimedOut"
	OutcomeSocketError     = "SocketError"
	OutcomeResolutionError = "ResolutionError"
	OutcomeCanceled        = "Canceled"
)

// Succeeded reports whether a webhook's status counts as delivered: only
// 200 to 204 (EG-4).
func Succeeded(status int) bool { return retry.IsSuccess(status) }

// OutcomeForStatus names the outcome of an HTTP answer (EG-24). The retry
// rules own the table, so the name an attempt reports is the one its
// probation and dead-letter record use.
func OutcomeForStatus(status int) string { return retry.OutcomeName(status, nil) }

// outcomeForError names the outcome of an attempt that got no HTTP answer.
func outcomeForError(ctx context.Context, err error) string {
	if errors.Is(context.Cause(ctx), engine.ErrResponseTimeout) {
		return OutcomeTimedOut // EG-5
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return OutcomeResolutionError
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return OutcomeSocketError
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return OutcomeTimedOut
	}
	if ctx.Err() != nil {
		return OutcomeCanceled
	}
	return OutcomeSocketError
}
