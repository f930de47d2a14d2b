package retry

import (
	"context"
	"errors"
	"net"
	"net/http"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Outcome names of EG-24 (lastDeliveryOutcome), plus "Success", the name the
// engine gives a successful attempt.
const (
	OutcomeSuccess                         = "Success"
	OutcomeNotFound                        = "NotFound"
	OutcomeDisabled                        = "Disabled"
	OutcomeFull                            = "Full"
	OutcomeUnauthorized                    = "Unauthorized"
	OutcomeBadRequest                      = "BadRequest"
	OutcomeTimedOut                        = "TimedOut"
	OutcomeBusy                            = "Busy"
	OutcomePayloadTooLarge                 = "PayloadTooLarge"
	OutcomeProbation                       = "Probation"
	OutcomeCanceled                        = "Canceled"
	OutcomeAborted                         = "Aborted"
	OutcomeSocketError                     = "SocketError"
	OutcomeResolutionError                 = "ResolutionError"
	OutcomeDelivering                      = "Delivering"
	OutcomeSessionQueueNotSupported        = "SessionQueueNotSupported"
	OutcomeForbidden                       = "Forbidden"
	OutcomeInvalidAzureFunctionDestination = "InvalidAzureFunctionDestination"
)

// IsSuccess reports whether Event Grid counts an HTTP answer as delivered:
// only 200, 201, 202, 203 and 204 (EG-4). Every other status, 205 and 3xx
// included, is a failure.
func IsSuccess(status int) bool {
	return status >= http.StatusOK && status <= http.StatusNoContent
}

// OutcomeName names the result of one HTTP delivery attempt as
// lastDeliveryOutcome does (EG-24). err is the transport error, if any: it
// wins over status. For an attempt the engine cancelled at the response
// timeout (EG-5), pass context.Cause(ctx), which is engine.ErrResponseTimeout.
//
// The seed lists the names but pairs only some with causes; the rest are
// GridBridge's decisions: 410 Gone is NotFound (the resource is gone); 504
// is TimedOut (the endpoint's gateway timed out); other 5xx are Busy (the
// only server-side name in the list); other 4xx are BadRequest; any other
// non-success answer (1xx, 205–299, 3xx, which Event Grid does not follow)
// is Aborted, and lastHttpStatusCode in the dead-letter record still shows
// the code. Transport errors other than DNS, timeouts and cancellation are
// SocketError ("a network communication error occurred during delivery").
func OutcomeName(status int, err error) string {
	if err != nil {
		return errorOutcome(err)
	}
	switch {
	case IsSuccess(status):
		return OutcomeSuccess
	case status == http.StatusBadRequest:
		return OutcomeBadRequest
	case status == http.StatusUnauthorized:
		return OutcomeUnauthorized
	case status == http.StatusForbidden:
		return OutcomeForbidden
	case status == http.StatusNotFound, status == http.StatusGone:
		return OutcomeNotFound
	case status == http.StatusRequestTimeout, status == http.StatusGatewayTimeout:
		return OutcomeTimedOut
	case status == http.StatusRequestEntityTooLarge:
		return OutcomePayloadTooLarge
	case status == http.StatusTooManyRequests, status == http.StatusServiceUnavailable:
		return OutcomeBusy
	case status >= 500 && status <= 599:
		return OutcomeBusy
	case status >= 400 && status <= 499:
		return OutcomeBadRequest
	default:
		return OutcomeAborted
	}
}

func errorOutcome(err error) string {
	var dnsErr *net.DNSError
	var netErr net.Error
	switch {
	// DNS first: a lookup that timed out is still a resolution failure.
	case errors.As(err, &dnsErr):
		return OutcomeResolutionError
	case errors.Is(err, engine.ErrResponseTimeout),
		errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return OutcomeTimedOut
	case errors.Is(err, context.Canceled):
		return OutcomeCanceled
	default:
		// Refused, reset or aborted connections, broken pipes, unreachable
		// hosts, a connection closed mid-answer (io.EOF), TLS failures.
		return OutcomeSocketError
	}
}

// statusOf is the status code an outcome stands for. Destinations that are
// not HTTP (a captured Service Bus queue, a fault rule without a status) may
// report only a name; the names EG-24 pairs with exactly one code count as
// that code, so EG-6 and EG-7 apply to them too. Busy and TimedOut stand for
// several codes and get the standard schedule.
func statusOf(o engine.Outcome, name string) int {
	if o.Status != 0 {
		return o.Status
	}
	switch name {
	case OutcomeBadRequest:
		return http.StatusBadRequest
	case OutcomeUnauthorized:
		return http.StatusUnauthorized
	case OutcomeForbidden:
		return http.StatusForbidden
	case OutcomeNotFound:
		return http.StatusNotFound
	case OutcomePayloadTooLarge:
		return http.StatusRequestEntityTooLarge
	default:
		return 0
	}
}

// nameOf is the outcome's EG-24 name: the destination's own, or one derived
// from its status.
func nameOf(o engine.Outcome) string {
	if o.Name != "" {
		return o.Name
	}
	return OutcomeName(o.Status, nil)
}
