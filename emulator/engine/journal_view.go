package engine

import "encoding/json"

// A journal entry's recorded bodies are bytes; the inspection API, the
// dashboard and testkit show them inline, as JSON when they are JSON. These
// views are data, not HTTP: they stay beside the entries they show, so the
// faces' own inspection records (which cannot import the emulator that
// serves them) inline their bodies the same way. Writing the answer is
// internal/httpjson's.

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
