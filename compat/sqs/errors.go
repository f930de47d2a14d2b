package sqs

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
)

// apiError is an SQS error. Code is the JSON protocol's error shape name
// (__type "com.amazonaws.sqs#<Code>"); QueryCode is what the query protocol
// and the JSON protocol's x-amzn-query-error header call it.
type apiError struct {
	Code      string
	QueryCode string
	Message   string
	// QueryMessage is the query protocol's wording where SQS words the
	// error differently there; empty: Message.
	QueryMessage string
	Status       int
	Sender       bool
	// cause is what the refusal means to GridBridge's own senders (the AWS
	// faces' targets), for errors.Is: sqssend.ErrMessageTooLarge.
	cause error
}

func (e *apiError) Error() string { return e.QueryCode + ": " + e.Message }

func (e *apiError) Unwrap() error { return e.cause }

// ErrorCode, ErrorMessage, ErrorFault and HTTPStatusCode make an SQS error read, to the AWS
// faces that send to these queues, as the SDK reports SQS's answer
// (smithy.APIError): by its query code.
func (e *apiError) ErrorCode() string    { return e.QueryCode }
func (e *apiError) ErrorMessage() string { return e.Message }
func (e *apiError) HTTPStatusCode() int  { return e.Status }
func (e *apiError) ErrorFault() smithy.ErrorFault {
	if e.Sender {
		return smithy.FaultClient
	}
	return smithy.FaultServer
}

// errMessageTooLong refuses a message larger than the queue's
// MaximumMessageSize, max.
func errMessageTooLong(max int) *apiError {
	e := errInvalidParameter("One or more parameters are invalid. Reason: Message must be shorter than %d bytes.", max)
	e.cause = sqssend.ErrMessageTooLarge
	return e
}

func newError(code, queryCode, format string, args ...any) *apiError {
	return &apiError{Code: code, QueryCode: queryCode, Message: fmt.Sprintf(format, args...), Status: http.StatusBadRequest, Sender: true}
}

// errQueueDoesNotExist is SQS's answer for a missing queue, which the query
// protocol still words as the SOAP-era service did.
func errQueueDoesNotExist() *apiError {
	e := newError("QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue",
		"The specified queue does not exist.")
	e.QueryMessage = "The specified queue does not exist for this wsdl version."
	return e
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

// errEmptyBatch names the batch's entry shape (SendMessageBatchRequestEntry,
// ...) as SQS does.
func errEmptyBatch(entryShape string) *apiError {
	return newError("EmptyBatchRequest", "AWS.SimpleQueueService.EmptyBatchRequest",
		"There should be at least one %s in the request.", entryShape)
}

func errTooManyEntries(n int) *apiError {
	return newError("TooManyEntriesInBatchRequest", "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
		"Maximum number of entries per request are 10. You have sent %d.", n)
}

func errIDsNotDistinct(id string) *apiError {
	return newError("BatchEntryIdsNotDistinct", "AWS.SimpleQueueService.BatchEntryIdsNotDistinct",
		"Id %s repeated.", id)
}

func errInvalidBatchEntryID() *apiError {
	return newError("InvalidBatchEntryId", "AWS.SimpleQueueService.InvalidBatchEntryId",
		"A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.")
}

func errBatchTooLong(size int) *apiError {
	return newError("BatchRequestTooLong", "AWS.SimpleQueueService.BatchRequestTooLong",
		"Batch requests cannot be longer than %d bytes. You have sent %d bytes.", maxMessageSize, size)
}

// errOverLimit is SQS's refusal of a request past a limit of the queue's
// (AddPermission: the actions of one statement), answered with HTTP 403.
func errOverLimit(format string, args ...any) *apiError {
	e := newError("OverLimit", "OverLimit", format, args...)
	e.Status = http.StatusForbidden
	return e
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
