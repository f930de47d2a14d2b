package cloudevent

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestStructuredEventKeepsAttributesAndDataExactly(t *testing.T) {
	t.Parallel()
	body := `{ "specversion":"1.0", "id":"e1", "source":"/s", "type":"t", "subject":"sub",
		"comexampleext":5, "time":"2026-01-02T03:04:05.123456789Z", "data": {"n": 1.50, "s":"x"} }`
	evs, err := ParseRequest(header("Content-Type", "application/cloudevents+json; charset=utf-8"), []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	ev := evs[0]
	want := `{"specversion":"1.0","id":"e1","source":"/s","type":"t","subject":"sub","comexampleext":5,"time":"2026-01-02T03:04:05.123456789Z","data":{"n":1.50,"s":"x"}}`
	if string(ev.JSON) != want {
		t.Fatalf("stored\n%s\nwant\n%s", ev.JSON, want)
	}
	if ev.ID != "e1" || ev.Type != "t" || ev.Subject != "sub" || ev.Source != "/s" {
		t.Fatalf("attributes %+v", ev)
	}
}

func TestBatchIsAllOrNothing(t *testing.T) {
	t.Parallel()
	ok := `{"specversion":"1.0","id":"1","source":"s","type":"t"}`
	evs, err := ParseRequest(header("Content-Type", "application/cloudevents-batch+json"), []byte("["+ok+","+ok+"]"))
	if err != nil || len(evs) != 2 {
		t.Fatalf("valid batch: %v, %d events", err, len(evs))
	}
	_, err = ParseRequest(header("Content-Type", "application/cloudevents-batch+json"), []byte("["+ok+",{}]"))
	var inv *InvalidError
	if !errors.As(err, &inv) || !strings.Contains(inv.Message, "`id` must be non-empty string") {
		t.Fatalf("batch with {}: %v", err)
	}
}

func TestInvalidEventsAreRefused(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"empty object":      `{}`,
		"empty id":          `{"specversion":"1.0","id":"","source":"s","type":"t"}`,
		"numeric source":    `{"specversion":"1.0","id":"1","source":5,"type":"t"}`,
		"wrong specversion": `{"specversion":"0.3","id":"1","source":"s","type":"t"}`,
		"bad time":          `{"specversion":"1.0","id":"1","source":"s","type":"t","time":"yesterday"}`,
		"null time":         `{"specversion":"1.0","id":"1","source":"s","type":"t","time":null}`,
		"subject number":    `{"specversion":"1.0","id":"1","source":"s","type":"t","subject":1}`,
		"both data":         `{"specversion":"1.0","id":"1","source":"s","type":"t","data":1,"data_base64":"AA=="}`,
		"bad base64":        `{"specversion":"1.0","id":"1","source":"s","type":"t","data_base64":"***"}`,
		"array":             `[]`,
		"not json":          `{"id":`,
	}
	for name, body := range cases {
		_, err := ParseRequest(header("Content-Type", "application/cloudevents+json"), []byte(body))
		var inv *InvalidError
		if !errors.As(err, &inv) {
			t.Errorf("%s: got %v, want an InvalidError", name, err)
		}
	}
}

