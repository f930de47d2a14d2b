package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/internal/jsonscan"
)

// Topic is what decoding needs to know of the topic a request was sent to.
type Topic struct {
	ID      string // ARM resource id, stamped into events
	Name    string
	Input   egevent.Schema // EventGridSchema, CloudEventSchemaV10 or CustomInputSchema
	Mapping *InputMapping  // custom-schema topics only; nil maps nothing
	// Domain is set when the request went to a domain's endpoint: each
	// event names its domain topic (Event Grid topic, CloudEvents source,
	// or the mapped topic of a custom event), which is required, and the
	// decoded event's Topic is that domain topic's resource id (ID +
	// "/topics/" + name) and TopicName its name.
	Domain bool
}

// domainTopic stamps ev with the domain topic named, or refuses an event
// that names none or names it badly.
func (t Topic) domainTopic(ev *egevent.Event, named, field string, i int) *Error {
	if named == "" {
		return badRequest("Required property '%s' was not set on the event at index %d: an event published to domain '%s' must name its domain topic.", field, i, t.Name)
	}
	name := named
	// The full resource id of the domain topic is accepted too.
	if prefix := t.ID + "/topics/"; len(named) > len(prefix) && strings.EqualFold(named[:len(prefix)], prefix) {
		name = named[len(prefix):]
	}
	if !validDomainTopicName(name) {
		return badRequest("The %s '%s' of the event at index %d is not a valid domain topic name: 3 to 50 letters, digits and hyphens.", field, named, i)
	}
	ev.Topic, ev.TopicName = t.ID+"/topics/"+name, name
	return nil
}

func validDomainTopicName(s string) bool {
	if len(s) < 3 || len(s) > 50 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Request is one publish request.
type Request struct {
	Header http.Header
	Body   []byte
	// MaxEventBytes bounds one event (413 when exceeded); 0 means no bound.
	MaxEventBytes int
	// Now is the emulator's time of acceptance.
	Now time.Time
	// NewID makes ids for custom events whose id is not mapped.
	NewID func() string
}

// Error is a request the service refuses: Status is 400 or 413.
type Error struct {
	Status  int
	Code    string // error.code, e.g. "BadRequest"
	Detail  string // error.details[0].code, e.g. "InputJsonInvalid"
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func badRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "BadRequest", Detail: "InputJsonInvalid",
		Message: fmt.Sprintf(format, args...)}
}

func tooLarge(index, size, limit int) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: "RequestEntityTooLarge",
		Message: fmt.Sprintf("The event at index %d is %d bytes, over the limit of %d bytes per event.", index, size, limit)}
}

// Decode reads and validates every event of a publish request to t. Either
// all events are accepted or the request is refused.
func Decode(t Topic, req Request) ([]*egevent.Event, *Error) {
	switch t.Input {
	case egevent.CloudEventSchemaV10:
		return decodeCloudEvents(t, req)
	case egevent.CustomInputSchema:
		return decodeCustom(t, req)
	default:
		return decodeEventGrid(t, req)
	}
}

// mediaType is the request's content type without parameters, lower-cased.
func mediaType(h http.Header) string {
	ct := h.Get("Content-Type")
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(ct))
	}
	return mt
}

// splitArray returns the elements of a JSON array body, refusing any other
// shape with the service's words.
func splitArray(body []byte, maxEvent int) ([]json.RawMessage, *Error) {
	switch firstByte(body) {
	case '[':
	case '{':
		return nil, badRequest("Unexpected token when reading JSON. Expected: StartArray, actual: StartObject.")
	case 0:
		return nil, badRequest("The request body is empty; expected a JSON array of events.")
	default:
		return nil, badRequest("The request body is not a JSON array of events.")
	}
	if !json.Valid(body) {
		var probe any
		err := json.Unmarshal(body, &probe) // for the service's words on what is wrong
		return nil, badRequest("The request body is not valid JSON: %s.", jsonProblem(err))
	}
	// Valid, so the elements can be cut out where they lie: each event's
	// Raw is a piece of the body, not a copy.
	var elems []json.RawMessage
	i := jsonscan.SkipSpace(body, jsonscan.SkipSpace(body, 0)+1)
	for i < len(body) && body[i] != ']' {
		end := SkipValue(body, i)
		if maxEvent > 0 && end-i > maxEvent {
			return nil, tooLarge(len(elems), end-i, maxEvent)
		}
		elems = append(elems, json.RawMessage(body[i:end:end]))
		i = jsonscan.SkipSpace(body, end)
		if i < len(body) && body[i] == ',' {
			i = jsonscan.SkipSpace(body, i+1)
		}
	}
	return elems, nil
}

func firstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// object decodes one element as a JSON object, keeping every member raw so
// nothing is lost (large numbers stay exact).
func object(raw json.RawMessage, index int) (map[string]json.RawMessage, *Error) {
	if firstByte(raw) != '{' {
		return nil, badRequest("The event at index %d is not a JSON object.", index)
	}
	if !json.Valid(raw) {
		var probe any
		err := json.Unmarshal(raw, &probe)
		return nil, badRequest("The event at index %d is not valid JSON: %s.", index, jsonProblem(err))
	}
	// As encoding/json reads it (a repeated key: the last wins), with each
	// value a piece of raw.
	m := make(map[string]json.RawMessage, 8)
	EachMember(raw, func(key, value []byte) {
		m[unquote(key)] = value[:len(value):len(value)]
	})
	return m, nil
}

// stringMember reads member name of m as a JSON string. present is false
// when the member is absent or null.
func stringMember(m map[string]json.RawMessage, name string) (value string, present bool, ok bool) {
	raw, found := m[name]
	if !found || string(raw) == "null" {
		return "", false, true
	}
	if len(raw) < 2 || raw[0] != '"' {
		return "", true, false
	}
	return unquote(raw), true, true
}

// requiredString reads a member that must be a non-empty string.
func requiredString(m map[string]json.RawMessage, name string, index int) (string, *Error) {
	v, present, ok := stringMember(m, name)
	switch {
	case !ok:
		return "", badRequest("The property '%s' of the event at index %d must be a string.", name, index)
	case !present || v == "":
		return "", badRequest("Required property '%s' was not set on the event at index %d.", name, index)
	}
	return v, nil
}

// optionalString reads a member that may be absent but must be a string
// when present.
func optionalString(m map[string]json.RawMessage, name string, index int) (string, bool, *Error) {
	v, present, ok := stringMember(m, name)
	if !ok {
		return "", false, badRequest("The property '%s' of the event at index %d must be a string.", name, index)
	}
	return v, present, nil
}

func jsonProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s (at byte %d)", se.Error(), se.Offset)
	}
	return err.Error()
}
