package emulator_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/testkit"
)

// pathSpellings are other ways to write an ARM path that a router may take
// for the same resource: empty segments, dot segments, an encoded slash, a
// trailing slash, another letter case. However a request spells the path,
// if it reaches an ARM handler its token is checked as ARM's.
func pathSpellings(p string) map[string]string {
	return map[string]string{
		"leading //":       "/" + p,
		"leading /./":      "/." + p,
		"inner //":         strings.Replace(p, "/resourceGroups/", "//resourceGroups//", 1),
		"inner /./":        strings.Replace(p, "/providers/", "/./providers/./", 1),
		"dot-dot":          strings.Replace(p, "/subscriptions/", "/subscriptions/x/../", 1),
		"encoded slashes":  strings.Replace(p, "/resourceGroups/", "%2FresourceGroups%2F", 1),
		"encoded slash 2F": strings.Replace(p, "/providers/", "/providers%2f", 1),
		"trailing /":       p + "/",
		"trailing /.":      p + "/.",
		"upper case":       strings.NewReplacer("subscriptions", "SUBSCRIPTIONS", "resourceGroups", "RESOURCEGROUPS", "providers", "PROVIDERS").Replace(p),
		"mixed case":       strings.NewReplacer("subscriptions", "SubScriptions", "Microsoft.EventGrid", "microsoft.eventgrid").Replace(p),
	}
}

// Under --strict-auth no spelling of an ARM path is served without a
// token: not the topic, its keys, its key regeneration or its deletion,
// not a namespace, a resource group or the subscription list. The
// resources are there (a bypass would answer 2xx, not 404), and are
// unchanged afterwards.
func TestStrictAuthHoldsForEverySpellingOfAnARMPath(t *testing.T) {
	t.Parallel()
	e := testkit.Start(t, testkit.WithStrictAuth())
	armToken := token(t, credential(t, e, "tenant-1"), armScope)
	sub := "/subscriptions/" + testkit.SubscriptionID
	group := sub + "/resourceGroups/rg"
	topic := group + "/providers/Microsoft.EventGrid/topics/strict-paths"
	namespace := group + "/providers/Microsoft.EventGrid/namespaces/strict-ns"
	const api = "?api-version=2025-02-15"
	for _, step := range []struct{ path, body string }{
		{topic, `{"location":"westus"}`},
		{namespace, `{"location":"westus","sku":{"name":"Standard","capacity":1}}`},
	} {
		if status, code := call(t, e, http.MethodPut, e.TLSURL()+step.path+api, armToken, step.body); status >= 300 {
			t.Fatalf("PUT %s with a token: HTTP %d %s", step.path, status, code)
		}
	}
	keys := func() string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, e.TLSURL()+topic+"/listKeys"+api, nil)
		req.Header.Set("Authorization", "Bearer "+armToken)
		resp, err := e.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("listKeys with a token: HTTP %d %v", resp.StatusCode, err)
		}
		return string(raw)
	}
	before := keys()

	requests := []struct{ method, path, body string }{
		{http.MethodGet, topic, ""},
		{http.MethodPut, group + "/providers/Microsoft.EventGrid/topics/strict-new", `{"location":"westus"}`},
		{http.MethodPost, topic + "/listKeys", ""},
		{http.MethodPost, topic + "/regenerateKey", `{"keyName":"key1"}`},
		{http.MethodDelete, topic, ""},
		{http.MethodGet, namespace, ""},
		{http.MethodDelete, namespace, ""},
		{http.MethodGet, group, ""},
		{http.MethodDelete, group, ""},
		{http.MethodGet, sub + "/providers/Microsoft.EventGrid/topics", ""},
		{http.MethodGet, "/subscriptions", ""},
	}
	for _, rq := range requests {
		noToken := func(path string) int {
			t.Helper()
			req, err := http.NewRequest(rq.method, e.TLSURL()+path+api, strings.NewReader(rq.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			status, _ := send(t, e, req)
			return status
		}
		// The plain spelling is refused: the check this test relies on.
		if status := noToken(rq.path); status != http.StatusUnauthorized {
			t.Errorf("%s %s without a token: HTTP %d, want 401", rq.method, rq.path, status)
		}
		for name, path := range pathSpellings(rq.path) {
			if status := noToken(path); status < 300 || status >= 500 {
				t.Errorf("%s %s (%s) without a token: HTTP %d, want a refusal (401, or 4xx where no route takes it)",
					rq.method, path, name, status)
			}
		}
	}
	if after := keys(); after != before {
		t.Errorf("the topic's keys changed without a token:\nbefore %s\nafter  %s", before, after)
	}
}

// The data planes check tokens however their path is spelt: an ARM token
// is refused by a topic's publish endpoint on every spelling that reaches
// it.
func TestDataPlaneTokenCheckHoldsForEverySpelling(t *testing.T) {
	t.Parallel()
	e := testkit.Start(t)
	cred := credential(t, e, "tenant-1")
	armToken := token(t, cred, armScope)
	topic := "/subscriptions/" + testkit.SubscriptionID + "/resourceGroups/rg/providers/Microsoft.EventGrid/topics/plane-paths"
	if status, code := call(t, e, http.MethodPut, e.TLSURL()+topic+"?api-version=2025-02-15", armToken, `{"location":"westus"}`); status >= 300 {
		t.Fatalf("PUT topic: HTTP %d %s", status, code)
	}
	events := `[{"id":"1","eventType":"t","subject":"s","eventTime":"2026-01-01T00:00:00Z","data":{},"dataVersion":"1"}]`
	publish := "/topics/plane-paths/api/events"
	for name, path := range map[string]string{
		"plain":       publish,
		"leading //":  "/" + publish,
		"trailing /":  publish + "/",
		"upper case":  "/TOPICS/plane-paths/api/events",
		"encoded /":   "/topics%2Fplane-paths/api/events",
		"leading /./": "/." + publish,
	} {
		status, _ := call(t, e, http.MethodPost, e.TLSURL()+path+"?api-version=2018-01-01", armToken, events)
		if status < 300 || status >= 500 {
			t.Errorf("publish at %s (%s) with an ARM token: HTTP %d, want a refusal", path, name, status)
		}
	}
}
