package outbound

import (
	"net/url"
	"testing"
)

// The request line's target is u.RequestURI(), written in place.
func TestAppendRequestURIIsRequestURI(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"http://h/hook", "http://h", "http://h/?", "http://h/a%20b?code=a%20b", "http://h/a/b?x=1&y=2", "http://h/caf%C3%A9#frag"} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(appendRequestURI(nil, u)), u.RequestURI(); got != want {
			t.Errorf("%s: %q, RequestURI %q", raw, got, want)
		}
	}
	opaque := &url.URL{Scheme: "http", Opaque: "//h/x", RawQuery: "q=1"}
	if got, want := string(appendRequestURI(nil, opaque)), opaque.RequestURI(); got != want {
		t.Errorf("opaque: %q, RequestURI %q", got, want)
	}
}
