package awsjson

import (
	"log/slog"
	"net/http"

	"github.com/gorilla/mux"

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
		Injected:   injected,
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
		Injected: injected,
		// A REST API's operation is the name of the route that took the
		// request (the faces name each route for its operation).
		Operation: func(r *http.Request) string {
			if route := mux.CurrentRoute(r); route != nil {
				return route.GetName()
			}
			return ""
		},
	}
}

// injected is an API fault's error, in either JSON protocol.
func injected(code string, status int, msg string) error {
	return &Error{Code: code, Message: msg, Status: status}
}
