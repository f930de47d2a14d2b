package httpjson

import (
	"testing"
)

// AppendString writes what Encode writes for a string, for every kind of
// character: plain, escaped, control, HTML, non-ASCII, invalid UTF-8 and
// the line separators.
func TestAppendStringMatchesEncode(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", `q"uote\back`, "line\nfeed\r\t\b\f\x00\x1f", "<a href='x'>&</a>", "é日本🙂", "bad\xffutf8\xc3", "sep\u2028par\u2029"} {
		want, err := Encode(s, NoNewline())
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("a\"b\\c\n\u2028\xff")
	f.Fuzz(func(t *testing.T, s string) {
		want, err := Encode(s, NoNewline())
		if err != nil {
			t.Skip()
		}
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
