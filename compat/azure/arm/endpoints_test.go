package arm

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// Paths split as ARM reads them; nil means the path is refused.
func TestPathSegments(t *testing.T) {
	t.Parallel()
	for path, want := range map[string][]string{
		"/subscriptions/s1/resourceGroups/r%20g": {"subscriptions", "s1", "resourceGroups", "r g"},
		"//SUBSCRIPTIONS//s1/":                   {"SUBSCRIPTIONS", "s1"}, // ARM collapses "//"
		"/subscriptions/s1/%2F":                  {"subscriptions", "s1", "/"},
		"/subscriptions/s1/topics/%zz":           nil, // not escaped properly
		"/topics/t1/api/events":                  nil, // not an ARM path
		"/Tenants":                               {"Tenants"},
		"/subscriptionsX/s1":                     nil, // another root
	} {
		got, ok := pathSegments(path, []string{"subscriptions", "tenants"})
		if ok != (want != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("pathSegments(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
}

func echo(r *Request) (Response, *Error) { return OK(map[string]string{"name": r.Var("name")}), nil }

func TestTableChecksAPIVersionThenMethod(t *testing.T) {
	t.Parallel()
	table := NewTable(Options{RequireAPIVersion: true},
		Endpoint{Method: http.MethodGet, Path: "/subscriptions/{s}/things/{name}", Handle: echo},
		Endpoint{Method: http.MethodDelete, Path: "/subscriptions/{s}/things/{name}", Handle: func(*Request) (Response, *Error) { return NoContent(), nil }},
	)
	cases := []struct {
		method, target string
		status         int
		code, allow    string
	}{
		{"GET", "/subscriptions/s/Things/a%20b?api-version=1", 200, "", ""},
		{"GET", "/subscriptions/s/things/a", 400, CodeMissingAPIVersion, ""},
		{"PUT", "/subscriptions/s/things/a?api-version=1", 405, CodeMethodNotAllowed, "GET, DELETE"},
		{"DELETE", "/subscriptions/s/things/a?api-version=1", 204, "", ""},
	}
	for _, tc := range cases {
		rec := httptest.NewRecorder()
		table.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.target, nil))
		var body struct {
			Name  string
			Error struct{ Code string }
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		switch {
		case rec.Code != tc.status, body.Error.Code != tc.code, rec.Header().Get("Allow") != tc.allow,
			tc.code != "" && rec.Header().Get("x-ms-error-code") != tc.code,
			rec.Header().Get("x-ms-request-id") == "",
			tc.status == 200 && body.Name != "a b":
			t.Errorf("%s %s: %d %s %v", tc.method, tc.target, rec.Code, rec.Body, rec.Header())
		}
	}
}

func TestNewTableRefusesARepeatedRow(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	NewTable(Options{},
		Endpoint{Method: http.MethodGet, Path: "/subscriptions/{s}", Handle: echo},
		Endpoint{Method: http.MethodGet, Path: "/Subscriptions/{s}", Handle: echo})
}

func TestReadBody(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body   string
		status int
	}{{"{}", 0}, {"  \n", 400}, {string(make([]byte, MaxBody+1)), 413}} {
		_, err := ReadBody(httptest.NewRequest(http.MethodPut, "/", strings.NewReader(tc.body)))
		if (err == nil) != (tc.status == 0) || err != nil && err.Status != tc.status {
			t.Errorf("%d bytes: %v, want %d", len(tc.body), err, tc.status)
		}
	}
}

func TestValidName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"abc": true, "a-1-B": true, "ab": false, "a_b": false, "héé": false} {
		if ValidName(name, 3, 5) != want {
			t.Errorf("ValidName(%q) = %v", name, !want)
		}
	}
}

func FuzzPathSegments(f *testing.F) {
	f.Add("/subscriptions/s/resourceGroups/r/providers/Microsoft.EventGrid/topics/t/eventSubscriptions/e")
	f.Add("/subscriptions/s/providers/Microsoft.EventGrid/locations/l/eventSubscriptions")
	f.Fuzz(func(t *testing.T, p string) { pathSegments(p, []string{"subscriptions", "providers"}) })
}
