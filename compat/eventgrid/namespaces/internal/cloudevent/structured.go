package cloudevent

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
)

// InvalidError is a request the topic refuses with 400 BadRequest.
type InvalidError struct{ Message string }

func (e *InvalidError) Error() string { return e.Message }

func invalid(format string, args ...any) *InvalidError {
	return &InvalidError{Message: fmt.Sprintf(format, args...)}
}

// MaxEventsPerRequest is the documented limit of events in one publish.
const MaxEventsPerRequest = 1000

// ParseStructured reads one event sent as application/cloudevents+json.
func ParseStructured(body []byte) (*Event, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil, invalid("The request body must be a single CloudEvent JSON object.")
	}
	return parseObject(body)
}

// ParseBatch reads events sent as application/cloudevents-batch+json. One
// invalid event fails the whole request, as the service does.
//
// The body is validated and compacted in one pass and its events are cut
// from the compacted text, so no event is decoded into Go values.
func ParseBatch(body []byte) ([]*Event, error) {
	var compact bytes.Buffer
	compact.Grow(len(body))
	if json.Compact(&compact, body) != nil {
		return nil, invalid("The request body must be a JSON array of CloudEvents: %s", jsonProblem(syntaxError(body)))
	}
	c := compact.Bytes()
	if c[0] != '[' {
		// Valid JSON but no array: the decoder words what it found
		// (null decodes to no events).
		var raws []json.RawMessage
		if err := json.Unmarshal(c, &raws); err != nil {
			return nil, invalid("The request body must be a JSON array of CloudEvents: %s", jsonProblem(err))
		}
		return nil, invalid("The request body must contain at least one CloudEvent.")
	}
	var raws [][]byte
	for i := 1; c[i] != ']'; {
		end := schema.SkipValue(c, i)
		raws = append(raws, c[i:end])
		if c[end] == ',' {
			end++
		}
		i = end
	}
	if len(raws) == 0 {
		return nil, invalid("The request body must contain at least one CloudEvent.")
	}
	if len(raws) > MaxEventsPerRequest {
		return nil, invalid("The request contains %d events; at most %d events can be published at once.", len(raws), MaxEventsPerRequest)
	}
	out := make([]*Event, len(raws))
	for i, raw := range raws {
		if raw[0] != '{' {
			return nil, invalid("Event number %d of the batch must be a JSON object.", i+1)
		}
		// Each event keeps its own copy: a pending one must not pin the
		// request's whole body.
		ev, err := parseCompact(bytes.Clone(raw))
		if err != nil {
			return nil, invalid("Event number %d of the batch is invalid: %s", i+1, err.Error())
		}
		out[i] = ev
	}
	return out, nil
}

// ParseAny reads a body sent as plain application/json: an object is one
// event, an array a batch (the service's behaviour for this media type is
// UNCONFIRMED; this is the reference's suggestion).
func ParseAny(body []byte) ([]*Event, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return ParseBatch(trimmed)
	}
	ev, err := ParseStructured(trimmed)
	if err != nil {
		return nil, err
	}
	return []*Event{ev}, nil
}

// parseObject validates one structured event. The rules are the ones the Go
// SDK applies when it decodes a received event: a stored event that breaks
// them would make every later receive on the subscription fail, so they are
// enforced here, at publish.
func parseObject(raw []byte) (*Event, error) {
	var compact bytes.Buffer
	compact.Grow(len(raw))
	if json.Compact(&compact, raw) != nil {
		return nil, invalid("The event is not valid JSON: %s", jsonProblem(syntaxError(raw)))
	}
	return parseCompact(compact.Bytes())
}

// attributes are the raw values of the members an event is checked for,
// nil when absent; a repeated member counts with its last value, as
// encoding/json decodes it.
type attributes struct {
	id, source, typ, specversion, subject, dataschema, datacontenttype, time, data, dataBase64 []byte
}

