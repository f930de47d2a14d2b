package cloudevent

import (
	"net/http"
	"testing"
)

// FuzzParseRequest: any namespace publish request, structured, batched or
// binary, is parsed into events or refused with an error; never a panic.
func FuzzParseRequest(f *testing.F) {
	for _, s := range [][3]string{
		{"application/cloudevents+json; charset=utf-8", "", `{"specversion":"1.0","id":"1","source":"/s","type":"A","data":{"a":1}}`},
		{"application/cloudevents-batch+json; charset=utf-8", "", `[{"specversion":"1.0","id":"1","source":"/s","type":"A","data_base64":"AAE="}]`},
		{"application/json", "1.0", `{"a":1}`},
		{"application/cloudevents+json", "", `{"specversion":"1.0","id":"","source":"/s","type":"A"}`},
		{"application/cloudevents-batch+json", "", `[null,1,"x"]`},
		{"text/plain", "1.0", "raw"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, contentType, specVersion, body string) {
		h := http.Header{}
		h.Set("Content-Type", contentType)
		if specVersion != "" {
			h.Set("Ce-Specversion", specVersion)
			h.Set("Ce-Id", "1")
			h.Set("Ce-Source", "/s")
			h.Set("Ce-Type", "A")
		}
		_, _ = ParseRequest(h, []byte(body))
	})
}
