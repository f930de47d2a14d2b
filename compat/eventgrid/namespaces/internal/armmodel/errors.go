// Package armmodel is the ARM management-plane model of Event Grid
// namespaces, namespace topics and namespace-topic event subscriptions
// (api-version 2025-02-15, as armeventgrid/v2 v2.3.0 sends it): request
// decoding, validation with ARM's 400 errors, defaults, and the resource
// bodies the service returns.
package armmodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// ARM error codes. Only the 404 statuses are confirmed for Event Grid; the
// codes are ARM's usual ones (the reference marks them UNCONFIRMED).
const (
	CodeInvalidRequestContent = "InvalidRequestContent"
	CodeInvalidRequest        = "InvalidRequest"
	CodeInvalidResourceName   = "InvalidResourceName"
	CodeLocationRequired      = "LocationRequired"
	CodeResourceNotFound      = "ResourceNotFound"
	CodeParentNotFound        = "ParentResourceNotFound"
	CodeMissingAPIVersion     = "MissingApiVersionParameter"
	CodeConflict              = "Conflict"
	CodeMethodNotAllowed      = "MethodNotAllowed"
)

// Error is an ARM error response: {"error":{"code","message"}}.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// MarshalJSON writes the ARM error body.
func (e *Error) MarshalJSON() ([]byte, error) {
	type body struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	return json.Marshal(struct {
		Error body `json:"error"`
	}{body{e.Code, e.Message}})
}

// BadRequest is a 400 with code InvalidRequest.
func BadRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// NotFound is a 404 for a resource that does not exist.
func NotFound(format string, args ...any) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeResourceNotFound, Message: fmt.Sprintf(format, args...)}
}

// ParentNotFound is a 404 for a child whose parent does not exist.
func ParentNotFound(format string, args ...any) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeParentNotFound, Message: fmt.Sprintf(format, args...)}
}

// decode reads a JSON request body into v. Malformed JSON and values of the
// wrong type are 400 InvalidRequestContent, naming the field.
func decode(body []byte, v any) *Error {
	if len(bytes.TrimSpace(body)) == 0 {
		return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequestContent, Message: "The request content was invalid: the body is empty."}
	}
	if err := json.Unmarshal(body, v); err != nil {
		var ae *Error
		if errors.As(err, &ae) {
			return ae
		}
		msg := "the body is not valid JSON"
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && te.Field != "":
			msg = fmt.Sprintf("the value of '%s' must not be a JSON %s", te.Field, te.Value)
		case errors.As(err, &te):
			msg = fmt.Sprintf("the body must be a JSON object, not a JSON %s", te.Value)
		case errors.As(err, &se):
			msg = fmt.Sprintf("the body is not valid JSON (offset %d)", se.Offset)
		}
		return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequestContent, Message: "The request content was invalid: " + msg + "."}
	}
	return nil
}