// member points name's slot in a at value.
func (a *attributes) member(name []byte, value []byte) {
	switch string(name) {
	case "id":
		a.id = value
	case "source":
		a.source = value
	case "type":
		a.typ = value
	case "specversion":
		a.specversion = value
	case "subject":
		a.subject = value
	case "dataschema":
		a.dataschema = value
	case "datacontenttype":
		a.datacontenttype = value
	case "time":
		a.time = value
	case "data":
		a.data = value
	case "data_base64":
		a.dataBase64 = value
	}
}

// parseCompact checks one event given as a compacted JSON object, which
// becomes the event's JSON.
func parseCompact(c []byte) (*Event, error) {
	var a attributes
	schema.EachMember(c, func(key, value []byte) { a.member(memberName(key), value) })
	ev := &Event{JSON: c}
	var err error
	if ev.ID, err = requiredString(a.id, "id"); err != nil {
		return nil, err
	}
	if ev.Source, err = requiredString(a.source, "source"); err != nil {
		return nil, err
	}
	if ev.Type, err = requiredString(a.typ, "type"); err != nil {
		return nil, err
	}
	if string(a.specversion) != `"1.0"` { // as every SDK spells it; anything else is decoded
		spec, err := requiredString(a.specversion, "specversion")
		if err != nil {
			return nil, err
		}
		if spec != "1.0" {
			return nil, invalid("`specversion` must be \"1.0\", not %q.", spec)
		}
	}
	if ev.Subject, err = optionalString(a.subject, "subject"); err != nil {
		return nil, err
	}
	if _, err := optionalString(a.dataschema, "dataschema"); err != nil {
		return nil, err
	}
	if _, err := optionalString(a.datacontenttype, "datacontenttype"); err != nil {
		return nil, err
	}
	if err := checkTime(a.time); err != nil {
		return nil, err
	}
	if err := checkData(a.data, a.dataBase64); err != nil {
		return nil, err
	}
	return ev, nil
}

// memberName is a quoted member key as encoding/json reads it. A key
// without escapes is its own text: matched against the attribute names by
// member, it needs no string of its own (the conversion in member's switch
// does not allocate), so only an escaped key is decoded.
func memberName(quoted []byte) []byte {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	s, _ := decodeString(quoted)
	return []byte(s)
}

func decodeString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

func requiredString(raw []byte, name string) (string, error) {
	s, ok := decodeString(raw)
	if !ok || s == "" {
		return "", invalid("`%s` must be non-empty string", name)
	}
	return s, nil
}

func optionalString(raw []byte, name string) (string, error) {
	if raw == nil || string(raw) == "null" {
		return "", nil
	}
	s, ok := decodeString(raw)
	if !ok {
		return "", invalid("`%s` must be a string.", name)
	}
	return s, nil
}

func checkTime(raw []byte) error {
	if raw == nil {
		return nil
	}
	// null decodes to "" through encoding/json: not a timestamp either.
	s, ok := decodeString(raw)
	if !ok && string(raw) != "null" {
		return invalid("`time` must be an RFC 3339 timestamp string.")
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return invalid("`time` must be an RFC 3339 timestamp, not %q.", s)
	}
	return nil
}

func checkData(data, b64 []byte) error {
	if b64 == nil {
		return nil
	}
	if data != nil {
		return invalid("An event cannot carry both `data` and `data_base64`.")
	}
	s, ok := decodeString(b64)
	if !ok && string(b64) != "null" {
		return invalid("`data_base64` must be a base64 string.")
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return invalid("`data_base64` is not valid base64.")
	}
	return nil
}

// syntaxError is the decoder's error for invalid JSON: unlike
// json.Compact's, it says where the text goes wrong.
func syntaxError(invalidJSON []byte) error {
	var v any
	return json.Unmarshal(invalidJSON, &v)
}

// jsonProblem words a decoding error without Go type names.
func jsonProblem(err error) string {
	switch e := err.(type) {
	case *json.SyntaxError:
		return fmt.Sprintf("syntax error at offset %d", e.Offset)
	case *json.UnmarshalTypeError:
		return fmt.Sprintf("unexpected %s at offset %d", e.Value, e.Offset)
	default:
		return "malformed JSON"
	}
}
