package eventsv2

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// The error codes a dead-letter record can carry (EB-8). A delivery attempt's
// outcome is named with one of them, so the journal, the fault rules and the
// records all speak the same names.
const (
	CodeCustomerValidation           = "CUSTOMER_VALIDATION"
	CodeAccessDenied                 = "ACCESS_DENIED"
	CodeResourceNotFound             = "RESOURCE_NOT_FOUND"
	CodeInputTransformationFailure   = "INPUT_TRANSFORMATION_FAILURE"
	CodeThrottling                   = "THROTTLING"
	CodeExecutionTimeout             = "EXECUTION_TIMEOUT"
	CodeRequestTooLarge              = "REQUEST_TOO_LARGE"
	CodePartialBatchFailure          = "PARTIAL_BATCH_FAILURE"
	CodeResourceConflict             = "RESOURCE_CONFLICT"
	CodeKMSInvalidState              = "KMS_INVALID_STATE"
	CodeSFNTypeNotSupported          = "SFN_TYPE_NOT_SUPPORTED"
	CodeComputeExecutionError        = "COMPUTE_EXECUTION_ERROR"
	CodeInvocationDependencyInternal = "INVOCATION_DEPENDENCY_INTERNAL"
	CodeLoopDetected                 = "LOOP_DETECTED"
	CodeInternalServerError          = "INTERNAL_SERVER_ERROR"
)

// OutcomeInternalFailure names a failure inside GridBridge itself rather than
// at the target. EB-6: such failures are retried without limit and never
// produce a dead-letter record. A fault rule with this outcome simulates one.
const OutcomeInternalFailure = "InternalFailure"

// GenericErrorMessage is the errorMessage of every code whose table row says
// "generic" (EB-8).
const GenericErrorMessage = "Delivery failed."

// ErrorMessageLimit is where errorMessage is cut (EB-7), in characters.
const ErrorMessageLimit = 1024

// messageRule says whether a record of code keeps the failure's own message
// (EB-8's "the target API's own message", "the expression error", the
// access sentences) or says GenericErrorMessage; known is false for names
// that are not one of EB-8's fifteen codes.
func messageRule(code string) (keepsOwn, known bool) {
	switch code {
	case CodeCustomerValidation, CodeAccessDenied, CodeResourceNotFound, CodeInputTransformationFailure:
		return true, true
	case CodeThrottling, CodeExecutionTimeout, CodeRequestTooLarge, CodePartialBatchFailure,
		CodeResourceConflict, CodeKMSInvalidState, CodeSFNTypeNotSupported, CodeComputeExecutionError,
		CodeInvocationDependencyInternal, CodeLoopDetected, CodeInternalServerError:
		return false, true
	}
	return false, false
}

// IsErrorCode reports whether code is one of EB-8's fifteen codes.
func IsErrorCode(code string) bool {
	_, known := messageRule(code)
	return known
}

// codeForStatus names a failed call by its HTTP status. It serves HTTP
// targets and fault rules that give a status but no outcome name. 0 means the
// call got no answer at all.
func codeForStatus(status int) string {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return CodeAccessDenied
	case status == http.StatusNotFound || status == http.StatusGone:
		return CodeResourceNotFound
	case status == http.StatusRequestTimeout:
		return CodeExecutionTimeout
	case status == http.StatusConflict:
		return CodeResourceConflict
	case status == http.StatusRequestEntityTooLarge:
		return CodeRequestTooLarge
	case status == http.StatusTooManyRequests:
		return CodeThrottling
	case status >= 400 && status < 500:
		return CodeCustomerValidation
	default:
		return CodeInvocationDependencyInternal
	}
}

// normalizeCode maps an attempt's outcome name onto EB-8's codes: names that
// are codes stay, anything else (a fault rule's free-form name) is named by
// its status.
func normalizeCode(name string, status int) string {
	if IsErrorCode(name) {
		return name
	}
	return codeForStatus(status)
}

// cantAccessMessage is EB-8's ACCESS_DENIED / RESOURCE_NOT_FOUND sentence
// for a target the subscriber's role cannot reach.
func cantAccessMessage(resource string) string {
	return fmt.Sprintf("EventBridge can't access resource %s. Check that it exists and that the subscriber's delivery role is allowed to access it.", resource)
}

// cantAssumeRoleMessage is EB-8's ACCESS_DENIED sentence for a delivery role
// that cannot be assumed.
func cantAssumeRoleMessage(role string) string {
	return fmt.Sprintf("EventBridge can't assume role %s. Check that the role exists and that its trust policy allows the EventBridge service principal to assume it.", role)
}

// recordMessage is the errorMessage a dead-letter record carries for a
// batch whose last attempt failed with code and message (EB-7, EB-8).
// Injected faults that name ACCESS_DENIED or RESOURCE_NOT_FOUND without one of
// EB-8's sentences get the "can't access" sentence, so records look as the
// cloud writes them whatever the fault rule says.
func recordMessage(code, message string, injected bool, targetArn string) string {
	keepsOwn, known := messageRule(code)
	switch {
	case !known || !keepsOwn:
		message = GenericErrorMessage
	case (code == CodeAccessDenied || code == CodeResourceNotFound) &&
		(message == "" || injected && !strings.HasPrefix(message, "EventBridge can't")):
		message = cantAccessMessage(targetArn)
	case message == "":
		message = GenericErrorMessage
	}
	return truncateChars(message, ErrorMessageLimit)
}

// truncateChars cuts s to at most n characters (runes), never inside one.
func truncateChars(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i < len(s) && count < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return s[:i]
}
