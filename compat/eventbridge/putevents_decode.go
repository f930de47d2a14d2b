package eventbridge

import (
	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/internal/jsonscan"
)

// PutEvents is the one call made at event rates, and encoding/json (a
// validating pass, then reflection) was a tenth of its cost. The SDKs and
// the CLI all send the same plain shape: an object whose Entries are objects
// of string members (Resources a list of strings, Time a number). The reader
// below takes that shape in one pass. It gives up at the first thing outside
// it — another or a repeated member, a null, a value of another type, an
// escaped member name, a string that is not valid UTF-8, anything malformed —
// and the request then goes through awsjson.Decode as before, so every
// answer to unusual input, error messages included, stays encoding/json's.
// Where it succeeds, it yields what encoding/json would (fuzzed against it in
// putevents_decode_test.go).

// decodePutEvents decodes and checks a PutEvents request.
func decodePutEvents(c *call) (*putEventsInput, error) {
	in, ok := readPutEvents(c.body)
	if !ok {
		return decode(c, checkPutEvents)
	}
	var v awsjson.Violations
	checkPutEvents(in, &v)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return in, nil
}

// readPutEvents reads body if it has the plain shape, and reports whether it
// did.
func readPutEvents(body []byte) (*putEventsInput, bool) {
	r := plainReader{Reader: jsonscan.New(body)}
	in := new(putEventsInput)
	var seenEntries, seenEndpoint bool
	ok := r.Object(func(key []byte) bool {
		switch string(key) {
		case "Entries":
			if seenEntries {
				return false
			}
			seenEntries = true
			in.Entries = make([]*putEventsEntry, 0, maxEntriesPerRequest)
			return r.Array(func() bool {
				e, ok := r.entry()
				in.Entries = append(in.Entries, e)
				return ok
			})
		case "EndpointId":
			if seenEndpoint {
				return false
			}
			seenEndpoint = true
			in.EndpointId = r.StringPtr()
			return in.EndpointId != nil
		}
		return false
	})
	if !ok {
		return nil, false
	}
	return in, r.End()
}

// plainReader reads the plain shape of a PutEvents body with the shared
// scanner; its methods report false as soon as the input leaves that shape.
type plainReader struct {
	jsonscan.Reader
	// last holds the previous entry's string members, by field: an
	// entry's member equal to its predecessor's shares its string.
	last [5]string
}

// entry reads one member of Entries.
func (r *plainReader) entry() (*putEventsEntry, bool) {
	// The entry and its string members in one allocation.
	cells := new(struct {
		entry   putEventsEntry
		strings [5]string
	})
	e := &cells.entry
	var seen [7]bool
	ok := r.Object(func(key []byte) bool {
		var field int
		var dst **string
		switch string(key) {
		case "Source":
			field, dst = 0, &e.Source
		case "DetailType":
			field, dst = 1, &e.DetailType
		case "Detail":
			field, dst = 2, &e.Detail
		case "EventBusName":
			field, dst = 3, &e.EventBusName
		case "TraceHeader":
			field, dst = 4, &e.TraceHeader
		case "Resources":
			if seen[5] {
				return false
			}
			seen[5] = true
			e.Resources = []string{}
			return r.Array(func() bool {
				s, ok := r.String()
				e.Resources = append(e.Resources, s)
				return ok
			})
		case "Time":
			if seen[6] {
				return false
			}
			seen[6] = true
			e.Time = r.timestamp()
			return e.Time != nil
		default:
			return false
		}
		if seen[field] {
			return false
		}
		seen[field] = true
		v, ok := r.StringOr(r.last[field])
		r.last[field] = v
		cells.strings[field] = v
		*dst = &cells.strings[field]
		return ok
	})
	return e, ok
}

// timestamp reads a number as awsjson.Timestamp does, or returns nil.
func (r *plainReader) timestamp() *awsjson.Timestamp {
	raw, ok := r.Number()
	if !ok {
		return nil
	}
	t := new(awsjson.Timestamp)
	if t.UnmarshalJSON(raw) != nil {
		return nil
	}
	return t
}
