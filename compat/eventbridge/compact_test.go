package eventbridge

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// sameAsCompact fails t unless appendCompact, where it takes src, writes
// exactly what json.Compact writes and json.Compact accepts src too. It
// reports whether appendCompact took src.
func sameAsCompact(t *testing.T, src []byte) bool {
	t.Helper()
	got, ok := appendCompact([]byte("prefix"), src)
	if !ok {
		return false
	}
	var want bytes.Buffer
	want.WriteString("prefix")
	if err := json.Compact(&want, src); err != nil {
		t.Fatalf("appendCompact took %q, which json.Compact refuses: %v", src, err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("appendCompact(%q) = %q, json.Compact: %q", src, got, want.Bytes())
	}
	return true
}

func TestAppendCompactAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	taken := []string{
		`{}`, `[]`, `{"a":1}`, " { \"a\" : [ 1 , -2.5e+3 , 0 , 0.25 , 1E9 , true , false , null , \"x\" ] ,\n\t\"b\" : { } }\r\n",
		`{"s":"esc \" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00 end","k":"\u0000"}`, `"plain"`, `-0`, `123`, `true`,
		"{\"bad utf-8 passes\":\"\xff\xfe\"}", `{"html":"<p>&amp;</p>"}`, `{"a":{"b":{"c":[[[{}]]]}}}`,
		`{"` + strings.Repeat("x", 3000) + `":1}`,
	}
	left := []string{
		``, ` `, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `{"a":1 "b":2}`, `{a:1}`, `{'a':1}`,
		`01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `tru`, `nul`, `True`, `{"a":1}x`, `{} {}`, `{"a":"\x"}`, `{"a":"\u12g4"}`,
		`{"a":"\u12"}`, "{\"a\":\"raw\x01control\"}", "{\"a\":\"tab\there\"}", `{"a":"unterminated}`, `"\`,
		strings.Repeat("[", maxCompactDepth+1) + strings.Repeat("]", maxCompactDepth+1),
		"\u00a0{}", "{}\u00a0", `NaN`, `Infinity`,
	}
	for _, s := range taken {
		if !sameAsCompact(t, []byte(s)) {
			t.Errorf("appendCompact left %q to json.Compact", s)
		}
	}
	for _, s := range left {
		if sameAsCompact(t, []byte(s)) {
			t.Errorf("appendCompact took %q", s)
		}
	}
	// What it leaves, compactObject still hands to json.Compact.
	deep := strings.Repeat(`{"a":`, maxCompactDepth+5) + "1" + strings.Repeat("}", maxCompactDepth+5)
	if got, ok := compactObject(deep); !ok || string(got) != deep {
		t.Fatalf("compactObject of a deep detail: %v %.40s", ok, got)
	}
}

// FuzzAppendCompact: whatever appendCompact takes, json.Compact takes too
// and writes the same bytes.
func FuzzAppendCompact(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e+3,true,null,"x\"\u00e9"]}`, " { } ", `[[{"a" : 1}]]`, "\"\xff\"", `{"a":1}x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sameAsCompact(t, src)
	})
}
