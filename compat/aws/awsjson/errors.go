package awsjson

import (
	"fmt"
	"net/http"
)

// Error codes EventBridge answers with. All but InternalException are client
// faults and travel with HTTP 400.
const (
	CodeValidation             = "ValidationException"
	CodeResourceNotFound       = "ResourceNotFoundException"
	CodeResourceAlreadyExists  = "ResourceAlreadyExistsException"
	CodeLimitExceeded          = "LimitExceededException"
	CodeInvalidEventPattern    = "InvalidEventPatternException"
	CodeIllegalStatus          = "IllegalStatusException"
	CodeManagedRule            = "ManagedRuleException"
	CodeConcurrentModification = "ConcurrentModificationException"
	CodeInternal               = "InternalException"
	CodeSerialization          = "SerializationException"
	CodeUnknownOperation       = "UnknownOperationException"
)

// LimitExceededMessage is the sentence AWS uses for every quota it enforces
// (targets per rule, concurrent replays, ...).
const LimitExceededMessage = "The requested resource exceeds the maximum number allowed."

// Error is an API error answered to the client as {"__type", "message"}.
type Error struct {
	Code    string
	Message string
	Status  int
	// Fields are the error's other members in a REST-JSON body, as its
	// model names them (a ConflictException's resourceId, a
	// ValidationException's fieldList); JSON 1.1 errors carry none.
	Fields map[string]any
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// NewError returns an error with the status EventBridge uses for code.
func NewError(code, message string) *Error {
	status := http.StatusBadRequest
	if code == CodeInternal {
		status = http.StatusInternalServerError
	}
	return &Error{Code: code, Message: message, Status: status}
}

// Validation returns a ValidationException with a formatted message.
func Validation(format string, args ...any) *Error {
	return NewError(CodeValidation, fmt.Sprintf(format, args...))
}

// NotFound returns a ResourceNotFoundException.
func NotFound(format string, args ...any) *Error {
	return NewError(CodeResourceNotFound, fmt.Sprintf(format, args...))
}

// AlreadyExists returns a ResourceAlreadyExistsException.
func AlreadyExists(format string, args ...any) *Error {
	return NewError(CodeResourceAlreadyExists, fmt.Sprintf(format, args...))
}

// LimitExceeded returns AWS's LimitExceededException.
func LimitExceeded() *Error {
	return NewError(CodeLimitExceeded, LimitExceededMessage)
}
