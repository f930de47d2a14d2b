package pattern

import (
	"strings"
	"testing"
)

func TestInvalidEventJSON(t *testing.T) {
	t.Parallel()
	p := mustParse(t, `{"detail":{"a":["x"]}}`)
	m := NewMatcher()
	m.Add("r", p)
	for _, event := range []string{
		``,
		`"a plain string"`,
		`["an","array"]`,
		`42`,
		`{`,
		`{"a":}`,
		`{"a":1,}`,
		`{"a":[1,]}`,
		`{"a" 1}`,
		`{"a":1 "b":2}`,
		`{"a":01}`,
		`{"a":1.}`,
		`{"a":-}`,
		`{"a":tru}`,
		`{"a":"x}`,
		"{\"a\":\"\x01\"}",
		`{"a":"\q"}`,
		`{"a":"\u12"}`,
		"{\"a\":\"\xff\"}",
		`{"a":1} trailing`,
		`{"a":1}{}`,
		`{"detail":{"a":"x"}`,
		`{"skipped":{"deep":[1,{"x":]}]}}`,
		`{"skipped":[1 2]}`,
		`{"skipped":{"a":1,}}`,
		`{'a':1}`,
		`{"a":NaN}`,
		strings.Repeat(`{"a":`, maxEventDepth+1) + `1` + strings.Repeat(`}`, maxEventDepth+1),
		`{"skipped":` + strings.Repeat(`[`, maxEventDepth+1) + strings.Repeat(`]`, maxEventDepth+1) + `}`,
	} {
		if ok, err := p.Match([]byte(event)); err == nil {
			t.Errorf("Pattern.Match(%.60q) = %v, want an error", event, ok)
		}
		if ids, err := m.Match([]byte(event)); err == nil {
			t.Errorf("Matcher.Match(%.60q) = %v, want an error", event, ids)
		}
	}
}

func TestValidEventJSON(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"white space", `{"a":["x"]}`, " \t\r\n{ \"a\" : \"x\" , \"b\" : [ 1 , { } ] }\n", true},
		{"escapes in skipped parts", `{"a":["x"]}`, `{"s":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude80","a":"x"}`, true},
		{"escaped key", `{"detail-type":["x"]}`, `{"detail\u002dtype":"x"}`, true},
		{"escaped value", `{"a":["é🚀"]}`, `{"a":"\u00e9\ud83d\ude80"}`, true},
		{"lone surrogate", `{"a":["\ufffd"]}`, `{"a":"\ud800"}`, true},
		{"numbers of every shape", `{"a":[{"exists":true}]}`, `{"n":[0,-0,1.5,-2e10,3E+2,4e-2],"a":1}`, true},
		{"deep skipped part", `{"a":["x"]}`, `{"z":` + strings.Repeat(`[`, 200) + strings.Repeat(`]`, 200) + `,"a":"x"}`, true},
		{"non-ASCII text", `{"a":["日本語"]}`, `{"b":"ünïcödé","a":"日本語"}`, true},
		{"duplicate event keys", `{"a":["y"]}`, `{"a":"x","a":"y"}`, true},
		{"long string", `{"a":[{"prefix":"ab"}]}`, `{"a":"ab` + strings.Repeat("c", 1000) + `"}`, true},
	})
}
