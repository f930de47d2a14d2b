package httpjson_test

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// A value with every character the options treat differently.
var value = map[string]string{"endpoint": "https://x/?a=1&b=<2>"}

// Each option gives the bytes of the encoder call an API's answers were
// always written with, so moving a writer onto the package changes nothing
// on the wire.
func TestWriteKeepsEachAPIsBytes(t *testing.T) {
	t.Parallel()
	var encoded bytes.Buffer // json.NewEncoder(w).Encode(v): Go's defaults
	if err := json.NewEncoder(&encoded).Encode(value); err != nil {
		t.Fatal(err)
	}
	marshalled, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts []httpjson.Option
		want string
	}{
		{"default", nil, `{"endpoint":"https://x/?a=1&b=<2>"}` + "\n"},
		{"EscapeHTML: json.Encoder's defaults", []httpjson.Option{httpjson.EscapeHTML()}, encoded.String()},
		{"EscapeHTML and NoNewline: json.Marshal", []httpjson.Option{httpjson.EscapeHTML(), httpjson.NoNewline()}, string(marshalled)},
		{"NoNewline", []httpjson.Option{httpjson.NoNewline()}, `{"endpoint":"https://x/?a=1&b=<2>"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			httpjson.Write(rec, http.StatusCreated, value, c.opts...)
			if rec.Code != http.StatusCreated || rec.Body.String() != c.want {
				t.Fatalf("answer %d %q, want 201 %q", rec.Code, rec.Body.String(), c.want)
			}
			h := rec.Header()
			if h.Get("Content-Type") != "application/json; charset=utf-8" || h.Get("Content-Length") != strconv.Itoa(len(c.want)) {
				t.Fatalf("headers %v", h)
			}
		})
	}
}

func TestErrorNamesTheStatus(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	httpjson.Error(rec, http.StatusNotFound, "no route %s %s", http.MethodGet, "/_emulator/x&y")
	want := `{"error":{"code":"NotFound","message":"no route GET /_emulator/x&y"}}` + "\n"
	if rec.Code != http.StatusNotFound || rec.Body.String() != want {
		t.Fatalf("answer %d %q, want 404 %q", rec.Code, rec.Body.String(), want)
	}
}

// A value JSON cannot carry is GridBridge's bug, and answered as one.
func TestWriteAnswersAnEncodingFailureAs500(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	httpjson.Write(rec, http.StatusOK, map[string]float64{"x": math.Inf(1)})
	var got struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != http.StatusInternalServerError || got.Error.Code != "InternalServerError" {
		t.Fatalf("answer %d %q (%v)", rec.Code, rec.Body.String(), err)
	}
	if _, err := httpjson.Encode(math.NaN()); err == nil {
		t.Fatal("Encode(NaN) succeeded")
	}
}
