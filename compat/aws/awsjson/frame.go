package awsjson

import (
	"log/slog"
	"mime"
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/frame"
)

// Frame returns the request frame of an AWS JSON 1.1 API (EventBridge,
// event buses v2): its refusals and errors in EventBridge's shape.
func Frame(name string, maxBody int64, log *slog.Logger) *frame.API {
	return &frame.API{
		Name: name, MaxBody: maxBody, Log: log,
		Unreadable: func(msg string) error { return NewError(CodeSerialization, msg) },
		TooLarge:   func(msg string) error { return NewError(CodeValidation, msg) },
		Internal:   func(msg string) error { return NewError(CodeInternal, msg) },
		WriteError: func(w http.ResponseWriter, req frame.Request, err error) { WriteError(w, req.ID, err) },
	}
}

// RESTFrame returns the request frame of an AWS REST-JSON API (EventBridge
// Scheduler): its refusals and errors in REST-JSON's shape, with the
// codes the API's model names for a bad request and its own failure.
func RESTFrame(name string, maxBody int64, log *slog.Logger, validationCode, internalCode string) *frame.API {
	bad := func(msg string) error {
		return &Error{Code: validationCode, Message: msg, Status: http.StatusBadRequest}
	}
	return &frame.API{
		Name: name, MaxBody: maxBody, Log: log, Unreadable: bad, TooLarge: bad,
		Internal: func(msg string) error {
			return &Error{Code: internalCode, Message: msg, Status: http.StatusInternalServerError}
		},
		WriteError: func(w http.ResponseWriter, req frame.Request, err error) {
			WriteRESTError(w, req.ID, err, internalCode)
		},
	}
}

// IsAWSJSON reports whether r is an AWS JSON protocol request: it names an
// operation in X-Amz-Target, or is a POST of application/x-amz-json-1.0 or
// 1.1. Each AWS service registers its own X-Amz-Target prefix on the router;
// the emulator sends a request none of them took to UnknownOperation, whatever
// its prefix, so it gets AWS's error shape rather than another cloud's.
func IsAWSJSON(r *http.Request) bool {
	if r.Header.Get("X-Amz-Target") != "" {
		return true
	}
	if r.Method != http.MethodPost {
		return false
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && strings.HasPrefix(mt, "application/x-amz-json-")
}

// UnknownOperation answers in AWS's JSON error shape, as AWS does for a
// target it does not know (400 UnknownOperationException).
func UnknownOperation(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	msg := "The request names no operation: AWS JSON requests need an X-Amz-Target header (for example AWSEvents.PutEvents)."
	if target != "" {
		msg = "GridBridge does not implement the operation " + target + " at " + r.Method + " " + r.URL.Path + "."
	}
	Frame("AWS JSON", 0, nil).Refuse(w, r, NewError(CodeUnknownOperation, msg))
}
