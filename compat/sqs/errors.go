package sqs

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
)

// apiError is an SQS error. Code is the JSON protocol's error shape name
// (__type "com.amazonaws.sqs#<Code>"); QueryCode is what the query protocol
// and the JSON protocol's x-amzn-query-error header call it.
type apiError struct {
	Code      string
	QueryCode string
	Message   string
	Status    int
	Sender    bool
}

func (e *apiError) Error() string { return e.QueryCode + ": " + e.Message }

func newError(code, queryCode, format string, args ...any) *apiError {
	return &apiError{Code: code, QueryCode: queryCode, Message: fmt.Sprintf(format, args...), Status: http.StatusBadRequest, Sender: true}
}

func errQueueDoesNotExist() *apiError {
	return newError("QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue",
		"The specified queue does not exist.")
}

func errQueueNameExists(name string) *apiError {
	return newError("QueueNameExists", "QueueAlreadyExists",
		"A queue already exists with the same name (%s) and a different value for attribute(s).", name)
}

func errInvalidParameter(format string, args ...any) *apiError {
	return newError("InvalidParameterValue", "InvalidParameterValue", format, args...)
}

func errMissingParameter(name string) *apiError {
	return newError("MissingParameter", "MissingParameter", "The request must contain the parameter %s.", name)
}

func errInvalidAttributeName(name string) *apiError {
	return newError("InvalidAttributeName", "InvalidAttributeName", "Unknown Attribute %s.", name)
}

func errInvalidAttributeValue(format string, args ...any) *apiError {
	return newError("InvalidAttributeValue", "InvalidAttributeValue", format, args...)
}

func errReceiptHandleInvalid(handle string) *apiError {
	return newError("ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid",
		"The input receipt handle \"%s\" is not a valid receipt handle.", handle)
}

func errMessageNotInflight() *apiError {
	return newError("MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight",
		"The message referred to is not in flight.")
}

func errInvalidMessageContents() *apiError {
	return newError("InvalidMessageContents", "InvalidMessageContents",
		"Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF")
}

func errEmptyBatch() *apiError {
	return newError("EmptyBatchRequest", "AWS.SimpleQueueService.EmptyBatchRequest",
		"There should be at least one entry in the request.")
}

func errTooManyEntries(n int) *apiError {
	return newError("TooManyEntriesInBatchRequest", "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
		"Maximum number of entries per request are 10. You have sent %d.", n)
}

func errIDsNotDistinct() *apiError {
	return newError("BatchEntryIdsNotDistinct", "AWS.SimpleQueueService.BatchEntryIdsNotDistinct",
		"Two or more batch entries in the request have the same Id.")
}

func errInvalidBatchEntryID() *apiError {
	return newError("InvalidBatchEntryId", "AWS.SimpleQueueService.InvalidBatchEntryId",
		"A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.")
}

func errBatchTooLong(size int) *apiError {
	return newError("BatchRequestTooLong", "AWS.SimpleQueueService.BatchRequestTooLong",
		"Batch requests cannot be longer than %d bytes. You have sent %d bytes.", maxMessageSize, size)
}

// errUnknownOperation answers a JSON-protocol target SQS does not have, as
// AWS's JSON services do.
func errUnknownOperation(name string) *apiError {
	return newError("UnknownOperationException", "InvalidAction",
		"GridBridge does not implement the SQS operation %q.", name)
}

func errInvalidAction(name string) *apiError {
	return newError("InvalidAction", "InvalidAction", "The action %s is not valid for this endpoint.", name)
}

func errInternal(format string, args ...any) *apiError {
	e := newError("InternalError", "InternalError", format, args...)
	e.Status, e.Sender = http.StatusInternalServerError, false
	return e
}

// modelError is SQS's answer to a request that breaks its model's
// constraints, one at a time as SQS reports them: a missing member is
// MissingParameter; a name outside an enum is InvalidAttributeName where
// the operation's model declares that error (the attribute names of
// CreateQueue, GetQueueAttributes, SetQueueAttributes) and
// InvalidParameterValue elsewhere.
func modelError(svc *awsmodel.Service, action string, v awsmodel.Violation) *apiError {
	if v.Kind == awsmodel.Required {
		return errMissingParameter(v.Member)
	}
	value := "null"
	if v.Value != nil {
		value = *v.Value
	}
	if op, ok := svc.Operation(action); ok && v.Kind == awsmodel.Enum && slices.Contains(op.Errors, "InvalidAttributeName") {
		return errInvalidAttributeName(value)
	}
	return errInvalidParameter("Value %s for parameter %s is invalid. Reason: %s.", value, v.Member, v.Constraint())
}
