package awsjson

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/frame"
)

func TestTimestampAcceptsEveryClientForm(t *testing.T) {
	t.Parallel()
	for _, text := range []string{`1700000000`, `1700000000.123`, `1.700000000123e9`, `1.7e9`} {
		var ts Timestamp
		if err := json.Unmarshal([]byte(text), &ts); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if ts.Unix() != 1700000000 && text != `1.7e9` {
			t.Errorf("%s = %s", text, ts.Time)
		}
	}
	var ts Timestamp
	if err := json.Unmarshal([]byte(`"2024-01-01T00:00:00Z"`), &ts); err == nil {
		t.Error("an ISO string must be refused")
	}
	out, _ := json.Marshal(Timestamp{time.Unix(1700000000, 123e6)})
	whole, _ := json.Marshal(Timestamp{time.Unix(1700000000, 0)})
	if string(out) != "1700000000.123" || string(whole) != "1700000000" {
		t.Errorf("marshal: %s %s", out, whole)
	}
}

func TestCallerOf(t *testing.T) {
	t.Parallel()
	req := func(auth, regionSet string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Set("Authorization", auth)
		if regionSet != "" {
			r.Header.Set("X-Amz-Region-Set", regionSet)
		}
		return r
	}
	cases := []struct {
		auth, regionSet string
		want            Caller
	}{
		{"AWS4-HMAC-SHA256 Credential=123456789012/20261130/eu-west-1/events/aws4_request, SignedHeaders=x, Signature=y", "", Caller{"123456789012", "eu-west-1"}},
		{"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261130/ap-south-1/events/aws4_request, SignedHeaders=x", "", Caller{DefaultAccount, "ap-south-1"}},
		{"AWS4-ECDSA-P256-SHA256 Credential=123456789012/20261130/events/aws4_request, SignedHeaders=x", "*", Caller{"123456789012", DefaultRegion}},
		{"AWS4-ECDSA-P256-SHA256 Credential=123456789012/20261130/events/aws4_request, SignedHeaders=x", "sa-east-1", Caller{"123456789012", "sa-east-1"}},
		{"", "", Caller{DefaultAccount, DefaultRegion}},
		{"garbage", "", Caller{DefaultAccount, DefaultRegion}},
	}
	for _, c := range cases {
		if got := CallerOf(req(c.auth, c.regionSet)); got != c.want {
			t.Errorf("%q: %+v, want %+v", c.auth, got, c.want)
		}
	}
}

func TestWriteErrorShape(t *testing.T) {
	t.Parallel()
	w := httptest.NewRecorder()
	WriteError(w, "req-1", NotFound("Rule %s does not exist on EventBus %s.", "r", "default"))
	if w.Code != 400 || w.Header().Get("X-Amzn-ErrorType") != CodeResourceNotFound || w.Header().Get("X-Amzn-RequestId") != "req-1" ||
		w.Body.String() != `{"__type":"ResourceNotFoundException","message":"Rule r does not exist on EventBus default."}` {
		t.Fatalf("%d %v %s", w.Code, w.Header(), w.Body)
	}
	w = httptest.NewRecorder()
	WriteError(w, "", errors.New("boom"))
	if w.Code != 500 || w.Header().Get("X-Amzn-ErrorType") != CodeInternal {
		t.Fatalf("plain error: %d %v", w.Code, w.Header())
	}
}

func TestViolations(t *testing.T) {
	t.Parallel()
	var v Violations
	if v.Err() != nil {
		t.Fatal("no violations must be no error")
	}
	x := "x!"
	v.Add(&x, "name", Pattern(NamePattern))
	v.Required("rule")
	want := `2 validation errors detected: Value 'x!' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [\.\-_A-Za-z0-9]+; Value null at 'rule' failed to satisfy constraint: Member must not be null`
	if err := v.Err(); err == nil || err.(*Error).Message != want || err.(*Error).Code != CodeValidation {
		t.Fatalf("%v", err)
	}
}

// A timestamp member given as a string or an out-of-range number is named
// as a timestamp, not as the Go struct that holds it.
func TestTimestampMemberOfWrongType(t *testing.T) {
	t.Parallel()
	var in struct {
		Entries []struct{ Time *Timestamp }
	}
	for _, body := range []string{`{"Entries":[{"Time":"tomorrow"}]}`, `{"Entries":[{"Time":1e300}]}`, `{"Entries":[{"Time":{}}]}`} {
		err := Decode([]byte(body), &in)
		if err == nil || err.Error() == "" {
			t.Fatalf("%s: no error", body)
		}
		if got, want := err.Error(), "The value of member Entries.Time is not of type timestamp."; !strings.Contains(got, want) {
			t.Errorf("%s: got %q, want it to contain %q", body, got, want)
		}
	}
}

// A member of a group of members that shapes share (an embedded struct) is
// named as the wire names it, without the group.
func TestMemberOfEmbeddedGroupOfWrongType(t *testing.T) {
	t.Parallel()
	var in struct {
		Targets []struct {
			Id *string
			TargetInvocation
			TargetDelivery
		}
	}
	for body, want := range map[string]string{
		`{"Targets":[{"Arn":5}]}`:                                    "The value of member Targets.Arn is not of type string.",
		`{"Targets":[{"RetryPolicy":{"MaximumRetryAttempts":"x"}}]}`: "The value of member Targets.RetryPolicy.MaximumRetryAttempts is not of type integer.",
		`{"Targets":[{"Id":[]}]}`:                                    "The value of member Targets.Id is not of type string.",
	} {
		err := Decode([]byte(body), &in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want it to contain %q", body, err, want)
		}
	}
}

func TestRequireRecordsOnlyMissingMembers(t *testing.T) {
	t.Parallel()
	var v Violations
	name := "x"
	Require(&v, &name, "name")
	if v.Err() != nil {
		t.Fatalf("a member that is set: %v", v.Err())
	}
	Require(&v, (*int32)(nil), "limit")
	want := "1 validation error detected: Value null at 'limit' failed to satisfy constraint: Member must not be null"
	if err := v.Err(); err == nil || err.(*Error).Message != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestSigningService(t *testing.T) {
	t.Parallel()
	for auth, want := range map[string]string{
		"AWS4-HMAC-SHA256 Credential=AKID/20261130/eu-west-1/sqs/aws4_request, SignedHeaders=x": "sqs",
		"AWS4-ECDSA-P256-SHA256 Credential=AKID/20261130/events/aws4_request, SignedHeaders=x":  "events",
		"AWS4-HMAC-SHA256 Credential=AKID/20261130/sqs/aws4_requests, SignedHeaders=x":          "",
		"AWS4-HMAC-SHA256 Credential=AKID/sqs/aws4_request, SignedHeaders=x":                    "",
		"AWS4-HMAC-SHA256 Credential=a/b/c/d/e/aws4_request":                                    "e",
		"Credential=aws4_request": "",
		"":                        "",
	} {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Set("Authorization", auth)
		if got := frame.SigningService(r); got != want {
			t.Errorf("%q: %q, want %q", auth, got, want)
		}
	}
	// A caller with a longer scope than SigV4's is none of its forms.
	r := httptest.NewRequest(http.MethodPost, "/", nil)
	r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=123456789012/a/b/c/d/aws4_request")
	if got := CallerOf(r); got != (Caller{"123456789012", DefaultRegion}) {
		t.Errorf("six-field scope: %+v", got)
	}
}
