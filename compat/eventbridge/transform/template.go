package transform

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// ingestionTimeLayout renders <aws.events.event.ingestion-time>; AWS documents
// an ISO-8601 time without saying whether it has milliseconds.
const ingestionTimeLayout = "2006-01-02T15:04:05.000Z"

func (t *Transformer) render(ev Event) ([]byte, error) {
	return fill(t.Template, placeholderPattern, len(ev.Envelope), func(name string) (json.RawMessage, bool, bool) {
		return t.value(name, ev)
	})
}

// fill substitutes every placeholder of tpl (pattern's first group names
// it) that value knows, as the package doc describes; sizeHint is how much
// the values may add.
func fill(tpl string, pattern *regexp.Regexp, sizeHint int, value func(name string) (raw json.RawMessage, known, found bool)) ([]byte, error) {
	jsonMode := isJSONTemplate(tpl)
	var out bytes.Buffer
	out.Grow(len(tpl) + sizeHint)
	inString, escaped := false, false
	for i := 0; i < len(tpl); {
		c := tpl[i]
		if c == '<' && !escaped {
			if loc := pattern.FindStringSubmatchIndex(tpl[i:]); loc != nil && loc[0] == 0 {
				name := tpl[i+loc[2] : i+loc[3]]
				if v, known, found := value(name); known {
					writeValue(&out, v, found, jsonMode, inString)
					i += loc[1]
					continue
				}
			}
		}
		switch {
		case escaped:
			escaped = false
		case c == '\\' && inString:
			escaped = true
		case c == '"':
			inString = !inString
		}
		out.WriteByte(c)
		i++
	}
	if jsonMode && !json.Valid(out.Bytes()) {
		return nil, ErrInvalidJSON
	}
	return out.Bytes(), nil
}

// isJSONTemplate reports whether a template is a JSON document rather than a
// string or plain text; only JSON templates quote what they substitute.
func isJSONTemplate(tpl string) bool {
	trimmed := bytes.TrimLeft([]byte(tpl), " \t\r\n")
	return len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
}

// value resolves a placeholder: known says whether the name is defined at
// all (undefined <...> text is copied as is), found whether it has a value.
func (t *Transformer) value(name string, ev Event) (raw json.RawMessage, known, found bool) {
	if path, ok := t.PathsMap[name]; ok {
		v, found := Lookup(ev.Envelope, path)
		return v, true, found
	}
	switch name {
	case RuleArn:
		return quote(ev.RuleArn), true, true
	case RuleName:
		return quote(ev.RuleName), true, true
	case IngestionTime:
		return quote(ev.IngestionTime.UTC().Format(ingestionTimeLayout)), true, true
	case WholeEvent:
		return eventWithoutDetail(ev.Envelope), true, true
	case EventJSON:
		return ev.Envelope, true, true
	}
	return nil, false, false
}

func writeValue(out *bytes.Buffer, raw json.RawMessage, found, jsonMode, inString bool) {
	switch {
	case !found && jsonMode && !inString:
		out.WriteString(`""`)
	case !found:
	case jsonMode && !inString:
		out.Write(raw)
	case jsonMode:
		// Inside a JSON string AWS puts the bare text without escaping it.
		if s, ok := asString(raw); ok {
			out.WriteString(s)
		} else {
			out.Write(raw)
		}
	default:
		writeBare(out, raw)
	}
}

// writeBare writes a value the way a text template shows it: strings without
// quotes, objects and lists without quotes around their strings and keys.
func writeBare(out *bytes.Buffer, raw json.RawMessage) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return
	}
	switch raw[0] {
	case '"':
		s, _ := asString(raw)
		out.WriteString(s)
	case '{':
		out.WriteByte('{')
		first := true
		_ = eachMember(raw, func(key string, value json.RawMessage) {
			if !first {
				out.WriteByte(',')
			}
			first = false
			out.WriteString(key)
			out.WriteByte(':')
			writeBare(out, value)
		})
		out.WriteByte('}')
	case '[':
		var items []json.RawMessage
		_ = json.Unmarshal(raw, &items)
		out.WriteByte('[')
		for i, item := range items {
			if i > 0 {
				out.WriteByte(',')
			}
			writeBare(out, item)
		}
		out.WriteByte(']')
	default:
		out.Write(raw)
	}
}

func asString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

func quote(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// eventWithoutDetail renders <aws.events.event>: the envelope without its
// detail, with detail-type renamed detailType, in the order AWS sends it.
func eventWithoutDetail(envelope []byte) json.RawMessage {
	fields := map[string]json.RawMessage{}
	_ = eachMember(envelope, func(key string, value json.RawMessage) { fields[key] = value })
	var out bytes.Buffer
	out.WriteByte('{')
	first := true
	for _, k := range [][2]string{
		{"id", "id"}, {"account", "account"}, {"detail-type", "detailType"}, {"time", "time"},
		{"source", "source"}, {"region", "region"}, {"resources", "resources"}, {"version", "version"},
	} {
		v, ok := fields[k[0]]
		if !ok {
			continue
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		out.Write(quote(k[1]))
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes()
}
