package resource

import (
	"fmt"
	"net/http"
)

// Error is a request ARM refuses; the ARM face writes it as
// {"error":{"code":Code,"message":Message}} with Status.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Codes GridBridge answers with (reference §4.7).
const (
	CodeInvalidRequest        = "InvalidRequest"
	CodeInvalidRequestContent = "InvalidRequestContent"
	CodeResourceNotFound      = "ResourceNotFound"
	CodeConflict              = "Conflict"
	// CodeURLValidation is the code of a failed webhook validation handshake.
	CodeURLValidation = "Url validation"
)

// Invalid is a 400 InvalidRequest.
func Invalid(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// BadContent is the 400 ARM answers for a body it cannot deserialize.
func BadContent(err error) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequestContent,
		Message: "The request content was invalid and could not be deserialized: '" + err.Error() + "'."}
}

// NotFound is a 404 ResourceNotFound for the resource named by what, e.g.
// "Microsoft.EventGrid/topics/t1".
func NotFound(what, resourceGroup string) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeResourceNotFound,
		Message: fmt.Sprintf("The Resource '%s' under resource group '%s' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix", what, resourceGroup)}
}
