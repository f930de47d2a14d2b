package awsjson

import (
	"encoding/json"
	"errors"
	"net/http"
)

// ContentType is the media type of every EventBridge request and response.
const ContentType = "application/x-amz-json-1.1"

// WriteResult answers 200 with v as the JSON body; a nil v is sent as {}, a
// json.RawMessage as it is (an operation that encodes its own answer).
func WriteResult(w http.ResponseWriter, requestID string, v any) {
	body := []byte("{}")
	if raw, ok := v.(json.RawMessage); ok {
		body, v = raw, nil
	}
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			WriteError(w, requestID, NewError(CodeInternal, "GridBridge could not encode the response: "+err.Error()))
			return
		}
		body = b
	}
	writeHeaders(w, requestID)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// WriteError answers err in EventBridge's error shape. An error that is not
// an *Error becomes an InternalException.
func WriteError(w http.ResponseWriter, requestID string, err error) {
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		apiErr = NewError(CodeInternal, err.Error())
	}
	body, _ := json.Marshal(struct {
		Type    string `json:"__type"`
		Message string `json:"message,omitempty"`
	}{apiErr.Code, apiErr.Message})
	writeHeaders(w, requestID)
	w.Header().Set("X-Amzn-ErrorType", apiErr.Code)
	w.WriteHeader(apiErr.Status)
	_, _ = w.Write(body)
}

func writeHeaders(w http.ResponseWriter, requestID string) {
	h := w.Header()
	h.Set("Content-Type", ContentType)
	if requestID != "" {
		h.Set("X-Amzn-RequestId", requestID)
	}
}

// WriteRESTResult answers 200 with v as the JSON body of a REST-JSON API;
// nil is sent as {}.
func WriteRESTResult(w http.ResponseWriter, requestID string, v any) {
	if v == nil {
		v = struct{}{}
	}
	body, err := json.Marshal(v)
	if err != nil {
		WriteRESTError(w, requestID, err, CodeInternal)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Amzn-RequestId", requestID)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(append(body, '\n'))
}

// WriteRESTError answers err in REST-JSON's error shape: the code in the
// X-Amzn-ErrorType header, the message in the body. An error that is not an
// *Error becomes internalCode with HTTP 500.
func WriteRESTError(w http.ResponseWriter, requestID string, err error, internalCode string) {
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		apiErr = &Error{Code: internalCode, Message: err.Error(), Status: http.StatusInternalServerError}
	}
	members := map[string]any{"Message": apiErr.Message}
	for k, v := range apiErr.Fields {
		members[k] = v
	}
	body, _ := json.Marshal(members)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Amzn-RequestId", requestID)
	h.Set("X-Amzn-ErrorType", apiErr.Code)
	w.WriteHeader(apiErr.Status)
	_, _ = w.Write(append(body, '\n'))
}
