package topology

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
)

// applier sends the requests of one Apply to the emulator's handler.
type applier struct {
	ctx  context.Context
	h    http.Handler
	file string
}

// answer is what the emulator said to one request.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) ok() bool { return a.status >= 200 && a.status < 300 }

// send serves one request in-process. The emulator's handler is called
// directly, so Apply needs no listener and no network.
func (a *applier) send(method, target string, header http.Header, body []byte) (answer, error) {
	if err := a.ctx.Err(); err != nil {
		return answer{}, err
	}
	req, err := http.NewRequestWithContext(a.ctx, method, "http://localhost"+target, bytes.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	rec := httptest.NewRecorder()
	a.h.ServeHTTP(rec, req)
	return answer{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}, nil
}

// refused builds the error of a request the emulator answered with an
// error, quoting the emulator's code and message.
func (a *applier) refused(src Source, resource, operation string, ans answer) *APIError {
	code, msg := errorOf(ans)
	e := &APIError{File: a.file, Line: src.Line, Field: src.Field, Resource: resource, Operation: operation,
		Status: ans.status, Code: code, Message: msg}
	if ans.status == http.StatusNotFound && strings.HasPrefix(msg, "No resource matches") {
		// The emulator's catch-all: no face claimed the request at all.
		e.Hint = "this GridBridge build does not serve that API yet"
	}
	return e
}

// errorOf reads an error answer in any of the shapes GridBridge uses: ARM's
// {"error":{"code","message"}}, AWS's {"__type","message"}, REST-JSON's
// X-Amzn-ErrorType with {"Message"}, or plain text.
func errorOf(ans answer) (code, message string) {
	var body struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Type       string `json:"__type"`
		Message    string `json:"message"`
		MessageAlt string `json:"Message"`
	}
	if json.Unmarshal(ans.body, &body) == nil {
		switch {
		case body.Error != nil:
			return body.Error.Code, body.Error.Message
		case body.Type == "" && ans.header.Get("X-Amzn-ErrorType") != "" && body.Message+body.MessageAlt != "":
			// REST-JSON (EventBridge Scheduler): the code is in the header.
			return ans.header.Get("X-Amzn-ErrorType"), body.Message + body.MessageAlt
		case body.Type != "":
			_, short, _ := strings.Cut(body.Type, "#")
			if short == "" {
				short = body.Type
			}
			return short, body.Message + body.MessageAlt
		}
	}
	text := strings.TrimSpace(string(ans.body))
	if len(text) > 500 {
		text = text[:500] + "…"
	}
	return ans.header.Get("X-Amzn-ErrorType"), text
}
