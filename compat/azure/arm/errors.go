package arm

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Error is a request ARM refuses, written as
// {"error":{"code":Code,"message":Message}} with Status (W-EG-4.7).
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// MarshalJSON writes ARM's error body.
func (e *Error) MarshalJSON() ([]byte, error) {
	type body struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	return json.Marshal(struct {
		Error body `json:"error"`
	}{body{e.Code, e.Message}})
}

// The codes GridBridge answers with. The 404 statuses are confirmed for
// Event Grid; the codes are ARM's usual ones.
const (
	CodeInvalidRequest        = "InvalidRequest"
	CodeInvalidRequestContent = "InvalidRequestContent"
	CodeInvalidResourceName   = "InvalidResourceName"
	CodeLocationRequired      = "LocationRequired"
	CodeResourceNotFound      = "ResourceNotFound"
	CodeParentNotFound        = "ParentResourceNotFound"
	CodeMissingAPIVersion     = "MissingApiVersionParameter"
	CodeConflict              = "Conflict"
	CodeMethodNotAllowed      = "MethodNotAllowed"
	CodeRequestTooLarge       = "RequestEntityTooLarge"
	// CodeURLValidation is the code of a failed webhook validation handshake.
	CodeURLValidation = "Url validation"
)

// BadRequest is a 400 InvalidRequest.
func BadRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// NotFound is a 404 ResourceNotFound.
func NotFound(format string, args ...any) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeResourceNotFound, Message: fmt.Sprintf(format, args...)}
}

// ParentNotFound is a 404 for a child whose parent does not exist.
func ParentNotFound(format string, args ...any) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeParentNotFound, Message: fmt.Sprintf(format, args...)}
}

// Conflict is a 409 Conflict.
func Conflict(format string, args ...any) *Error {
	return &Error{Status: http.StatusConflict, Code: CodeConflict, Message: fmt.Sprintf(format, args...)}
}
