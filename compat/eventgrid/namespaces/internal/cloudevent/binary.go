package cloudevent

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// IsBinaryMode reports whether a request carries a CloudEvent in binary
// content mode: its attributes in ce-* headers (the CloudEvents HTTP binding
// marks binary mode by ce-specversion).
func IsBinaryMode(h http.Header) bool { return h.Get("Ce-Specversion") != "" }

// ParseBinary builds the structured form of a binary-mode event: each ce-*
// header becomes an attribute (a string, as headers are), Content-Type
// becomes datacontenttype, and the body becomes the data. A JSON media type
// (*/json or */*+json) stores the body as the `data` JSON value; any other
// stores it as `data_base64` (NS-5).
func ParseBinary(h http.Header, body []byte) (*Event, error) {
	if h.Get("Ce-Datacontenttype") != "" {
		return nil, invalid("In binary mode the content type is the Content-Type header; a ce-datacontenttype header must not be sent.")
	}
	attrs := make(map[string]string)
	for key, values := range h {
		if len(key) <= 3 || !strings.EqualFold(key[:3], "ce-") || len(values) == 0 {
			continue
		}
		attrs[strings.ToLower(key[3:])] = headerValue(values[0])
	}
	for _, reserved := range []string{"data", "data_base64"} {
		if _, ok := attrs[reserved]; ok {
			return nil, invalid("The header ce-%s is not a CloudEvents attribute.", reserved)
		}
	}
	contentType := h.Get("Content-Type")
	if contentType != "" {
		attrs["datacontenttype"] = contentType
	}
	obj := make(map[string]json.RawMessage, len(attrs)+1)
	for name, value := range attrs {
		obj[name], _ = json.Marshal(value)
	}
	if len(body) > 0 {
		if isJSONMediaType(contentType) {
			var compact bytes.Buffer
			if err := json.Compact(&compact, body); err != nil {
				return nil, invalid("The body is not valid JSON, as its content type %q requires: %s", contentType, jsonProblem(err))
			}
			obj["data"] = compact.Bytes()
		} else {
			obj["data_base64"], _ = json.Marshal(base64.StdEncoding.EncodeToString(body))
		}
	}
	return parseObject(marshalOrdered(obj))
}

// headerValue undoes the percent-encoding the CloudEvents HTTP binding asks
// senders to apply; a value that is not validly encoded is kept as sent.
func headerValue(v string) string {
	if !strings.Contains(v, "%") {
		return v
	}
	if u, err := url.PathUnescape(v); err == nil {
		return u
	}
	return v
}

// isJSONMediaType reports */json and */*+json, parameters ignored.
func isJSONMediaType(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	_, sub, ok := strings.Cut(mt, "/")
	return ok && (sub == "json" || strings.HasSuffix(sub, "+json"))
}

// marshalOrdered writes the event with the required attributes first, as
// SDKs print them, then the rest in name order, data last: the stored bytes
// are then the same for the same request.
func marshalOrdered(obj map[string]json.RawMessage) []byte {
	first := []string{"specversion", "id", "source", "type"}
	last := []string{"data", "data_base64"}
	var names []string
	for name := range obj {
		if !contains(first, name) && !contains(last, name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	write := func(name string) {
		raw, ok := obj[name]
		if !ok {
			return
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		b.Write(raw)
	}
	for _, group := range [][]string{first, names, last} {
		for _, name := range group {
			write(name)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
