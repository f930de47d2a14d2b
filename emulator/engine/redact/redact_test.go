package redact

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestRequestRedactsWhatIsMarkedAndLeavesTheRest(t *testing.T) {
	t.Parallel()
	s := &Secrets{}
	s.Header("x-api-key", "KEY-VALUE")
	s.Query("token", "QUERY-VALUE")
	s.Body("password", "BODY-VALUE")
	sent := &engine.RecordedRequest{Method: "POST", URL: "https://h/p?token=QUERY-VALUE&plain=1",
		Header: http.Header{"X-Api-Key": {"KEY-VALUE"}, "X-Plain": {"v"}},
		Body:   []byte(`{"password":"BODY-VALUE","n":1}`)}
	got := s.Request(sent)
	if got.Header.Get("X-Api-Key") != Marker || got.Header.Get("X-Plain") != "v" {
		t.Errorf("headers = %v", got.Header)
	}
	if got.URL != "https://h/p?token="+Marker+"&plain=1" {
		t.Errorf("url = %s", got.URL)
	}
	if string(got.Body) != `{"n":1,"password":"<redacted>"}` {
		t.Errorf("body = %s", got.Body)
	}
	if sent.Header.Get("X-Api-Key") != "KEY-VALUE" || !strings.Contains(sent.URL, "QUERY-VALUE") {
		t.Error("the request as sent was changed")
	}
	s.Keep = true
	if kept := s.Request(sent); kept.Header.Get("X-Api-Key") != "KEY-VALUE" {
		t.Error("Keep redacted anyway")
	}
}

func TestTextRedactsURLsAndValuesInErrors(t *testing.T) {
	t.Parallel()
	s := &Secrets{}
	raw := "https://hook.example/x?code=A%2FSECRET&sig=SIGVALUE"
	s.AllQuery(raw)
	err := &url.Error{Op: "Post", URL: raw, Err: errors.New("dial tcp: connection refused")}
	msg := s.Text(err.Error(), raw)
	if strings.Contains(msg, "SECRET") || strings.Contains(msg, "SIGVALUE") || !strings.Contains(msg, "code="+Marker) {
		t.Errorf("message = %s", msg)
	}
	if got := s.Text("the value was A/SECRET"); got != "the value was "+Marker {
		t.Errorf("free text = %s", got)
	}
	if got := (&Secrets{}).Text(err.Error(), raw); got != err.Error() {
		t.Errorf("nothing secret, yet %s", got)
	}
}

// A known URL is answered as it was redacted, other URLs as before.
func TestKnowURLAnswersAsURLDid(t *testing.T) {
	t.Parallel()
	s := &Secrets{}
	s.AllQuery("https://hook.example/api?code=abcd&x=1")
	want := s.URL("https://hook.example/api?code=abcd&x=1")
	s.KnowURL("https://hook.example/api?code=abcd&x=1")
	if got := s.URL("https://hook.example/api?code=abcd&x=1"); got != want || got != "https://hook.example/api?code=<redacted>&x=<redacted>" {
		t.Fatalf("known URL redacted as %q, want %q", got, want)
	}
	if got := s.URL("https://other.example/?code=abcd"); got != "https://other.example/?code=<redacted>" {
		t.Fatalf("another URL redacted as %q", got)
	}
}
