package jsonscan

import (
	"encoding/json"
	"testing"
	"unsafe"
)

// String takes what encoding/json takes as a string and yields the same;
// what it refuses is left to encoding/json.
func TestStringAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`"plain"`, `"é 🙂"`, `"\"\\\/\b\f\n\r\t"`, `"\u00e9\ud83d\ude42"`, `"\ud800"`, `"\ud800x"`, `"\ud800\u0041"`,
		`"\udc00\ud800"`, "\"\xff\"", `"\x01"`, `"\q"`, `"\u12"`, `"open`, `"a\`,
	} {
		r := New([]byte(in))
		got, ok := r.String()
		if !ok || !r.End() {
			continue
		}
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("String took %s, which encoding/json refuses: %v", in, err)
		}
		if got != want {
			t.Errorf("String(%s) = %q, encoding/json %q", in, got, want)
		}
	}
}

// Int takes only JSON's plain integers that fit an int.
func TestInt(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		"0": true, "-3": true, "10": true, "01": false, "1.0": false, "1e3": false, "-": false, "": false,
		"99999999999999999999": false,
	} {
		r := New([]byte(in))
		if _, ok := r.Int(); ok != want {
			t.Errorf("Int(%q) ok = %v, want %v", in, ok, want)
		}
	}
}

// Object hands each member's name to member and refuses escaped names.
func TestObject(t *testing.T) {
	t.Parallel()
	r := New([]byte(` { "a" : "x" , "b":["y","z"] } `))
	var keys []string
	ok := r.Object(func(key []byte) bool {
		keys = append(keys, string(key))
		if string(key) == "b" {
			_, ok := r.Strings()
			return ok
		}
		_, ok := r.String()
		return ok
	})
	if !ok || !r.End() || len(keys) != 2 {
		t.Fatalf("Object: ok %v, end %v, keys %v", ok, r.End(), keys)
	}
	for _, in := range []string{`{"\u0061":"x"}`, `{"a":"x",}`, `{"a" "x"}`, `{`} {
		r := New([]byte(in))
		if r.Object(func([]byte) bool { _, ok := r.String(); return ok }) && r.End() {
			t.Errorf("Object took %s", in)
		}
	}
}

// StringOr yields same itself when the value equals it, escaped or not,
// and the value otherwise.
func TestStringOr(t *testing.T) {
	same := "shop.orders"
	for in, want := range map[string]string{`"shop.orders"`: same, `"shop\u002eorders"`: same, `"shop.order"`: "shop.order", `"x\n"`: "x\n"} {
		r := New([]byte(in))
		got, ok := r.StringOr(same)
		if !ok || got != want {
			t.Fatalf("StringOr(%s) = %q, %v; want %q", in, got, ok, want)
		}
		if want == same && unsafe.StringData(got) != unsafe.StringData(same) {
			t.Errorf("StringOr(%s) made a copy of %q", in, same)
		}
	}
	body := []byte(`"shop.orders"`)
	if n := testing.AllocsPerRun(100, func() {
		r := New(body)
		_, _ = r.StringOr(same)
	}); n != 0 {
		t.Errorf("StringOr of an equal value allocates %v times", n)
	}
}
