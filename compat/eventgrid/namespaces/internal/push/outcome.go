package push

import (
	"context"
	"errors"
	"net"

	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Outcome names as Event Grid reports delivery results (EG-24), used for
// journal entries and as a push dead letter's deliveryresult ("Unauthorized"
// in the docs' example). They are the topics' names: compat/eventgrid/retry
// owns the table, so a namespace and a topic name an answer alike.
const (
	OutcomeSuccess         = retry.OutcomeSuccess
	OutcomeBadRequest      = retry.OutcomeBadRequest
	OutcomeTimedOut        = retry.OutcomeTimedOut
	OutcomeBusy            = retry.OutcomeBusy
	OutcomeSocketError     = retry.OutcomeSocketError
	OutcomeResolutionError = retry.OutcomeResolutionError
)

// IsSuccess reports a delivered answer: 200 to 204 (Azure's namespace push
// delivery docs).
func IsSuccess(status int) bool { return retry.IsSuccess(status) }

// OutcomeForStatus names an HTTP answer as retry.OutcomeName does (414 is a
// BadRequest, other 5xx are Busy, anything else that is not a success is
// Aborted), except that a status past 599 is Busy here, as push delivery
// has always named it.
func OutcomeForStatus(status int) string {
	if status > 599 {
		return OutcomeBusy
	}
	return retry.OutcomeName(status, nil)
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
