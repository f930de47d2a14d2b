package resourcemanager

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The service claims only its own paths, in any letter case, and never a
// provider path of Microsoft.EventGrid (the Event Grid face's): the rest
// reach the router's not-found handler, whatever order faces are mounted in.
func TestClaimsOnlyItsPaths(t *testing.T) {
	t.Parallel()
	r := newRouter()
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	for _, c := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{"GET", "/subscriptions", 200, ""},
		{"GET", "/Tenants", 200, ""},
		{"GET", "/SUBSCRIPTIONS/s1/resourceGroups", 200, ""},
		{"GET", "/subscriptions/s1/locations", 200, ""},
		{"GET", "/providers/Microsoft.Storage", 200, ""},
		{"GET", "/subscriptions/s1/providers/microsoft.storage", 200, ""},
		{"POST", "/subscriptions/s1/providers/Microsoft.Storage/unregister", 200, ""},
		{"HEAD", "/subscriptions/s1/resourcegroups/missing", 404, ""},
		{"POST", "/subscriptions/s1/resourcegroups/rg", 405, "GET, PUT, PATCH, DELETE, HEAD"},
		{"GET", "/subscriptions/s1/providers/Microsoft.Storage/register", 405, "POST"},
		// Not this service's: left to other faces or the not-found answer.
		{"GET", "/providers/Microsoft.EventGrid", 418, ""},
		{"GET", "/subscriptions/s1/providers/microsoft.eventgrid", 418, ""},
		{"POST", "/subscriptions/s1/providers/Microsoft.EventGrid/unregister", 418, ""},
		{"POST", "/subscriptions/s1/providers/Microsoft.Storage/frobnicate", 418, ""},
		{"GET", "/subscriptions/s1/resourcegroups/rg/providers/Microsoft.EventGrid/topics/t", 418, ""},
		{"GET", "/subscriptions/s1/things", 418, ""},
		{"GET", "/topics/t/api/events", 418, ""},
	} {
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.status || rec.Header().Get("Allow") != c.allow {
			t.Errorf("%s %s: %d (Allow %q), want %d (Allow %q)", c.method, c.path, rec.Code, rec.Header().Get("Allow"), c.status, c.allow)
		}
		if c.status >= 400 && c.status != 418 && c.method != "HEAD" &&
			(rec.Header().Get("x-ms-error-code") == "" || !strings.Contains(rec.Body.String(), `"code"`)) {
			t.Errorf("%s %s: error answer without ARM's code: %v %s", c.method, c.path, rec.Header(), rec.Body)
		}
	}
}
