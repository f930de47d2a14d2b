package cloudevent

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"
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
func ParseBatch(body []byte) ([]*Event, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		return nil, invalid("The request body must be a JSON array of CloudEvents: %s", jsonProblem(err))
	}
	if len(raws) == 0 {
		return nil, invalid("The request body must contain at least one CloudEvent.")
	}
	if len(raws) > MaxEventsPerRequest {
		return nil, invalid("The request contains %d events; at most %d events can be published at once.", len(raws), MaxEventsPerRequest)
	}
	out := make([]*Event, len(raws))
	for i, raw := range raws {
		if len(raw) == 0 || raw[0] != '{' {
			return nil, invalid("Event number %d of the batch must be a JSON object.", i+1)
		}
		ev, err := parseObject(raw)
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
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil {
		return nil, invalid("The event is not valid JSON: %s", jsonProblem(err))
	}
	ev := &Event{}
	var err error
	if ev.ID, err = requiredString(attrs, "id"); err != nil {
		return nil, err
	}
	if ev.Source, err = requiredString(attrs, "source"); err != nil {
		return nil, err
	}
	if ev.Type, err = requiredString(attrs, "type"); err != nil {
		return nil, err
	}
	spec, err := requiredString(attrs, "specversion")
	if err != nil {
		return nil, err
	}
	if spec != "1.0" {
		return nil, invalid("`specversion` must be \"1.0\", not %q.", spec)
	}
	if ev.Subject, err = optionalString(attrs, "subject"); err != nil {
		return nil, err
	}
	for _, name := range []string{"dataschema", "datacontenttype"} {
		if _, err := optionalString(attrs, name); err != nil {
			return nil, err
		}
	}
	if err := checkTime(attrs); err != nil {
		return nil, err
	}
	if err := checkData(attrs); err != nil {
		return nil, err
	}
	var compact bytes.Buffer
	compact.Grow(len(raw))
	if err := json.Compact(&compact, raw); err != nil {
		return nil, invalid("The event is not valid JSON: %s", jsonProblem(err))
	}
	ev.JSON = compact.Bytes()
	return ev, nil
}

func requiredString(attrs map[string]json.RawMessage, name string) (string, error) {
	raw, ok := attrs[name]
	if !ok {
		return "", invalid("`%s` must be non-empty string", name)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || s == "" {
		return "", invalid("`%s` must be non-empty string", name)
	}
	return s, nil
}

func optionalString(attrs map[string]json.RawMessage, name string) (string, error) {
	raw, ok := attrs[name]
	if !ok || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", invalid("`%s` must be a string.", name)
	}
	return s, nil
}

func checkTime(attrs map[string]json.RawMessage) error {
	raw, ok := attrs["time"]
	if !ok {
		return nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return invalid("`time` must be an RFC 3339 timestamp string.")
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return invalid("`time` must be an RFC 3339 timestamp, not %q.", s)
	}
	return nil
}

func checkData(attrs map[string]json.RawMessage) error {
	b64, hasB64 := attrs["data_base64"]
	if !hasB64 {
		return nil
	}
	if _, hasData := attrs["data"]; hasData {
		return invalid("An event cannot carry both `data` and `data_base64`.")
	}
	var s string
	if err := json.Unmarshal(b64, &s); err != nil {
		return invalid("`data_base64` must be a base64 string.")
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return invalid("`data_base64` is not valid base64.")
	}
	return nil
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
