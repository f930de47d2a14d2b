package publish

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// errorBody is the data-plane error shape (W-EG-2.6).
type errorBody struct {
	Error struct {
		Code    string        `json:"code"`
		Message string        `json:"message"`
		Details []errorDetail `json:"details,omitempty"`
	} `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeError answers with status and the service's error body. The
// message ends with the service's "Report …" sentence, which carries the
// request id.
func writeError(w http.ResponseWriter, requestID string, now time.Time, status int, code, detail, message string) {
	var body errorBody
	body.Error.Code = code
	body.Error.Message = fmt.Sprintf("%s Report '%s:%s (UTC)' to our forums for assistance or raise a support ticket.",
		message, requestID, now.UTC().Format("1/2/2006 3:04:05 PM"))
	if detail != "" {
		body.Error.Details = []errorDetail{{Code: detail, Message: body.Error.Message}}
	}
	w.Header().Set("x-ms-request-id", requestID)
	httpjson.Write(w, status, body, httpjson.EscapeHTML(), httpjson.NoNewline())
}
