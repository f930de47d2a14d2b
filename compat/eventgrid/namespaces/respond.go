package namespaces

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

const contentTypeJSON = "application/json; charset=utf-8"

// maxARMBody bounds an ARM request body; resources are a few KB.
const maxARMBody = 4 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		// Only GridBridge's own types are marshalled here; a failure is a
		// bug, reported without a 5xx the SDKs would retry.
		writeARMError(w, armmodel.BadRequest("The response could not be encoded: %v", err))
		return
	}
	writeRaw(w, status, body)
}

func writeRaw(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", contentTypeJSON)
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeARMError answers with ARM's error shape.
func writeARMError(w http.ResponseWriter, e *armmodel.Error) {
	body, _ := e.MarshalJSON()
	w.Header().Set("x-ms-error-code", e.Code)
	writeRaw(w, e.Status, body)
}

// armHandler checks what every ARM request needs before its handler runs.
func (s *Service) armHandler(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("api-version") == "" {
			writeARMError(w, &armmodel.Error{Status: http.StatusBadRequest, Code: armmodel.CodeMissingAPIVersion,
				Message: "The api-version query parameter (?api-version=) is required for all requests."})
			return
		}
		h(w, r)
	})
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request, allowed string) {
	w.Header().Set("Allow", allowed)
	writeARMError(w, &armmodel.Error{Status: http.StatusMethodNotAllowed, Code: armmodel.CodeMethodNotAllowed,
		Message: "The HTTP method '" + r.Method + "' is not supported on this resource; allowed: " + allowed + "."})
}

// readBody reads a request body up to limit bytes. tooLarge reports a body
// over the limit.
func readBody(r *http.Request, limit int64) (body []byte, tooLarge bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(body)) > limit {
		return nil, true, errors.New("request body too large")
	}
	return body, false, nil
}

// readARMBody reads an ARM request body, answering the error itself.
func readARMBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, tooLarge, err := readBody(r, maxARMBody)
	switch {
	case tooLarge:
		writeARMError(w, &armmodel.Error{Status: http.StatusRequestEntityTooLarge, Code: armmodel.CodeInvalidRequestContent,
			Message: "The request content is too large."})
		return nil, false
	case err != nil:
		writeARMError(w, &armmodel.Error{Status: http.StatusBadRequest, Code: armmodel.CodeInvalidRequestContent,
			Message: "The request content could not be read: " + err.Error()})
		return nil, false
	}
	return body, true
}
