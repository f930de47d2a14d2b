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