func TestBinaryModeNonJSONDataIsStoredAsDataBase64(t *testing.T) {
	t.Parallel() // NS-5
	h := header("Ce-Specversion", "1.0", "Ce-Id", "A234", "Ce-Source", "/mycontext",
		"Ce-Type", "com.example.someevent", "Ce-Time", "2018-04-05T17:31:00Z",
		"Ce-Comexampleothervalue", "5", "Content-Type", "application/vnd.apache.thrift.binary")
	evs, err := ParseRequest(h, []byte{0, 1, 2, 0xff})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"specversion":"1.0","id":"A234","source":"/mycontext","type":"com.example.someevent","comexampleothervalue":"5","datacontenttype":"application/vnd.apache.thrift.binary","time":"2018-04-05T17:31:00Z","data_base64":"AAEC/w=="}`
	if got := string(evs[0].JSON); got != want {
		t.Fatalf("stored\n%s\nwant\n%s", got, want)
	}
}

func TestBinaryModeJSONDataIsStoredAsData(t *testing.T) {
	t.Parallel() // NS-5
	h := header("Ce-Specversion", "1.0", "Ce-Id", "1", "Ce-Source", "s", "Ce-Type", "t",
		"Content-Type", "application/vnd.order+json; charset=utf-8")
	evs, err := ParseRequest(h, []byte(` {"a": [1, 2]} `))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(evs[0].JSON); !strings.HasSuffix(got, `"data":{"a":[1,2]}}`) {
		t.Fatalf("stored %s", got)
	}
	if _, err := ParseRequest(h, []byte(`{"a":`)); err == nil {
		t.Fatal("malformed JSON body with a JSON content type was accepted")
	}
}

func TestBinaryModeRefusesCeDatacontenttype(t *testing.T) {
	t.Parallel()
	h := header("Ce-Specversion", "1.0", "Ce-Id", "1", "Ce-Source", "s", "Ce-Type", "t",
		"Ce-Datacontenttype", "text/plain", "Content-Type", "text/plain")
	if _, err := ParseRequest(h, []byte("x")); err == nil {
		t.Fatal("ce-datacontenttype was accepted")
	}
}

func TestUnknownContentTypeIsRefused(t *testing.T) {
	t.Parallel()
	for _, ct := range []string{"", "text/plain", "application/xml"} {
		if _, err := ParseRequest(header("Content-Type", ct), []byte(`{}`)); err == nil {
			t.Errorf("content type %q accepted", ct)
		}
	}
}

func TestFilterLookupReadsAttributesAndData(t *testing.T) {
	t.Parallel()
	evs, err := ParseRequest(header("Content-Type", "application/json"),
		[]byte(`{"specversion":"1.0","id":"1","source":"s","type":"t","myext":"v","data":{"n":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := evs[0].ForFilter()
	if v, ok := f.Lookup("data.n"); !ok || v != float64(3) {
		t.Fatalf("data.n = %v, %v", v, ok)
	}
	if v, ok := f.Lookup("myext"); !ok || v != "v" {
		t.Fatalf("myext = %v, %v", v, ok)
	}
	if _, ok := f.Lookup("subject"); ok {
		t.Fatal("absent subject found")
	}
}

// The batch is cut from its compacted text, not decoded: what encoding/json
// would make of the same members is what the checks see.
func TestBatchMembersReadAsTheDecoderReadsThem(t *testing.T) {
	t.Parallel()
	batch := header("Content-Type", "application/cloudevents-batch+json")
	for name, tc := range map[string]struct {
		body, id, subject, problem string
	}{
		"repeated member, last wins": {body: `[{"specversion":"1.0","id":"a","id":"b","source":"s","type":"t"}]`, id: "b"},
		"escaped member name":        {body: `[{"specversion":"1.0","\u0069d":"e","source":"s","type":"t"}]`, id: "e"},
		"escaped value":              {body: `[ {"specversion":"1.0","id":"q\"\u00e9","source":"s","type":"t","subject":"a\/b"} ]`, id: `q"é`, subject: "a/b"},
		"nested look-alikes ignored": {body: `[{"specversion":"1.0","id":"1","source":"s","type":"t","data":{"id":"","time":5,"data_base64":1}}]`, id: "1"},
		"null subject":               {body: `[{"specversion":"1.0","id":"1","source":"s","type":"t","subject":null}]`, id: "1"},
		"null id":                    {body: `[{"specversion":"1.0","id":null,"source":"s","type":"t"}]`, problem: "`id` must be non-empty string"},
		"numeric type":               {body: `[{"specversion":"1.0","id":"1","source":"s","type":7}]`, problem: "`type` must be non-empty string"},
		"null time":                  {body: `[{"specversion":"1.0","id":"1","source":"s","type":"t","time":null}]`, problem: "`time` must be an RFC 3339 timestamp"},
		"null data and base64":       {body: `[{"specversion":"1.0","id":"1","source":"s","type":"t","data":null,"data_base64":"AA=="}]`, problem: "both `data` and `data_base64`"},
		"null body":                  {body: `null`, problem: "at least one CloudEvent"},
		"object body":                {body: `{"a":1}`, problem: "must be a JSON array of CloudEvents: unexpected object"},
		"syntax":                     {body: `[{"a":1},]`, problem: "syntax error at offset 10"},
		"element not an object":      {body: `[{"specversion":"1.0","id":"1","source":"s","type":"t"},[1]]`, problem: "Event number 2 of the batch must be a JSON object"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			evs, err := ParseRequest(batch, []byte(tc.body))
			if tc.problem != "" {
				if err == nil || !strings.Contains(err.Error(), tc.problem) {
					t.Fatalf("err = %v, want one saying %q", err, tc.problem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if evs[0].ID != tc.id || evs[0].Subject != tc.subject {
				t.Fatalf("id %q subject %q, want %q %q", evs[0].ID, evs[0].Subject, tc.id, tc.subject)
			}
		})
	}
}
