package engine

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// The inspection API (/_emulator/…) is served by the emulator and by the
// faces that register routes of their own under it; these helpers give all
// of them one shape: JSON without HTML escaping, errors as
// {"error":{"code","message"}}.

// WriteInspectionJSON answers an inspection request with v as JSON.
func WriteInspectionJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// WriteInspectionError answers an inspection request with an error whose
// code is the status text without spaces ("BadRequest", "Conflict").
func WriteInspectionError(w http.ResponseWriter, status int, format string, args ...any) {
	WriteInspectionJSON(w, status, map[string]any{"error": map[string]string{
		"code":    strings.ReplaceAll(http.StatusText(status), " ", ""),
		"message": fmt.Sprintf(format, args...),
	}})
}

// InlineBody shows a recorded body inside an inspection answer: as JSON
// when it is JSON, as a JSON string otherwise, omitted when empty.
func InlineBody(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	if json.Valid(b) {
		return json.RawMessage(b)
	}
	q, _ := json.Marshal(string(b))
	return q
}

// EntryView is a journal entry as the inspection API's views show it:
// bodies are inlined as JSON when they are JSON, as text otherwise. The
// server's journal views and the dashboard's pages share it.
type EntryView struct {
	Entry
	Request *RequestView    `json:"request,omitempty"`
	Body    json.RawMessage `json:"body,omitempty"`
}

// RequestView is a recorded request with its body inlined.
type RequestView struct {
	Method string              `json:"method,omitempty"`
	URL    string              `json:"url,omitempty"`
	Header map[string][]string `json:"headers,omitempty"`
	Body   json.RawMessage     `json:"body,omitempty"`
}

// ViewOf is e as the inspection API shows it.
func ViewOf(e Entry) EntryView {
	v := EntryView{Entry: e, Body: InlineBody(e.Body)}
	if e.Request != nil {
		v.Request = &RequestView{Method: e.Request.Method, URL: e.Request.URL, Header: e.Request.Header, Body: InlineBody(e.Request.Body)}
	}
	return v
}
