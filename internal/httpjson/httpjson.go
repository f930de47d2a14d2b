// Package httpjson writes JSON answers for every API GridBridge serves
// itself (the inspection API and the dashboard's, ARM, Entra, Event Grid's
// data planes): one encoder, with the few wire details in which those APIs
// differ as options, so what an answer's bytes are is decided in one place.
//
// By default strings keep <, > and & as they are (JSON needs no escape for
// them, and the clouds' answers keep the '&' of a URL), the value is
// followed by a newline, as json.Encoder writes it, and the answer carries
// its Content-Length.
package httpjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// ContentType is the Content-Type of every answer.
const ContentType = "application/json; charset=utf-8"

// Option changes one wire detail of an answer.
type Option func(*format)

type format struct {
	escapeHTML bool
	noNewline  bool
}

// EscapeHTML writes <, > and & in strings as \u003c, \u003e and \u0026, as
// Go's encoder does unless told otherwise: for the APIs whose answers
// always had them so.
func EscapeHTML() Option { return func(f *format) { f.escapeHTML = true } }

// NoNewline ends the answer with the value itself, as json.Marshal does,
// without the newline json.Encoder writes after it.
func NoNewline() Option { return func(f *format) { f.noNewline = true } }

// Encode is v as an answer's body.
func Encode(v any, opts ...Option) ([]byte, error) {
	var f format
	for _, o := range opts {
		o(&f)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(f.escapeHTML)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	body := buf.Bytes()
	if f.noNewline {
		body = body[:len(body)-1]
	}
	return body, nil
}

// Write answers with status and v as JSON. Only GridBridge's own values are
// answered, so one that cannot be encoded is a bug: it is answered as one,
// 500 with Error's shape. An API whose clients must not see a 5xx (an SDK
// would retry it) uses Encode and WriteBody, and answers a failure itself.
func Write(w http.ResponseWriter, status int, v any, opts ...Option) {
	body, err := Encode(v, opts...)
	if err != nil {
		Error(w, http.StatusInternalServerError, "the answer could not be encoded: %v", err)
		return
	}
	WriteBody(w, status, body)
}

// WriteBody answers with status and body, JSON already encoded.
func WriteBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", ContentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// Error answers with status and the error shape of the inspection API,
// {"error":{"code","message"}}, whose code is the status text without
// spaces ("BadRequest", "Conflict").
func Error(w http.ResponseWriter, status int, format string, args ...any) {
	Write(w, status, errorBody{Error: errorDetail{
		Code:    strings.ReplaceAll(http.StatusText(status), " ", ""),
		Message: fmt.Sprintf(format, args...),
	}})
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}
