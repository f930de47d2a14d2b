package arm

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/google/uuid"
)

// Write answers with resp: its body as JSON, or the status alone. Every
// answer carries an x-ms-request-id, as ARM's do.
func Write(w http.ResponseWriter, resp Response) {
	if resp.Body == nil {
		w.Header().Set("x-ms-request-id", uuid.NewString())
		w.WriteHeader(resp.Status)
		return
	}
	writeJSON(w, resp.Status, resp.Body)
}

// WriteError answers with ARM's error body. The code also goes in
// x-ms-error-code, which the Go SDK reads before the body.
func WriteError(w http.ResponseWriter, e *Error) {
	w.Header().Set("x-ms-error-code", e.Code)
	writeJSON(w, e.Status, e)
}

// writeJSON answers with v as JSON. HTML characters stay unescaped, as in
// the service's answers (endpoint URLs keep their '&').
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only GridBridge's own types are encoded here; a failure is a bug,
		// answered without a 5xx the SDKs would retry.
		WriteError(w, &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequest,
			Message: "The response could not be written: " + err.Error()})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("x-ms-request-id", uuid.NewString())
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
