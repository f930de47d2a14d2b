package namespaces

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"testing"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/queue"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// The hand-read form of a settle request must read as the decoder reads
// it, and leave every other body to the decoder.
func TestPlainLockTokensReadsAsTheDecoder(t *testing.T) {
	plain := []string{
		`{"lockTokens":["a"]}`,
		`{"lockTokens":["YWJj","ZGVm","Z2hp"]}`,
		` {"lockTokens":[""]}` + "\n",
	}
	other := []string{
		`{"lockTokens":[]}`,
		`{"lockTokens":null}`,
		`{"LockTokens":["a"]}`,
		`{"lockTokens":["a"],"x":["b"]}`,
		`{"lockTokens":["a\"b"]}`,
		`{"lockTokens":["a\u0062"]}`,
		`{"lockTokens":["a" ,"b"]}`,
		`{"lockTokens":["a","b"]} {"lockTokens":["c"]}`,
		`{"lockTokens":["é"]}`,
		`{"lockTokens":["a",1]}`,
		`{"lockTokens":["a",]}`,
		`{"lockTokens":["a""b"]}`,
	}
	for _, body := range plain {
		got, ok := plainLockTokens([]byte(body))
		var want struct {
			LockTokens []string `json:"lockTokens"`
		}
		if err := json.NewDecoder(bytes.NewReader([]byte(body))).Decode(&want); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if !ok || !slices.Equal(got, want.LockTokens) {
			t.Errorf("%s: read %q (%v), the decoder %q", body, got, ok, want.LockTokens)
		}
	}
	for _, body := range other {
		if got, ok := plainLockTokens([]byte(body)); ok {
			t.Errorf("%s: read by hand as %q; it is the decoder's", body, got)
		}
	}
}

// The hand-written settle answer is the encoder's, byte for byte.
func TestPlainSettleResultIsTheEncodersAnswer(t *testing.T) {
	for _, res := range [][]queue.Result{
		{{Token: "YWJj"}},
		{{Token: "YWJj"}, {Token: "ZGVm"}, {Token: ""}},
	} {
		got, ok := plainSettleResult(res)
		out := struct {
			Succeeded []string          `json:"succeededLockTokens"`
			Failed    []failedLockToken `json:"failedLockTokens"`
		}{Succeeded: []string{}, Failed: []failedLockToken{}}
		for _, r := range res {
			out.Succeeded = append(out.Succeeded, r.Token)
		}
		want, err := httpjson.Encode(out, httpjson.EscapeHTML(), httpjson.NoNewline())
		if err != nil {
			t.Fatal(err)
		}
		if !ok || string(got) != string(want) {
			t.Errorf("wrote %s (%v), the encoder %s", got, ok, want)
		}
	}
	for _, tok := range []string{"a<b", "a&b", `a"b`, "a\\b", "é", "a\nb"} {
		if _, ok := plainSettleResult([]queue.Result{{Token: tok}}); ok {
			t.Errorf("token %q written by hand; the encoder escapes it", tok)
		}
	}
	if _, ok := plainSettleResult([]queue.Result{{Token: "a", Err: &queue.TokenError{Code: "x"}}}); ok {
		t.Error("a failed token written by hand")
	}
}

// The data-plane paths are read as the path templates they replace matched
// them: keywords in any case, no empty segment, nothing more.
func TestParseDataPathMatchesWhatTheTemplatesDid(t *testing.T) {
	for path, want := range map[string]dataPath{
		DataPlanePrefix + "ns/topics/t1:publish":                           {namespace: "ns", operation: "t1:publish"},
		DataPlanePrefix + "ns/TOPICS/t1:publish":                           {namespace: "ns", operation: "t1:publish"},
		DataPlanePrefix + "ns/topics/t1/eventsubscriptions/s1:receive":     {namespace: "ns", topic: "t1", operation: "s1:receive"},
		DataPlanePrefix + "ns/Topics/t1/eventSubscriptions/s1:acknowledge": {namespace: "ns", topic: "t1", operation: "s1:acknowledge"},
	} {
		if got, ok := parseDataPath(path); !ok || got != want {
			t.Errorf("%s: %+v (%v), want %+v", path, got, ok, want)
		}
	}
	for _, path := range []string{
		DataPlanePrefix + "ns/topics/",
		DataPlanePrefix + "ns/topics",
		DataPlanePrefix + "/topics/t1:publish",
		DataPlanePrefix + "ns/topic/t1:publish",
		DataPlanePrefix + "ns/topics/t1:publish/",
		DataPlanePrefix + "ns/topics/t1/x",
		DataPlanePrefix + "ns/topics/t1/subscriptions/s1:receive",
		DataPlanePrefix + "ns/topics//eventsubscriptions/s1:receive",
		DataPlanePrefix + "ns/topics/t1/eventsubscriptions/s1:receive/x",
		"/other/ns/topics/t1:publish",
	} {
		if got, ok := parseDataPath(path); ok {
			t.Errorf("%s: matched as %+v", path, got)
		}
	}
}

// queryValue finds what url.Values.Get finds.
func TestQueryValueIsTheParsedQuerys(t *testing.T) {
	for _, raw := range []string{
		"", "maxEvents=10", "maxEvents=10&maxWaitTime=5", "maxWaitTime=5&maxEvents=3&maxEvents=4",
		"api-version=2024-06-01&maxEvents=%31%30", "max%45vents=7", "maxEvents=%zz&maxEvents=2",
		"maxEvents=1;x=2&maxEvents=9", "&&maxEvents", "maxEvents=a+b", "maxevents=5",
	} {
		u := &url.URL{RawQuery: raw}
		if got, want := queryValue(raw, "maxEvents"), u.Query().Get("maxEvents"); got != want {
			t.Errorf("%q: %q, url.Values %q", raw, got, want)
		}
	}
}
