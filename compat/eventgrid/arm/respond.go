package arm

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

// writeJSON answers with v as JSON. HTML characters stay unescaped, as in
// the service's answers (endpoint URLs keep their '&').
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		writeError(w, &resource.Error{Status: http.StatusBadRequest, Code: resource.CodeInvalidRequest, Message: "the response could not be written: " + err.Error()})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("x-ms-request-id", uuid.NewString())
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// writeError answers with ARM's error body.
func writeError(w http.ResponseWriter, e *resource.Error) {
	type body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	var b body
	b.Error.Code, b.Error.Message = e.Code, e.Message
	writeJSON(w, e.Status, b)
}

// writeNoContent answers 204, ARM's answer to a finished DELETE.
func writeNoContent(w http.ResponseWriter) {
	w.Header().Set("x-ms-request-id", uuid.NewString())
	w.WriteHeader(http.StatusNoContent)
}

// maxBody bounds an ARM request body; ARM itself refuses bodies over 4 MB.
const maxBody = 4 << 20

// readBody reads a request body that must be present.
func readBody(r *http.Request) ([]byte, *resource.Error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	switch {
	case err != nil:
		return nil, resource.Invalid("The request body could not be read: %v.", err)
	case len(b) > maxBody:
		return nil, &resource.Error{Status: http.StatusRequestEntityTooLarge, Code: "RequestEntityTooLarge", Message: "The request body is over 4 MB."}
	case len(bytes.TrimSpace(b)) == 0:
		return nil, &resource.Error{Status: http.StatusBadRequest, Code: resource.CodeInvalidRequestContent, Message: "The request content was invalid and could not be deserialized: the body is empty."}
	}
	return b, nil
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	writeError(w, &resource.Error{Status: http.StatusMethodNotAllowed, Code: "MethodNotAllowed",
		Message: "The HTTP method '" + r.Method + "' is not supported at this path."})
}
