package awsjson

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"time"
)

var timeType = reflect.TypeOf(Timestamp{})

// Timestamp is an instant on the wire as AWS JSON sends it: epoch seconds as
// a JSON number. Requests carry integers (AWS CLI), millisecond floats (Go,
// JS) or exponent forms; responses always carry a plain decimal, because the
// Go SDK rejects ISO strings.
type Timestamp struct{ time.Time }

// NewTimestamp returns t as a wire timestamp, or nil for the zero time.
func NewTimestamp(t time.Time) *Timestamp {
	if t.IsZero() {
		return nil
	}
	return &Timestamp{t}
}

// MarshalJSON writes epoch seconds with up to millisecond precision.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	ms := t.UnixMilli()
	if ms%1000 == 0 {
		return []byte(strconv.FormatInt(ms/1000, 10)), nil
	}
	return []byte(strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64)), nil
}

// UnmarshalJSON accepts any JSON number of epoch seconds.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) > 0 && b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		// A string, object, array or boolean: a type error, which
		// encoding/json then attributes to the member.
		return &json.UnmarshalTypeError{Value: jsonValueKind(b[0]), Type: timeType}
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	secs, err := n.Float64()
	if err != nil || math.IsInf(secs, 0) || math.IsNaN(secs) || math.Abs(secs) > 1e13 {
		return &json.UnmarshalTypeError{Value: "number " + string(b), Type: timeType}
	}
	whole, frac := math.Modf(secs)
	t.Time = time.Unix(int64(whole), int64(math.Round(frac*1e3))*int64(time.Millisecond)).UTC()
	return nil
}

// jsonValueKind names the kind of JSON value that starts with c.
func jsonValueKind(c byte) string {
	switch c {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	}
	return "value"
}

// IsTimestamp reports whether t is Timestamp, so that error messages can say
// "timestamp" where the Go kind says struct.
func IsTimestamp(t reflect.Type) bool { return t == timeType }
