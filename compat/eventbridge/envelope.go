package eventbridge

import (
	"bytes"
	"encoding/json"
	"time"
)

// envelope is an event as EventBridge delivers it (W-EB-3.1).
type envelope struct {
	ID         string
	DetailType string
	Source     string
	Account    string
	Time       time.Time
	Region     string
	// ReplayName is set on events a replay sends again.
	ReplayName string
	Resources  []string
	// Detail is the compact JSON object from PutEvents' Detail.
	Detail json.RawMessage
}

// eventTimeLayout is the envelope's time: seconds precision, always UTC.
const eventTimeLayout = "2006-01-02T15:04:05Z"

// encode writes the envelope with AWS's key order, replay-name between
// region and resources, and resources always present.
func (e *envelope) encode() []byte {
	var b bytes.Buffer
	b.Grow(160 + len(e.Detail))
	b.WriteString(`{"version":"0","id":`)
	writeJSONString(&b, e.ID)
	b.WriteString(`,"detail-type":`)
	writeJSONString(&b, e.DetailType)
	b.WriteString(`,"source":`)
	writeJSONString(&b, e.Source)
	b.WriteString(`,"account":`)
	writeJSONString(&b, e.Account)
	b.WriteString(`,"time":`)
	writeJSONString(&b, e.Time.UTC().Format(eventTimeLayout))
	b.WriteString(`,"region":`)
	writeJSONString(&b, e.Region)
	if e.ReplayName != "" {
		b.WriteString(`,"replay-name":`)
		writeJSONString(&b, e.ReplayName)
	}
	b.WriteString(`,"resources":[`)
	for i, r := range e.Resources {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, r)
	}
	b.WriteString(`],"detail":`)
	if len(e.Detail) == 0 {
		b.WriteString("{}")
	} else {
		b.Write(e.Detail)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// writeJSONString writes s as a JSON string the way EventBridge does: only
// quotes, backslashes and control characters are escaped (no HTML escaping
// of <, > and &, which encoding/json would add).
func writeJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// compactObject returns detail as compact JSON when it is a JSON object,
// keeping its key order and number text.
func compactObject(detail string) (json.RawMessage, bool) {
	trimmed := bytes.TrimSpace([]byte(detail))
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, false
	}
	var out bytes.Buffer
	if err := json.Compact(&out, trimmed); err != nil {
		return nil, false
	}
	return out.Bytes(), true
}
