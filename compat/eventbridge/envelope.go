package eventbridge

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
	"unsafe"
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
// region and resources, and resources always present. It sizes its buffer
// from the members, so the event is written in one allocation unless a
// member needs escaping.
func (e *envelope) encode() []byte {
	n := len(envelopeFraming) + len(e.ID) + len(e.DetailType) + len(e.Source) + len(e.Account) +
		len(eventTimeLayout) + len(e.Region) + len(e.Detail)
	if e.ReplayName != "" {
		n += len(`,"replay-name":""`) + len(e.ReplayName)
	}
	for _, r := range e.Resources {
		n += len(r) + 3
	}
	b := make([]byte, 0, n)
	b = append(b, `{"version":"0","id":`...)
	b = appendJSONString(b, e.ID)
	b = append(b, `,"detail-type":`...)
	b = appendJSONString(b, e.DetailType)
	b = append(b, `,"source":`...)
	b = appendJSONString(b, e.Source)
	b = append(b, `,"account":`...)
	b = appendJSONString(b, e.Account)
	b = append(b, `,"time":"`...)
	b = appendEventTime(b, e.Time)
	b = append(b, `","region":`...)
	b = appendJSONString(b, e.Region)
	if e.ReplayName != "" {
		b = append(b, `,"replay-name":`...)
		b = appendJSONString(b, e.ReplayName)
	}
	b = append(b, `,"resources":[`...)
	for i, r := range e.Resources {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, r)
	}
	b = append(b, `],"detail":`...)
	if len(e.Detail) == 0 {
		b = append(b, "{}"...)
	} else {
		b = append(b, e.Detail...)
	}
	return append(b, '}')
}

// appendEventTime appends t in eventTimeLayout. Every event is stamped, so
// the common years are written digit by digit rather than by interpreting
// the layout; others (before year 0, after 9999) go through AppendFormat.
func appendEventTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, eventTimeLayout)
	}
	hour, minute, sec := t.Clock()
	two := func(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }
	b = two(b, year/100)
	b = two(b, year%100)
	b = two(append(b, '-'), int(month))
	b = two(append(b, '-'), day)
	b = two(append(b, 'T'), hour)
	b = two(append(b, ':'), minute)
	b = two(append(b, ':'), sec)
	return append(b, 'Z')
}

// envelopeFraming is what encode writes around the members, with room for an
// empty detail: every member string's quotes, the keys and punctuation.
const envelopeFraming = `{"version":"0","id":"","detail-type":"","source":"","account":"","time":"","region":"","resources":[],"detail":{}}`

// appendJSONString appends s as a JSON string the way EventBridge writes
// it: only quotes, backslashes and control characters are escaped (no HTML
// escaping of <, > and &, which encoding/json would add).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			b = append(b, `\u00`...)
			b = append(b, hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// compactObject returns detail as compact JSON when it is a JSON object,
// keeping its key order and number text. The compactors check the whole
// document as they go (json.Compact fails on anything json.Valid refuses),
// so the detail is read once.
func compactObject(detail string) (json.RawMessage, bool) {
	trimmed := strings.TrimSpace(detail)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, false
	}
	// The compactors only read src: a view of the string, not a copy.
	src := unsafe.Slice(unsafe.StringData(trimmed), len(trimmed))
	if out, ok := appendCompact(make([]byte, 0, len(src)), src); ok {
		return out, true
	}
	out := bytes.NewBuffer(make([]byte, 0, len(src)))
	if err := json.Compact(out, src); err != nil {
		return nil, false
	}
	return out.Bytes(), true
}
