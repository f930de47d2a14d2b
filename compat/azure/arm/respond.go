package arm

import (
	"net/http"

	"github.com/google/uuid"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// Write answers with resp: its body as JSON, or the status alone. Every
// answer carries an x-ms-request-id, as ARM's do. HTML characters stay
// unescaped, as in the service's answers (endpoint URLs keep their '&').
func Write(w http.ResponseWriter, resp Response) {
	if resp.Body == nil {
		w.Header().Set("x-ms-request-id", uuid.NewString())
		w.WriteHeader(resp.Status)
		return
	}
	body, err := httpjson.Encode(resp.Body)
	if err != nil {
		// Only GridBridge's own types are encoded here; a failure is a bug,
		// answered without a 5xx the SDKs would retry.
		WriteError(w, &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequest,
			Message: "The response could not be written: " + err.Error()})
		return
	}
	w.Header().Set("x-ms-request-id", uuid.NewString())
	httpjson.WriteBody(w, resp.Status, body)
}

// WriteError answers with ARM's error body. The code also goes in
// x-ms-error-code, which the Go SDK reads before the body.
func WriteError(w http.ResponseWriter, e *Error) {
	w.Header().Set("x-ms-error-code", e.Code)
	Write(w, Response{Status: e.Status, Body: e})
}
